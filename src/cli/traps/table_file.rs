//! The table on disk: writing it, its header (what its lines mean and
//! every run that grew it), and taking in shards grown apart.

use super::{TrapsArgs, WHO};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::Gaps;
use pawnrace::tournament::Openings;
use std::path::Path;
use std::process::ExitCode;

/// `--merge`: the shards' changes and runs into `--out`.
pub(super) fn merge(args: &TrapsArgs, existing: &str, mut table: Traps) -> ExitCode {
    let mut texts = existing.to_string();
    let mut shards = Vec::new();
    for path in &args.merge {
        let read = std::fs::read_to_string(path).map_err(|e| e.to_string());
        match read.and_then(|text| Ok((Traps::parse(&text)?, text))) {
            Ok((shard, text)) => {
                shards.push(shard);
                texts.push('\n');
                texts.push_str(&text);
            }
            Err(e) => {
                eprintln!("{WHO}: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let set = match table.merge(&shards) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    if !save(&args.out, &table, &header(&texts, None)) {
        return ExitCode::FAILURE;
    }
    eprintln!(
        "{WHO}: merged {} tables: {set} traps set, table {} positions",
        shards.len(),
        table.len()
    );
    ExitCode::SUCCESS
}

/// Writes `table` to `path`; whether that worked (it says why not).
pub(super) fn save(path: &Path, table: &Traps, header: &str) -> bool {
    match std::fs::write(path, table.to_text(header)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", path.display());
            false
        }
    }
}

/// The run line this run adds to the header.
pub(super) fn this_run(args: &TrapsArgs) -> String {
    let gaps = match &args.gaps {
        Openings::Gaps(list) if list.len() == 64 => "all".to_string(),
        Openings::Gaps(list) => list
            .iter()
            .map(Gaps::to_string)
            .collect::<Vec<_>>()
            .join(","),
        _ => String::new(),
    };
    let mut after = match args.after.trim() {
        "" => String::new(),
        moves => format!(" --after {}", moves.replace(' ', ",")),
    };
    if let Some(player) = &args.player {
        let paths: Vec<String> = args.games.iter().map(|p| p.display().to_string()).collect();
        after.push_str(&format!(
            " --games {} --player {player} --turns {}",
            paths.join(" "),
            args.turns
        ));
        if let Some(shard) = args.shard {
            after.push_str(&format!(" --shard {shard}"));
        }
    }
    if args.again_below > 0 {
        after.push_str(&format!(" --again-below {}", args.again_below));
    }
    if args.lead_ins {
        after.push_str(" --lead-ins");
    }
    let model = match &args.engine {
        None => format!(
            "--model-depth {} --model-nodes {} --trap-depth {}",
            args.model_depth, args.model_nodes, args.trap_depth
        ),
        Some(command) => {
            let mut text = format!("--engine '{}'", command.trim());
            if let Some(name) = &args.engine_name {
                text.push_str(&format!(" --engine-name {name}"));
            }
            for o in &args.engine_options {
                text.push_str(&format!(" --engine-option {}={}", o.name, o.value));
            }
            match args.engine_movetime {
                Some(ms) => text.push_str(&format!(
                    " --engine-movetime {ms} --engine-tries {}",
                    args.engine_tries
                )),
                None => {
                    let nodes: Vec<String> = args.engine_nodes.iter().map(u32::to_string).collect();
                    text.push_str(&format!(" --engine-nodes {}", nodes.join(",")));
                }
            }
            if args.engine_in_game {
                text.push_str(" --engine-in-game");
            }
            text
        }
    };
    format!(
        "run: pawnrace traps --gaps {gaps}{after} --plies {} {model} --choice-ms {} --proof-ms {} --hash {}",
        args.plies, args.choice_ms, args.proof_ms, args.table.mib
    )
}

/// The table's header: what its lines mean, and every run that grew it
/// (`existing`'s, then `this_run`).
pub(super) fn header(existing: &str, this_run: Option<String>) -> String {
    crate::cli::args::runs_header(
        "Traps set ahead of time near the openings' start (see src/proofs/traps.rs):\n\
         the position's text, its proven value for the side to move (loss or draw), the move\n\
         to play, the model opponent's reply proven to throw its result away, and the depths\n\
         at which the model chose that reply; or `none` where no move fooled the model; or a\n\
         `lead` to the model's trap a move later (its reply, and the levels that trap fools).\n\
         A model `<opponent>-record` is the opponent's recorded games (clients/analysis/record.py):\n\
         the trap turned clearly more of them, its levels the meetings the opponent erred at.",
        existing,
        this_run,
    )
}
