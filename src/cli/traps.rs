//! `pawnrace traps`: chooses the traps table's moves (`data/traps.txt`)
//! near the openings' start, resumably; `--explain` shows every candidate
//! as the model saw it.

use super::args::ProofTable;
use super::cache::CacheFile;
use clap::Args;
use pawnrace::engine::traps::{self, Event, Plan, Root};
use pawnrace::engine::{Candidate, ModelSettings};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::{Color, Gaps, Position};
use pawnrace::solver::{SolveLimits, Solver, Value};
use pawnrace::tournament::Openings;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
    let existing = std::fs::read_to_string(&args.out).unwrap_or_default();
    let mut table = match Traps::parse(&existing) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    if let Some(every) = args.check {
        return check(&table, every.max(1), &args);
    }
    let gaps: Vec<Gaps> = match &args.gaps {
        Openings::Gaps(list) => list.clone(),
        _ => {
            eprintln!("{WHO}: --gaps takes all or a list of gap pairs");
            return ExitCode::FAILURE;
        }
    };
    let roots = match (args.after.trim(), gaps.as_slice()) {
        ("", _) => traps::opening_roots(&gaps),
        (after, &[one]) => match super::args::position_after(one, after) {
            Ok(pos) => vec![Root {
                pos,
                keep: pos.legal_moves().iter().copied().collect(),
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
        model: ModelSettings {
            depth: args.model_depth,
            nodes: args.model_nodes,
            trap_depth: args.trap_depth,
        },
        choice_ms: args.choice_ms,
        proof_ms: args.proof_ms,
    };
    let header = header(&existing, this_run(&args));
    let mut solver = Solver::new(args.table.mib);
    let cache = CacheFile::open(WHO, args.cache.as_deref(), &mut solver);
    let stop = super::stop_on_ctrl_c("the traps run");
    let started = Instant::now();
    let (mut chosen, mut assessed) = (0, 0);
    let mut written = true;
    traps::grow(
        &plan,
        roots,
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
                        println!("  {}", explain(c, plan.model.trap_depth));
                    }
                }
                match trap {
                    Some(t) => {
                        chosen += 1;
                        println!("trap {} {} reply {}", pos.fen(), t.mv, t.reply);
                        written &= save(&args.out, table, &header);
                    }
                    None => println!("none {}", pos.fen()),
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
    // nothing new.
    written &= save(&args.out, &table, &header);
    let saved = cache.is_none_or(|c| c.save(WHO, &solver));
    eprintln!(
        "{WHO}: {assessed} positions, {chosen} traps, table {} positions, {:.0} s",
        table.len(),
        started.elapsed().as_secs_f64()
    );
    if written && saved {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
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

/// `--check`: see [`TrapsArgs::check`].
fn check(table: &Traps, every: usize, args: &TrapsArgs) -> ExitCode {
    let limits = SolveLimits {
        nodes: Some(args.check_nodes),
        movetime_ms: None,
    };
    let stop = super::stop_on_ctrl_c("the checks");
    let mut solver = Solver::new(args.table.mib);
    let started = Instant::now();
    // The value for `side` of `pos`, proven from an empty table.
    let mut value_for = |pos: &Position, side: Color| -> Option<Value> {
        if let Some(o) = pos.outcome() {
            return Some(Value::for_side(o.winner, side));
        }
        solver.clear();
        let d = solver.decide(pos, &limits, &stop)?;
        Some(Value::for_side(d.value.winner(pos.side_to_move()), side))
    };
    let (mut checked, mut wrong, mut unproven) = (0usize, 0usize, 0usize);
    for (pos, trap) in table.entries().step_by(every) {
        if stop.is_raised() {
            break;
        }
        let side = pos.side_to_move();
        let after = pos.play_unchecked(trap.mv);
        let replied = after.play_unchecked(trap.reply);
        let at_least = if trap.value == Value::Draw {
            Value::Win
        } else {
            Value::Draw
        };
        let value = value_for(pos, side);
        let kept = if trap.value == Value::Draw {
            value_for(&after, side)
        } else {
            Some(Value::Loss)
        };
        let thrown = value_for(&replied, side);
        match (value, kept, thrown) {
            (Some(v), Some(k), Some(t)) if v == trap.value && k >= v && t >= at_least => {
                checked += 1
            }
            (Some(v), Some(k), Some(t)) => {
                eprintln!(
                    "{WHO}: {}: the table says {} with {} (reply {}); proven {v}, after the trap {k}, after the reply {t}",
                    pos.fen(),
                    trap.value,
                    trap.mv,
                    trap.reply
                );
                wrong += 1;
            }
            _ => unproven += 1,
        }
    }
    eprintln!(
        "{WHO}: checked {checked}, {wrong} wrong, {unproven} beyond {} nodes; {:.0} s",
        args.check_nodes,
        started.elapsed().as_secs_f64()
    );
    if wrong > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// One candidate: its move, weight, the depths the model errs at, and its
/// reply at each depth.
fn explain(c: &Candidate, trap_depth: u32) -> String {
    let depths: Vec<String> = c.fooled_at.iter().map(u32::to_string).collect();
    let replies: Vec<String> = c.replies.iter().map(|m| m.to_string()).collect();
    format!(
        "{} weight {} fools [{}] replies {}",
        c.mv,
        c.weight(trap_depth),
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
    format!(
        "run: pawnrace traps --gaps {gaps}{after} --plies {} --model-depth {} --model-nodes {} \
         --trap-depth {} --choice-ms {} --proof-ms {} --hash {}",
        args.plies,
        args.model_depth,
        args.model_nodes,
        args.trap_depth,
        args.choice_ms,
        args.proof_ms,
        args.table.mib
    )
}

/// The table's header: what its lines mean, and every run that grew it.
fn header(existing: &str, this_run: String) -> String {
    super::args::runs_header(
        "Traps set ahead of time near the openings' start (see src/proofs/traps.rs):\n\
         the position's text, its proven value for the side to move (loss or draw), the move\n\
         to play, the model opponent's reply proven to throw its result away, and the depths\n\
         at which the model chose that reply.",
        existing,
        this_run,
    )
}
