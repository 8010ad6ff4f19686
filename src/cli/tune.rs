//! `pawnrace tune make` labels positions for tuning the search's leaf
//! evaluation (resumably, in shards); `pawnrace tune fit` fits the
//! evaluation's weights to them and prints what it found.

use super::args::{LabelTable, Shard, append_to};
use clap::{Args, Subcommand};
use pawnrace::lab::tune::{self, FitOptions, Line, MakeOptions};
use pawnrace::solver::{SolveLimits, Solver};
use pawnrace::stop::Stop;
use std::collections::HashSet;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    command: TuneCommand,
}

#[derive(Subcommand, Debug)]
enum TuneCommand {
    /// Walk into the openings and label the quiet positions reached with
    /// their proven value, appending to --out.
    Make(MakeArgs),
    /// Fit the leaf evaluation's weights to labelled positions.
    Fit(FitArgs),
}

#[derive(Args, Debug)]
struct MakeArgs {
    /// Walks to make (numbered from 0; the file's are skipped).
    #[arg(long, default_value_t = 10_000)]
    walks: u64,
    /// The walks' seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Give up on a position after this many nodes (it is then left out).
    #[arg(long, default_value_t = 1_000_000)]
    nodes: u64,
    /// Of the walks the file lacks, take every N-th starting at I (I/N).
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// The file to extend; read first, appended to after each walk.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    table: LabelTable,
}

#[derive(Args, Debug)]
struct FitArgs {
    /// Labelled positions (`tune make`'s file).
    #[arg(long)]
    data: PathBuf,
    /// Optimiser steps.
    #[arg(long, default_value_t = 3000)]
    rounds: usize,
    /// Every N-th position is held out and only measured.
    #[arg(long, default_value_t = 5)]
    hold_out: usize,
    /// The optimiser's step, centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// The terms to fit, by name (comma-separated); the others keep the
    /// evaluation's weights. Default: all.
    #[arg(long, value_delimiter = ',', value_parser = parse_term)]
    terms: Vec<usize>,
    /// Terms to leave out of the fit (comma-separated names).
    #[arg(long, value_delimiter = ',', value_parser = parse_term)]
    freeze: Vec<usize>,
    /// Fit only positions the evaluation scores within N centipawns of
    /// level (the unclear ones).
    #[arg(long)]
    within: Option<i32>,
}

fn parse_term(s: &str) -> Result<usize, String> {
    tune::TERM_NAMES
        .iter()
        .position(|n| *n == s)
        .ok_or_else(|| format!("no term '{s}' (terms: {})", tune::TERM_NAMES.join(", ")))
}

pub fn run(args: TuneArgs) -> ExitCode {
    match args.command {
        TuneCommand::Make(a) => make(a),
        TuneCommand::Fit(a) => fit(a),
    }
}

/// The file's text (empty if there is none yet) and its lines.
fn read(path: &PathBuf) -> Result<(String, Vec<Line>), String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let lines = tune::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((text, lines))
}

fn make(args: MakeArgs) -> ExitCode {
    let options = MakeOptions {
        seed: args.seed,
        limits: SolveLimits {
            nodes: Some(args.nodes),
            movetime_ms: None,
        },
    };
    let (text, existing) = match read(&args.out) {
        Ok(read) => read,
        Err(e) => {
            eprintln!("pawnrace tune make: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Walks of another seed or labels of another budget would mix two
    // different sets under one set of walk numbers.
    if let Some((seed, nodes)) = tune::made_with(&text)
        && (seed, nodes) != (args.seed, args.nodes)
    {
        eprintln!(
            "pawnrace tune make: {} was made with --seed {seed} --nodes {nodes}; resume it with those",
            args.out.display()
        );
        return ExitCode::FAILURE;
    }
    let done: HashSet<u64> = existing.iter().map(Line::index).collect();
    let mut file = match append_to(&args.out, || tune::header(args.walks, &options)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("pawnrace tune make: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let mut solver = Solver::new(args.table.mib);
    let stop = Stop::new();
    let todo = args.shard.of((0..args.walks).filter(|i| !done.contains(i)));
    eprintln!("tune make: {} walks to make", todo.len());
    let mut labelled = 0;
    for (n, &index) in todo.iter().enumerate() {
        let line = tune::make_sample(&mut solver, index, &options, &stop);
        labelled += usize::from(matches!(line, Line::Sample(_)));
        if (n + 1) % 100 == 0 {
            eprintln!("tune make: {}/{}, {labelled} labelled", n + 1, todo.len());
        }
        if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
            eprintln!("pawnrace tune make: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}

fn fit(args: FitArgs) -> ExitCode {
    let samples: Vec<_> = match read(&args.data) {
        Ok((_, lines)) => lines
            .into_iter()
            .filter_map(|l| match l {
                Line::Sample(s) => Some(s),
                Line::None(_) => None,
            })
            .collect(),
        Err(e) => {
            eprintln!("pawnrace tune fit: {e}");
            return ExitCode::FAILURE;
        }
    };
    if samples.is_empty() {
        eprintln!(
            "pawnrace tune fit: {}: no labelled positions",
            args.data.display()
        );
        return ExitCode::FAILURE;
    }
    let options = FitOptions {
        rounds: args.rounds,
        hold_out: args.hold_out,
        rate: args.rate,
        within: args.within,
        fitted: std::array::from_fn(|i| {
            (args.terms.is_empty() || args.terms.contains(&i)) && !args.freeze.contains(&i)
        }),
    };
    let r = tune::fit(&samples, &options);
    println!(
        "positions {} fitted, {} held out; scale {:.1}",
        r.train, r.test, r.scale
    );
    println!(
        "error before {:.5} (held out {:.5}), after {:.5} (held out {:.5})",
        r.before.train, r.before.test, r.after.train, r.after.test
    );
    println!("{:<16} {:>7} {:>7}", "term", "before", "after");
    for (i, name) in tune::TERM_NAMES.iter().enumerate() {
        println!("{name:<16} {:>7} {:>7}", r.initial[i], r.weights[i]);
    }
    let list: Vec<String> = r.weights.iter().map(i32::to_string).collect();
    println!("weights {}", list.join(","));
    ExitCode::SUCCESS
}
