//! `pawnrace bench keep`: the keep rate. The engine moves in each position
//! of the keep set at --movetime; the share of moves that keep the proven
//! value, and the spoils.

use super::super::args::{SessionTable, SetArgs};
use clap::Args;
use pawnrace::lab::keep::{self, Case, KeepRate, Think, Verdict};
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct KeepBenchArgs {
    /// Thinking time per position, ms.
    #[arg(long, default_value_t = 1000)]
    movetime: u64,
    /// The search alone within N nodes a position instead of --movetime
    /// (nothing proved, no books): the search's own picks, the same on any
    /// machine, to compare evaluations and searches.
    #[arg(long, conflicts_with = "movetime")]
    search_nodes: Option<u64>,
    #[command(flatten)]
    set: SetArgs,
    /// Play only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Threads the solver proves with (default one, as a session's
    /// `Threads`).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    table: SessionTable,
}

/// A line per position, the spoils, the summary.
pub fn run(args: &KeepBenchArgs) -> ExitCode {
    let cases = match super::keep_set(&args.set) {
        Ok(cases) => cases,
        Err(e) => {
            eprintln!("pawnrace bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cases: Vec<Case> = cases
        .into_iter()
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    let think = match args.search_nodes {
        Some(n) => Think::Nodes(n),
        None => Think::Movetime(args.movetime),
    };
    let threads = args.threads.max(1);
    let mut rate = KeepRate::default();
    let mut spoils = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let t = keep::trial(case, args.table.mib, threads, think);
        let best = t.best.map_or("(none)".into(), |m| m.to_string());
        let verdict = match t.verdict {
            Verdict::Kept => "kept",
            Verdict::Spoiled => "spoiled",
            Verdict::Unknown => "unknown",
        };
        println!(
            "case {} {} {} plies {} value {:?} best {best} {verdict} time {} proven {}",
            n + 1,
            case.gaps,
            case.slot,
            case.plies(),
            case.value,
            t.time_ms,
            if t.proven { "yes" } else { "no" }
        );
        if t.verdict == Verdict::Spoiled {
            spoils.push(spoil_line(case, &best));
        }
        rate.add(case, &t);
    }
    for s in &spoils {
        println!("{s}");
    }
    println!("{} threads {}", rate.summary(think), threads);
    ExitCode::SUCCESS
}

/// `spoil GAPS SLOT fen FEN played MOVE keeps MOVES`: what was played
/// where, and what would have kept the value.
fn spoil_line(case: &Case, played: &str) -> String {
    let keeps: Vec<String> = case.keep.iter().map(ToString::to_string).collect();
    format!(
        "spoil {} {} fen {} played {played} keeps {}",
        case.gaps,
        case.slot,
        case.position().fen(),
        keeps.join(" ")
    )
}
