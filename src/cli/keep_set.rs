//! `pawnrace keep-set` makes the keep-rate benchmark's positions
//! (`data/keep-set.txt`), resumably and in shards; `pawnrace bench keep`
//! plays the engine on them.

use super::args::{ProofTable, SESSION_HASH_MIB, Shard, append_to, parse_ply_range};
use clap::Args;
use pawnrace::lab::keep::{self, Entry, MakeOptions};
use pawnrace::solver::{SolveLimits, Solver};
use pawnrace::stop::Stop;
use std::collections::HashSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct KeepSetArgs {
    /// Samples per opening and side to move.
    #[arg(long, default_value_t = 1)]
    per_side: u32,
    /// Random walks tried per sample before it is recorded as `none`.
    #[arg(long, default_value_t = 6)]
    attempts: u32,
    /// The walks' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The walks' lengths, fewest to most plies: positions this far into
    /// the openings.
    #[arg(long, value_parser = parse_plies, default_value = "1-4")]
    plies: (u32, u32),
    /// Give up on a proof after this many nodes (its move is then `unknown`).
    #[arg(long)]
    nodes: Option<u64>,
    /// Only positions the engine must play without a proof: the proof
    /// tables do not know them and a fresh 16 MiB solver on one thread does
    /// not decide them within this many ms (the solver's share of a
    /// 1000 ms move is 825). Such a set measures the engine's fallback.
    #[arg(long)]
    hard_ms: Option<u64>,
    /// Of the samples the file lacks, take every N-th starting at I, written
    /// I/N (for running shards in parallel; their files are merged afterwards).
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// The set to extend; it is read first and appended to after each sample.
    #[arg(long, default_value = "data/keep-set.txt")]
    out: PathBuf,
    #[command(flatten)]
    table: ProofTable,
}

/// `LO-HI` with `LO < HI`: both sides to move need a length.
fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = parse_ply_range(s)?;
    if lo == hi {
        return Err(format!(
            "plies {lo}-{hi}: want LO < HI (both sides need a length)"
        ));
    }
    Ok((lo, hi))
}

pub fn run(args: KeepSetArgs) -> ExitCode {
    let existing = match super::read_out(&args.out) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("pawnrace keep-set: {e}");
            return ExitCode::FAILURE;
        }
    };
    let set = match keep::parse_set(&existing) {
        Ok(set) => set,
        Err(e) => {
            eprintln!("pawnrace keep-set: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let done: HashSet<_> = set.iter().map(Entry::key).collect();
    // Each position once in a set (see `keep::make_slot`). Shards run side
    // by side do not see each other's; the tests hold every committed set
    // to this once merged.
    let mut taken: HashSet<u64> = set
        .iter()
        .filter_map(|e| match e {
            Entry::Case(c) => Some(c.position().hash()),
            Entry::None(..) => None,
        })
        .collect();
    let mut file = match append_to(&args.out, || format!("{}\n", header(&args))) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pawnrace keep-set: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let options = MakeOptions {
        seed: args.seed,
        per_side: args.per_side,
        attempts: args.attempts,
        limits: SolveLimits {
            nodes: args.nodes,
            movetime_ms: None,
        },
        hard_ms: args.hard_ms,
        session_mib: SESSION_HASH_MIB,
        plies: args.plies,
    };
    let mut solver = Solver::new(args.table.mib);
    let stop = Stop::new();
    let todo = args.shard.of(keep::slots(args.per_side)
        .into_iter()
        .filter(|key| !done.contains(key)));
    eprintln!("keep-set: {} samples to make", todo.len());
    for (n, (gaps, slot)) in todo.iter().enumerate() {
        let start = Instant::now();
        let entry = keep::make_slot(&mut solver, *gaps, *slot, &options, &taken, &stop);
        if let Entry::Case(c) = &entry {
            taken.insert(c.position().hash());
        }
        eprintln!(
            "keep-set: {}/{} {gaps} {slot} {:.1} s: {}",
            n + 1,
            todo.len(),
            start.elapsed().as_secs_f64(),
            match &entry {
                Entry::Case(c) => format!(
                    "{:?} after {} plies, {} keep, {} spoil, {} unknown",
                    c.value,
                    c.plies(),
                    c.keep.len(),
                    c.spoil.len(),
                    c.unknown.len()
                ),
                Entry::None(..) => "no win or draw for the side to move".into(),
            }
        );
        if let Err(e) = writeln!(file, "{entry}").and_then(|()| file.flush()) {
            eprintln!("pawnrace keep-set: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn header(args: &KeepSetArgs) -> String {
    let limits = args
        .nodes
        .map_or(String::new(), |n| format!(" --nodes {n}"))
        + &args
            .hard_ms
            .map_or(String::new(), |ms| format!(" --hard-ms {ms}"));
    let (lo, hi) = args.plies;
    let plies = if (lo, hi) == (1, 4) {
        String::new()
    } else {
        format!(" --plies {lo}-{hi}")
    };
    format!(
        "# The keep-rate benchmark's positions (see src/lab/keep/mod.rs): seeded random\n\
         # walks {lo} to {hi} plies into every opening, off the openings table's line,\n\
         # where the side to move holds a win or draw; every move labelled by the solver.\n\
         # Made by: pawnrace keep-set --per-side {} --attempts {} --seed {}{plies}{limits}\n\
         # (it resumes from this file; --shard I/N splits the work)",
        args.per_side, args.attempts, args.seed
    )
}
