//! `pawnrace keep-set` makes the keep-rate benchmark's positions
//! (`data/keep-set.txt`), resumably and in shards; `pawnrace bench --keep`
//! plays the engine on them.

use clap::Args;
use pawnrace::lab::keep::{self, Case, Entry, KeepRate, MakeOptions, Think, Verdict};
use pawnrace::protocol::SessionOptions;
use pawnrace::solver::{SolveLimits, Solver};
use pawnrace::stop::Stop;
use std::collections::HashSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// The set as committed; `--set` reads another.
const BUILTIN: &str = include_str!("../../data/keep-set.txt");

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
    #[arg(long, value_parser = parse_shard, default_value = "0/1")]
    shard: (usize, usize),
    /// The set to extend; it is read first and appended to after each sample.
    #[arg(long, default_value = "data/keep-set.txt")]
    out: PathBuf,
    /// Solver table size, MiB.
    #[arg(long = "solve-hash", default_value_t = 1024)]
    hash: usize,
}

fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = s.split_once('-').ok_or("want LO-HI, e.g. 5-8")?;
    let lo: u32 = lo.parse().map_err(|_| format!("'{lo}' is not a number"))?;
    let hi: u32 = hi.parse().map_err(|_| format!("'{hi}' is not a number"))?;
    if lo == 0 || lo >= hi {
        return Err(format!(
            "plies {lo}-{hi}: want 1 <= LO < HI (both sides need a length)"
        ));
    }
    Ok((lo, hi))
}

pub(crate) fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let (i, n) = s.split_once('/').ok_or("want I/N, e.g. 0/4")?;
    let i: usize = i.parse().map_err(|_| format!("'{i}' is not a number"))?;
    let n: usize = n.parse().map_err(|_| format!("'{n}' is not a number"))?;
    if n == 0 || i >= n {
        return Err(format!("shard {i}/{n}: want 0 <= I < N"));
    }
    Ok((i, n))
}

pub fn make(args: KeepSetArgs) -> ExitCode {
    let existing = std::fs::read_to_string(&args.out).unwrap_or_default();
    let done: HashSet<_> = match keep::parse_set(&existing) {
        Ok(set) => set.iter().map(Entry::key).collect(),
        Err(e) => {
            eprintln!("pawnrace keep-set: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let mut file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pawnrace keep-set: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    if existing.is_empty() {
        let _ = writeln!(file, "{}", header(&args));
    }
    let options = MakeOptions {
        seed: args.seed,
        per_side: args.per_side,
        attempts: args.attempts,
        limits: SolveLimits {
            nodes: args.nodes,
            movetime_ms: None,
        },
        hard_ms: args.hard_ms,
        session_mib: SessionOptions::default().hash_mib,
        plies: args.plies,
    };
    let mut solver = Solver::new(args.hash);
    let stop = Stop::new();
    let (shard, shards) = args.shard;
    // Shards split what is left, so a resumed run spreads evenly.
    let todo: Vec<_> = keep::slots(args.per_side)
        .into_iter()
        .filter(|key| !done.contains(key))
        .enumerate()
        .filter(|(n, _)| n % shards == shard)
        .map(|(_, key)| key)
        .collect();
    eprintln!("keep-set: {} samples to make", todo.len());
    for (n, (gaps, slot)) in todo.iter().enumerate() {
        let start = Instant::now();
        let entry = keep::make_slot(&mut solver, *gaps, *slot, &options, &stop);
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

#[derive(Args, Debug)]
pub struct KeepBenchArgs {
    /// Thinking time per position, ms.
    #[arg(long, default_value_t = 1000)]
    pub movetime: u64,
    /// Read the positions from this file instead of the committed set.
    #[arg(long)]
    pub set: Option<PathBuf>,
    /// Play only the first N positions.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Threads the solver proves with. Default: with --keep one, as a
    /// session's `Threads`; with --solve one per core, as `solve`'s.
    #[arg(long)]
    pub threads: Option<usize>,
    /// With --keep: the search alone within N nodes a position instead of
    /// --movetime (nothing proved, no books): the search's own picks, the
    /// same on any machine, to compare evaluations and searches.
    #[arg(long, conflicts_with = "movetime")]
    pub search_nodes: Option<u64>,
}

impl KeepBenchArgs {
    /// `--threads`, or `default` where it is not given; never below one.
    pub fn threads_or(&self, default: impl FnOnce() -> usize) -> usize {
        self.threads.unwrap_or_else(default).max(1)
    }
}

/// The keep set's positions: the committed set, or `--set`.
pub fn load(args: &KeepBenchArgs) -> Result<Vec<Case>, String> {
    let text = match &args.set {
        None => BUILTIN.to_string(),
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?
        }
    };
    cases_from(&text)
}

/// A keep set's positions, leaving out the slots where none was found.
pub fn cases_from(text: &str) -> Result<Vec<Case>, String> {
    let set = keep::parse_set(text).map_err(|e| format!("the keep set: {e}"))?;
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
pub fn builtin_cases() -> Vec<Case> {
    cases_from(BUILTIN).expect("the committed keep set parses")
}

/// `pawnrace bench --keep`: a line per position, the spoils, the summary.
pub fn bench(args: &KeepBenchArgs, hash_mib: usize) -> ExitCode {
    let cases = match load(args) {
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
    let threads = args.threads_or(|| 1);
    let mut tally = KeepRate::default();
    let mut spoils = Vec::new();
    for (n, case) in cases.iter().enumerate() {
        let t = keep::trial(case, hash_mib, threads, think);
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
            spoils.push(format!(
                "spoil {} {} fen {} played {best} keeps {}",
                case.gaps,
                case.slot,
                case.position().fen(),
                case.keep
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
        tally.add(case, &t);
    }
    for s in &spoils {
        println!("{s}");
    }
    println!("{} threads {}", tally.summary(think), threads);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    /// The committed hard set (`bench --keep --set data/keep-hard.txt`)
    /// parses, every one of its positions labelled, wins and draws both.
    #[test]
    fn the_committed_hard_set_parses() {
        let cases = super::cases_from(include_str!("../../data/keep-hard.txt"))
            .expect("data/keep-hard.txt parses");
        assert_eq!(cases.len(), 81);
        let draws = cases
            .iter()
            .filter(|c| c.value == pawnrace::solver::Value::Draw)
            .count();
        assert_eq!(draws, 14);
    }
}
