//! `pawnrace bench [search|keep|solve]`: the benchmarks. `search` (the
//! default) is the fixed search whose node total is a signature of the
//! search's behaviour; `keep` and `solve` play the engine and the solver on
//! the keep set.

mod keep;
mod solve;

use super::args::{SessionTable, SetArgs};
use clap::{Args, Subcommand};
use pawnrace::lab::bench;
use pawnrace::lab::keep::{self as keep_set, Case, Entry};
use std::process::ExitCode;

/// The keep set as committed; `--set` reads another.
const BUILTIN: &str = include_str!("../../../data/keep-set.txt");

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    what: Option<Bench>,
    // `bench` alone is `bench search`.
    #[command(flatten)]
    search: SearchBenchArgs,
}

#[derive(Subcommand, Debug)]
enum Bench {
    /// Search a fixed set of positions to a fixed depth and report the node
    /// total (a signature of the search) and the speed (the default).
    Search(SearchBenchArgs),
    /// The keep rate: the engine moves in each position of the keep set at
    /// --movetime; the share of moves that keep the proven value, and the
    /// spoils.
    Keep(keep::KeepBenchArgs),
    /// The solver: each position of the keep set solved from an empty
    /// table of --hash MiB within --budget, on --threads; the median and
    /// p90 times and the solver's speed.
    Solve(solve::SolveBenchArgs),
}

#[derive(Args, Debug)]
pub struct SearchBenchArgs {
    /// Depth to search every position to.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    #[command(flatten)]
    table: SessionTable,
}

pub fn run(args: BenchArgs) -> ExitCode {
    match args.what {
        None => search(&args.search),
        Some(Bench::Search(search_args)) => search(&search_args),
        Some(Bench::Keep(keep_args)) => keep::run(&keep_args),
        Some(Bench::Solve(solve_args)) => solve::run(&solve_args),
    }
}

/// One line per position, then the totals.
fn search(args: &SearchBenchArgs) -> ExitCode {
    let depth = args.depth;
    let mut index = 0;
    let report = bench::run(depth, args.table.mib, &mut |pos, result| {
        index += 1;
        let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
        println!(
            "position {index} {} {} bestmove {best} score {} nodes {}",
            pos.rules(),
            pos.fen(),
            result.score,
            result.nodes
        );
    });
    match report {
        Ok(r) => {
            println!(
                "positions {} depth {depth} nodes {} time {} nps {}",
                r.positions,
                r.nodes,
                r.time_ms,
                r.nps()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawnrace: a benchmark position is invalid: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The keep set's positions: the committed set, or `--set`.
fn keep_set(args: &SetArgs) -> Result<Vec<Case>, String> {
    let text = match &args.set {
        None => BUILTIN.to_string(),
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
        }
    };
    let cases = cases_from(&text)?;
    Ok(match args.plies {
        None => cases,
        Some((lo, hi)) => cases
            .into_iter()
            .filter(|c| (lo as usize..=hi as usize).contains(&c.plies()))
            .collect(),
    })
}

/// A keep set's positions, leaving out the slots where none was found.
fn cases_from(text: &str) -> Result<Vec<Case>, String> {
    let set = keep_set::parse_set(text).map_err(|e| format!("the keep set: {e}"))?;
    Ok(set
        .into_iter()
        .filter_map(|e| match e {
            Entry::Case(c) => Some(c),
            Entry::None(..) => None,
        })
        .collect())
}

/// The committed keep set's positions.
#[cfg(test)]
fn builtin_cases() -> Vec<Case> {
    cases_from(BUILTIN).expect("the committed keep set parses")
}

#[cfg(test)]
mod tests {
    /// The committed hard set (`bench keep --set data/keep-hard.txt`)
    /// parses, every one of its positions labelled, wins and draws both.
    #[test]
    fn the_committed_hard_set_parses() {
        let cases = super::cases_from(include_str!("../../../data/keep-hard.txt"))
            .expect("data/keep-hard.txt parses");
        assert_eq!(cases.len(), 81);
        let draws = cases
            .iter()
            .filter(|c| c.value == pawnrace::solver::Value::Draw)
            .count();
        assert_eq!(draws, 14);
    }
}
