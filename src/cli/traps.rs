//! `pawnrace traps`: chooses the traps table's moves (`data/traps.txt`)
//! near the openings' start, resumably; `--explain` shows every candidate
//! as the model saw it.

use super::args::ProofTable;
use super::cache::CacheFile;
use clap::Args;
use pawnrace::engine::traps::{self, Event, Plan};
use pawnrace::engine::{Candidate, ModelSettings};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::Gaps;
use pawnrace::solver::Solver;
use pawnrace::tournament::Openings;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct TrapsArgs {
    /// The openings to walk: all (the 64 gap pairs) or a list like AB,CD.
    #[arg(long, default_value = "all")]
    gaps: Openings,
    /// Traps are chosen in positions fewer than this many plies from the
    /// start.
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
    let gaps: Vec<Gaps> = match &args.gaps {
        Openings::Gaps(list) => list.clone(),
        _ => {
            eprintln!("{WHO}: --gaps takes all or a list of gap pairs");
            return ExitCode::FAILURE;
        }
    };
    let roots = traps::opening_roots(&gaps);
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
                        if let Err(e) = std::fs::write(&args.out, table.to_text(&header)) {
                            eprintln!("{WHO}: {}: {e}", args.out.display());
                            written = false;
                        }
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
    // The header alone, when the run chose nothing new.
    if written && let Err(e) = std::fs::write(&args.out, table.to_text(&header)) {
        eprintln!("{WHO}: {}: {e}", args.out.display());
        written = false;
    }
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
    format!(
        "run: pawnrace traps --gaps {gaps} --plies {} --model-depth {} --model-nodes {} \
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
