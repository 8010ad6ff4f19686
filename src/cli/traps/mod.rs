//! `pawnrace traps`: chooses the traps table's moves (`data/traps.txt`)
//! near the openings' start, resumably, with the engine's own search as
//! the model opponent or, with `--engine`, another UCI engine at a few
//! node counts; `--explain` shows every candidate as the model saw it.

mod check;
mod uci_model;

use super::args::ProofTable;
use super::cache::CacheFile;
use clap::Args;
use pawnrace::engine::traps::{self, Event, Plan, Root};
use pawnrace::engine::{Candidate, ModelSettings, Opponent, SearchModel, TrapRule};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::Gaps;
use pawnrace::solver::Solver;
use pawnrace::tournament::{EngineOption, Openings};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use uci_model::{Levels, UciModel};

#[derive(Args, Debug)]
pub struct TrapsArgs {
    /// The openings to walk: all (the 64 gap pairs) or a list like AB,CD.
    #[arg(long, default_value = "all")]
    gaps: Openings,
    /// Walk from the position after these moves (coordinates, separated by
    /// commas or spaces) instead; --gaps then names one opening.
    #[arg(long, default_value = "")]
    after: String,
    /// Traps are chosen in positions fewer than this many plies from the
    /// start (or from the position --after gives).
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// The model opponent's deepest search.
    #[arg(long, default_value_t = 20)]
    model_depth: u32,
    /// The model's nodes for each candidate move.
    #[arg(long, default_value_t = 1_000_000)]
    model_nodes: u64,
    /// A trap must fool the model at its deepest search, and that at least
    /// this deep.
    #[arg(long, default_value_t = 10)]
    trap_depth: u32,
    /// Another engine as the model opponent instead of the engine's own
    /// search: a UCI command line (split on whitespace), e.g. Fairy-Stockfish.
    /// Positions whose trap another model chose are assessed again, and
    /// their trap replaced where this engine is fooled.
    #[arg(long, value_name = "COMMAND")]
    engine: Option<String>,
    /// The engine's name in the table (default: its program's file name).
    #[arg(long, value_name = "NAME")]
    engine_name: Option<String>,
    /// An option the engine gets once started: NAME=VALUE (repeatable),
    /// e.g. VariantPath=fairy-stockfish/pawnrace.ini, UCI_Variant=pawnrace.
    #[arg(long = "engine-option", value_name = "NAME=VALUE")]
    engine_options: Vec<EngineOption>,
    /// The engine's levels: node counts it searches each reply with
    /// (ascending); a trap must fool it at the last.
    #[arg(long, value_delimiter = ',', default_value = "250000,500000,1000000")]
    engine_nodes: Vec<u32>,
    /// Instead of node counts, ask the engine in --engine-tries searches of
    /// this many ms each, as a match at that move time on this machine
    /// does (its answers vary from try to try); a move is a trap where any
    /// try errs, and weighs the tries that err. The table names it
    /// `<NAME>-<MS>ms`.
    #[arg(long, value_name = "MS", conflicts_with = "engine_nodes")]
    engine_movetime: Option<u32>,
    /// The tries at --engine-movetime.
    #[arg(long, default_value_t = 3, requires = "engine_movetime")]
    engine_tries: u32,
    /// Ask the engine as a game does: after a new game, its own earlier
    /// turns on the walk's line are searched first at the same node count,
    /// so that its table holds them, as in a match. The table names it
    /// `<NAME>-in-game`, a model of its own (a walk re-assesses the
    /// positions whose trap the engine chose from a new game).
    #[arg(long)]
    engine_in_game: bool,
    /// The most one position's choice may take, ms.
    #[arg(long, default_value_t = 120_000)]
    choice_ms: u64,
    /// The most one proof of a position's value on the way may take, ms.
    #[arg(long, default_value_t = 20_000)]
    proof_ms: u64,
    /// Print every candidate of every position chosen in, with the model's
    /// replies and the depths they are errors at.
    #[arg(long)]
    explain: bool,
    /// Instead of walking, prove every Nth trap of the table again from an
    /// empty solver table: the position's value, that a drawn position's
    /// trap keeps the draw, and that the reply throws the opponent's result
    /// away. Fails on any disagreement.
    #[arg(long, value_name = "N")]
    check: Option<usize>,
    /// Instead of walking, take in what these tables changed (copies of
    /// --out grown apart by walks run side by side, one per core): their
    /// traps, their `none` notes, and their runs in the header.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    merge: Vec<PathBuf>,
    /// The most nodes one proof of `--check` may take.
    #[arg(long, default_value_t = 500_000_000)]
    check_nodes: u64,
    /// The table to grow; it is read first and written after every trap.
    #[arg(long, default_value = "data/traps.txt")]
    out: PathBuf,
    #[command(flatten)]
    table: ProofTable,
    /// Read the solver's proofs from this file first and write them back
    /// at the end (made if missing).
    #[arg(long)]
    cache: Option<PathBuf>,
}

const WHO: &str = "pawnrace traps";

pub fn run(args: TrapsArgs) -> ExitCode {
    let existing = match super::read_out(&args.out) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut table = match Traps::parse(&existing) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    if let Some(every) = args.check {
        return check::check(&table, every.max(1), &args);
    }
    if !args.merge.is_empty() {
        return merge(&args, &existing, table);
    }
    let mut model = match Model::new(&args) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let gaps: Vec<Gaps> = match &args.gaps {
        Openings::Gaps(list) => list.clone(),
        _ => {
            eprintln!("{WHO}: --gaps takes all or a list of gap pairs");
            return ExitCode::FAILURE;
        }
    };
    // An engine's search is not the same in a mirrored position: its walk
    // takes an opening and its mirror, and any position and its mirror.
    let mirrors = args.engine.is_some();
    let roots = match (args.after.trim(), gaps.as_slice()) {
        // Another engine's games go where it takes them: from the start,
        // its own first moves (and the tables'), not every first move.
        ("", _) if args.engine.is_some() => traps::opening_roots(&gaps, mirrors)
            .into_iter()
            .map(|r| Root {
                keep: Vec::new(),
                ..r
            })
            .collect(),
        ("", _) => traps::opening_roots(&gaps, mirrors),
        (after, &[one]) => match super::args::line_after(one, after) {
            Ok((before, pos)) => vec![Root {
                pos,
                keep: pos.legal_moves().iter().copied().collect(),
                before,
            }],
            Err(e) => {
                eprintln!("{WHO}: {e}");
                return ExitCode::FAILURE;
            }
        },
        _ => {
            eprintln!("{WHO}: --after needs --gaps to name one opening");
            return ExitCode::FAILURE;
        }
    };
    let plan = Plan {
        plies: args.plies,
        choice_ms: args.choice_ms,
        proof_ms: args.proof_ms,
        mirrors,
    };
    let header = header(&existing, Some(this_run(&args)));
    let mut solver = Solver::new(args.table.mib);
    let cache = CacheFile::open(WHO, args.cache.as_deref(), &mut solver);
    let stop = super::stop_on_ctrl_c("the traps run");
    let started = Instant::now();
    let (mut chosen, mut assessed) = (0, 0);
    let mut written = true;
    let rule = model.opponent().trap_rule();
    let model_name = model.opponent().name().to_string();
    traps::grow(
        &plan,
        roots,
        model.opponent(),
        &mut solver,
        &mut table,
        &stop,
        &mut |event| match event {
            Event::Assessed {
                pos,
                ply,
                value,
                candidates,
                chosen: trap,
                table,
            } => {
                assessed += 1;
                if args.explain {
                    println!("position {} ply {ply} value {value}", pos.fen());
                    for c in candidates {
                        println!("  {}", explain(c, rule));
                    }
                }
                match trap {
                    Some(t) => {
                        chosen += 1;
                        println!("trap {} {} reply {}", pos.fen(), t.mv, t.reply);
                    }
                    None => println!("none {}", pos.fen()),
                }
                // A trap, or a position noted as fooling the model nowhere:
                // a resumed run asks in neither again.
                if trap.is_some() || table.found_nothing(pos, &model_name) {
                    written &= save(&args.out, table, &header);
                }
                eprintln!(
                    "{WHO}: {assessed} positions, {chosen} traps, {:.0} s",
                    started.elapsed().as_secs_f64()
                );
            }
            Event::Unknown { pos, ply } => {
                eprintln!(
                    "{WHO}: ply {ply}: {} not proven in time, left out",
                    pos.fen()
                );
            }
        },
    );
    // Once more at the end: the header names this run even when it chose
    // nothing new (but not a run whose engine failed).
    if model.fault().is_none() {
        written &= save(&args.out, &table, &header);
    }
    let saved = cache.is_none_or(|c| c.save(WHO, &solver));
    eprintln!(
        "{WHO}: {assessed} positions, {chosen} traps, table {} positions, {:.0} s",
        table.len(),
        started.elapsed().as_secs_f64()
    );
    if let Some(fault) = model.fault() {
        eprintln!("{WHO}: stopped: the model engine failed ({fault})");
    }
    if written && saved && model.fault().is_none() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// `--merge`: the shards' changes and runs into `--out`.
fn merge(args: &TrapsArgs, existing: &str, mut table: Traps) -> ExitCode {
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

/// The model opponent the run asks for: the engine's own search, or the
/// engine `--engine` names.
enum Model {
    Own(SearchModel),
    Engine(UciModel),
}

impl Model {
    fn new(args: &TrapsArgs) -> Result<Model, String> {
        match &args.engine {
            None => Ok(Model::Own(SearchModel::new(ModelSettings {
                depth: args.model_depth,
                nodes: args.model_nodes,
                trap_depth: args.trap_depth,
            }))),
            Some(command) => engine_model(command, args).map(Model::Engine),
        }
    }

    fn opponent(&mut self) -> &mut dyn Opponent {
        match self {
            Model::Own(m) => m,
            Model::Engine(m) => m,
        }
    }

    /// What stopped the engine, if it failed.
    fn fault(&self) -> Option<&str> {
        match self {
            Model::Own(_) => None,
            Model::Engine(m) => m.fault(),
        }
    }
}

fn engine_model(command: &str, args: &TrapsArgs) -> Result<UciModel, String> {
    let argv: Vec<String> = command.split_whitespace().map(String::from).collect();
    let Some(program) = argv.first() else {
        return Err("--engine is empty".into());
    };
    let levels = match args.engine_movetime {
        Some(ms) if ms == 0 || args.engine_tries == 0 => {
            return Err("--engine-movetime and --engine-tries want numbers above 0".into());
        }
        Some(ms) => Levels::MoveTime {
            ms,
            tries: args.engine_tries,
        },
        None => {
            let nodes = &args.engine_nodes;
            if nodes.is_empty() || nodes.contains(&0) || !nodes.is_sorted_by(|a, b| a < b) {
                return Err("--engine-nodes wants node counts above 0, ascending".into());
            }
            Levels::Nodes(nodes.clone())
        }
    };
    let mut name = match &args.engine_name {
        Some(n) => n.clone(),
        None => Path::new(program)
            .file_name()
            .map_or_else(|| program.clone(), |f| f.to_string_lossy().into_owned()),
    };
    if let Some(ms) = args.engine_movetime {
        name.push_str(&format!("-{ms}ms"));
    }
    if args.engine_in_game {
        name.push_str("-in-game");
    }
    if name.split_whitespace().count() != 1 || name == pawnrace::proofs::traps::OWN_MODEL {
        return Err(format!("'{name}' cannot name the engine in the table"));
    }
    Ok(UciModel::new(
        name,
        argv,
        args.engine_options.clone(),
        levels,
        args.engine_in_game,
    ))
}

/// Writes `table` to `path`; whether that worked (it says why not).
fn save(path: &Path, table: &Traps, header: &str) -> bool {
    match std::fs::write(path, table.to_text(header)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", path.display());
            false
        }
    }
}

/// One candidate: its move, weight, the levels the model errs at, and its
/// reply at each level.
fn explain(c: &Candidate, rule: TrapRule) -> String {
    let depths: Vec<String> = c.fooled_at.iter().map(u32::to_string).collect();
    let replies: Vec<String> = c.replies.iter().map(|m| m.to_string()).collect();
    format!(
        "{} weight {} fools [{}] replies {}",
        c.mv,
        c.weight(rule),
        depths.join(" "),
        replies.join(" ")
    )
}

fn this_run(args: &TrapsArgs) -> String {
    let gaps = match &args.gaps {
        Openings::Gaps(list) if list.len() == 64 => "all".to_string(),
        Openings::Gaps(list) => list
            .iter()
            .map(Gaps::to_string)
            .collect::<Vec<_>>()
            .join(","),
        _ => String::new(),
    };
    let after = match args.after.trim() {
        "" => String::new(),
        moves => format!(" --after {}", moves.replace(' ', ",")),
    };
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
fn header(existing: &str, this_run: Option<String>) -> String {
    super::args::runs_header(
        "Traps set ahead of time near the openings' start (see src/proofs/traps.rs):\n\
         the position's text, its proven value for the side to move (loss or draw), the move\n\
         to play, the model opponent's reply proven to throw its result away, and the depths\n\
         at which the model chose that reply; or `none` where no move fooled the model.",
        existing,
        this_run,
    )
}
