//! `pawnrace book-merge`: merges book files (runs made in parallel, on
//! several machines) into one, and checks a sample of what it adds.
//!
//! A merged file's full proof of a position the book holds decided only
//! (`?`) completes it. Each addition was proven by the run that made it; `--check N` proves
//! every Nth again from an empty table (the position's value, and that its
//! move keeps it), as the engine would at move time, and reports how many
//! nodes those proofs took: how far the merged positions lie beyond a
//! move's time. `--beyond N` keeps out the decided positions a move's own
//! proof settles (those decided within N nodes from an empty table), so
//! the book, compiled in, grows only by what the engine could not do.

use super::args::SessionTable;
use super::book::save;
use clap::Args;
use pawnrace::proofs::book::{self, Book};
use pawnrace::proofs::lines;
use pawnrace::rules::Position;
use pawnrace::solver::{SolveLimits, Solver, Value};
use pawnrace::stop::Stop;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct MergeArgs {
    /// The book files to merge in (`book` runs' outputs); their run lines
    /// join the header.
    files: Vec<PathBuf>,
    /// The book file they are merged into (a part of the compiled-in book,
    /// `data/book/part-N.txt`, or a file of one's own), read first (made
    /// if missing); what it holds stays as it is, but for a position it
    /// holds decided only (`?`), which takes a merged file's distance and
    /// line (a different value is an error). A position it lacks that the
    /// compiled-in book holds (in another part) is left out, its value
    /// checked. Written back with its lines sorted.
    #[arg(long)]
    out: PathBuf,
    /// Prove every Nth added position again from an empty table (0: none).
    #[arg(long, default_value_t = 0)]
    check: usize,
    // The checks' table, emptied before each proof: a session's, as the
    // engine would prove at move time.
    #[command(flatten)]
    table: SessionTable,
    /// Give up on a check after this many nodes (counted as unchecked).
    #[arg(long, default_value_t = 100_000_000)]
    nodes: u64,
    /// Add a decided-only entry (`?`) only where a proof from an empty
    /// table does not decide its position within this many nodes: the
    /// engine decides the others itself at move time, so the book holds
    /// what it could not (a 100 ms move's solver gets some 70,000 nodes
    /// on a 2-core machine). Each position decided so is checked against
    /// the file's value on the way. Full proofs are added whatever they
    /// cost: they give distances.
    #[arg(long, value_name = "NODES")]
    beyond: Option<u64>,
}

const WHO: &str = "pawnrace book-merge";

/// Upper bounds of the checks' node-count buckets.
const BUCKETS: [u64; 6] = [1_000, 10_000, 100_000, 1_000_000, 10_000_000, u64::MAX];

pub fn run(args: MergeArgs) -> ExitCode {
    let existing = match super::read_out(&args.out) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut book = match Book::parse(&existing) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let mut header: Vec<String> = lines::header(&existing)
        .lines()
        .map(str::to_string)
        .collect();
    let before = book.len();
    let mut added: Vec<Position> = Vec::new();
    let mut completed = 0usize;
    // What the files add, kept apart until `--beyond` has had its say.
    let mut fresh = Book::default();
    let builtin = book::builtin();
    let mut elsewhere = 0usize;
    for path in &args.files {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{WHO}: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let other = match Book::parse(&text) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("{WHO}: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        };
        for run in lines::header(&text)
            .lines()
            .filter(|l| l.starts_with("run: "))
        {
            if !header.iter().any(|h| h == run) {
                header.push(run.to_string());
            }
        }
        for (pos, entry) in other.entries() {
            if !book.contains(pos) {
                // Each position in one part of the book.
                if let Some(held) = builtin.get(pos) {
                    if held.value != entry.value {
                        eprintln!(
                            "{WHO}: {}: {}: the compiled-in book says {}, the file {}",
                            path.display(),
                            pos.fen(),
                            held.value,
                            entry.value
                        );
                        return ExitCode::FAILURE;
                    }
                    elsewhere += 1;
                    continue;
                }
                if let Err(e) = fresh.complete(pos, entry) {
                    eprintln!("{WHO}: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
                fresh.insert(*pos, entry.clone());
                continue;
            }
            // A full proof of a position the book holds decided only.
            match book.complete(pos, entry) {
                Ok(true) => {
                    completed += 1;
                    added.push(*pos);
                }
                Ok(false) => {}
                Err(e) => {
                    eprintln!("{WHO}: {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            }
        }
    }
    // One watcher for both kinds of proof, so a Ctrl-C is heard once.
    let stop = if args.beyond.is_some() || args.check > 0 {
        super::stop_on_ctrl_c("the proofs")
    } else {
        Default::default()
    };
    let kept = match args.beyond {
        Some(nodes) => beyond(&fresh, nodes, &args, &stop),
        None => Ok(fresh.entries().map(|(pos, _)| *pos).collect()),
    };
    let Ok(kept) = kept else {
        return ExitCode::FAILURE;
    };
    for pos in kept {
        if let Some(entry) = fresh.get(&pos) {
            book.insert(pos, entry);
            added.push(pos);
        }
    }
    let checked = if args.check > 0 {
        check(&book, &added, &args, &stop)
    } else {
        Ok(())
    };
    let written = save(WHO, &args.out, &book, &header.join("\n"));
    if elsewhere > 0 {
        eprintln!(
            "{elsewhere} positions left out: the compiled-in book holds them (their values agree)"
        );
    }
    eprintln!(
        "{} positions added to the {before} of {}, {completed} decided ones given their distance: {} in all",
        added.len() - completed,
        args.out.display(),
        book.len()
    );
    if written && checked.is_ok() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The positions of `fresh` to add under `--beyond nodes`: its full
/// proofs, and its decided-only entries whose value a proof from an
/// empty table does not decide within `nodes`. `Err` where such a proof
/// decides another value than the entry's (after reporting each), or
/// where the run was interrupted (nothing is added then).
fn beyond(fresh: &Book, nodes: u64, args: &MergeArgs, stop: &Stop) -> Result<Vec<Position>, ()> {
    let limits = SolveLimits {
        nodes: Some(nodes),
        movetime_ms: None,
    };
    let mut solver = Solver::new(args.table.mib);
    let started = Instant::now();
    let (mut kept, mut easy, mut wrong) = (Vec::new(), 0usize, 0usize);
    for (pos, entry) in fresh.entries() {
        if stop.is_raised() {
            eprintln!("{WHO}: interrupted; nothing merged");
            return Err(());
        }
        if entry.plies.is_some() {
            kept.push(*pos);
            continue;
        }
        solver.clear();
        match solver.decide(pos, &limits, stop) {
            None => kept.push(*pos),
            Some(d) if d.value == entry.value => easy += 1,
            Some(d) => {
                eprintln!(
                    "{}: the file says {}, proven {}",
                    pos.fen(),
                    entry.value,
                    d.value
                );
                wrong += 1;
            }
        }
    }
    eprintln!(
        "--beyond {nodes}: {} of {} new positions kept, {easy} decided within {nodes} nodes from an empty {} MiB table (their values agree), {wrong} wrong; {:.0} s",
        kept.len(),
        fresh.len(),
        args.table.mib,
        started.elapsed().as_secs_f64()
    );
    if wrong > 0 { Err(()) } else { Ok(kept) }
}

/// Proves every `args.check`th added position again from an empty table:
/// its value, and that its move keeps it. Reports the proofs' sizes; `Err`
/// after any disagreement.
fn check(book: &Book, added: &[Position], args: &MergeArgs, stop: &Stop) -> Result<(), ()> {
    let limits = SolveLimits {
        nodes: Some(args.nodes),
        movetime_ms: None,
    };
    let mut solver = Solver::new(args.table.mib);
    let started = Instant::now();
    let mut counts = [0usize; BUCKETS.len()];
    let (mut checked, mut unchecked, mut wrong) = (0usize, 0usize, 0usize);
    for pos in added.iter().step_by(args.check) {
        if stop.is_raised() {
            break;
        }
        let Some(entry) = book.get(pos) else { continue };
        solver.clear();
        let decided = solver.decide(pos, &limits, stop);
        let nodes = solver.last_nodes();
        counts[BUCKETS
            .iter()
            .position(|&b| nodes < b)
            .unwrap_or(BUCKETS.len() - 1)] += 1;
        // The move's worth: the opponent's value after it, turned round.
        let kept = match pos.play_line(&entry.line[..1]) {
            Ok(after) => match after.outcome() {
                Some(o) => Some(Value::for_side(o.winner, pos.side_to_move())),
                None => {
                    solver.clear();
                    solver
                        .decide(&after, &limits, stop)
                        .map(|d| d.value.winner(after.side_to_move()))
                        .map(|w| Value::for_side(w, pos.side_to_move()))
                }
            },
            Err(_) => Some(Value::Loss),
        };
        match (decided, kept) {
            (Some(d), Some(k)) if d.value == entry.value && k == entry.value => checked += 1,
            (Some(d), Some(k)) => {
                eprintln!(
                    "{}: the book says {} with {}; proven {}, the move {}",
                    pos.fen(),
                    entry.value,
                    entry.line[0],
                    d.value,
                    k
                );
                wrong += 1;
            }
            _ => unchecked += 1,
        }
    }
    let histogram: Vec<String> = BUCKETS
        .iter()
        .zip(counts)
        .map(|(b, n)| match *b {
            u64::MAX => format!("more {n}"),
            b => format!("under {b} {n}"),
        })
        .collect();
    eprintln!(
        "checked {checked}, {wrong} wrong, {unchecked} beyond {} nodes; the values' proofs from an empty {} MiB table: {} nodes; {:.0} s",
        args.nodes,
        args.table.mib,
        histogram.join(", "),
        started.elapsed().as_secs_f64()
    );
    if wrong > 0 { Err(()) } else { Ok(()) }
}
