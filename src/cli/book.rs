//! `pawnrace book`: grows the book of proven positions near an opening's
//! start (`data/book.txt`), resumably.

use super::cache::CacheFile;
use super::progress::ProgressLine;
use clap::Args;
use pawnrace::proofs::ProofEvent;
use pawnrace::proofs::book::{self, Book};
use pawnrace::proofs::openings::{Openings, Proof};
use pawnrace::rules::{Color, Gaps, Move, Position, RuleSet};
use pawnrace::solver::{SolveLimits, Solver};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Copy, Clone, Debug, clap::ValueEnum)]
enum Side {
    White,
    Black,
}

#[derive(Args, Debug)]
pub struct BookArgs {
    /// The opening to grow the book from (white's gap first, e.g. AF).
    #[arg(long)]
    gaps: Gaps,
    /// Grow from the position after these moves from the start instead
    /// (coordinates, separated by commas or spaces), e.g. `h2h4` to cover
    /// black's answer to one first move; runs for several first moves can
    /// go in parallel and their files be merged.
    #[arg(long, default_value = "")]
    after: String,
    /// How many plies from the start: the opponent's every move is answered
    /// up to this depth.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// The side whose play the book serves: its own moves follow the proofs,
    /// the other side's are all covered (default: the opening's winner by
    /// the openings table).
    #[arg(long, value_enum)]
    side: Option<Side>,
    /// Prove only the value of the side's positions and a move keeping it,
    /// not the distance (written `?`): several times cheaper, and all the
    /// engine needs to play on. The other side's positions are not proven.
    #[arg(long)]
    decide: bool,
    /// Go on after every move of the side, not only the one its proof
    /// plays: its positions are then covered however its own earlier
    /// moves went (a game taken over part-way, a position set up by hand),
    /// losing moves included, as the opponent may throw the result back.
    #[arg(long)]
    every_move: bool,
    /// Give up on a position after this many milliseconds (its subtree is
    /// then left out).
    #[arg(long)]
    movetime: Option<u64>,
    /// Give up on a position after this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
    /// The book to grow; it is read first and written after every proof.
    #[arg(long, default_value = "data/book.txt")]
    out: PathBuf,
    /// Solver table size, MiB.
    #[arg(long = "solve-hash", default_value_t = 1024)]
    hash: usize,
    /// Read the solver's proofs from this file first and write them back
    /// at the end (made if missing; a file that is not this build's cache
    /// is reported and left alone): runs in one opening share much.
    #[arg(long)]
    cache: Option<PathBuf>,
}

pub fn run(args: BookArgs) -> ExitCode {
    let existing = std::fs::read_to_string(&args.out).unwrap_or_default();
    let mut book = match Book::parse(&existing) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("pawnrace book: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let chosen = args.side.map(|s| match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    });
    let side = match chosen.or_else(|| winner_by_table(args.gaps)) {
        Some(side) => side,
        None => {
            eprintln!(
                "pawnrace book: {} is not a proven win in the openings table; say --side white or --side black",
                args.gaps
            );
            return ExitCode::FAILURE;
        }
    };
    let root = match root_after(args.gaps, &args.after) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("pawnrace book: {e}");
            return ExitCode::FAILURE;
        }
    };
    let limits = SolveLimits {
        nodes: args.nodes,
        movetime_ms: args.movetime,
    };
    // The header names every run that grew the book, this one included.
    let this_run = format!(
        "run: pawnrace book --gaps {}{} --plies {} --side {}{}{}{}{} --solve-hash {}",
        args.gaps,
        if args.after.trim().is_empty() {
            String::new()
        } else {
            format!(" --after {}", args.after.replace(' ', ","))
        },
        args.plies,
        side.name(),
        if args.decide { " --decide" } else { "" },
        if args.every_move { " --every-move" } else { "" },
        args.movetime
            .map_or(String::new(), |t| format!(" --movetime {t}")),
        args.nodes
            .map_or(String::new(), |n| format!(" --nodes {n}")),
        args.hash
    );
    let mut runs: Vec<String> = existing
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| l.starts_with("run: "))
        .map(str::to_string)
        .collect();
    if !runs.contains(&this_run) {
        runs.push(this_run);
    }
    let header = format!(
        "Proven positions near the start of Pawn Race openings (see src/proofs/book.rs):\n\
         the position's text, then for the side to move: win|loss|draw plies pv <line>\n\
         (plies ? and a one-move line: the value and a move keeping it, the distance not proven).\n\
         Each run below resumes from this file.\n{}",
        runs.join("\n")
    );
    let mut solver = Solver::new(args.hash);
    let cache = CacheFile::open("pawnrace book", args.cache.as_deref(), &mut solver);
    // Ctrl-C ends the run between proofs' nodes: the book is still
    // written with every proof so far, and so is the cache.
    let stop = super::stop_on_ctrl_c("the book run");
    let mut bar = ProgressLine::new();
    let started = Instant::now();
    let (mut proven, mut unknown, mut lost) = (0, 0, 0);
    let mut failed = false;
    let plan = book::Plan {
        plies: args.plies,
        side,
        proving: if args.decide {
            book::Proving::Decide
        } else {
            book::Proving::Full
        },
        follow: if args.every_move {
            book::Follow::Every
        } else {
            book::Follow::Proven
        },
    };
    let mut last_save = Instant::now();
    let mut unsaved = false;
    book::grow(
        &mut book,
        &mut solver,
        &root,
        &plan,
        &limits,
        &stop,
        &mut |event| {
            let book = match event {
                ProofEvent::Progress { progress, .. } => {
                    bar.update("", progress);
                    return;
                }
                ProofEvent::Proven { book, pos, entry } => {
                    bar.finish();
                    proven += 1;
                    eprintln!(
                        "{}: {} in {} plies ({} proven, {:.0} s in all)",
                        pos.fen(),
                        entry.value,
                        entry.plies.map_or("?".into(), |p| p.to_string()),
                        proven,
                        started.elapsed().as_secs_f64()
                    );
                    book
                }
                ProofEvent::Lost { pos } => {
                    bar.finish();
                    lost += 1;
                    eprintln!("{}: {} loses (nothing to write)", pos.fen(), side.name());
                    return;
                }
                ProofEvent::Unknown { book, pos } => {
                    bar.finish();
                    unknown += 1;
                    eprintln!("{}: not proven within the budget", pos.fen());
                    book
                }
                ProofEvent::Opening { .. } => return,
            };
            unsaved = true;
            if last_save.elapsed() >= SAVE_EVERY {
                failed |= !save("pawnrace book", &args.out, book, &header);
                (last_save, unsaved) = (Instant::now(), false);
            }
        },
    );
    if unsaved {
        failed |= !save("pawnrace book", &args.out, &book, &header);
    }
    eprintln!(
        "{proven} positions proven, {lost} lost, {unknown} not within the budget, {} in the book; {:.0} s",
        book.len(),
        started.elapsed().as_secs_f64()
    );
    if cache.is_some_and(|c| !c.save("pawnrace book", &solver)) {
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// How often the book is written while proofs come in (and once at the
/// end, Ctrl-C included): after every proof, a run of thousands of quick
/// decisions spent its time rewriting a file of megabytes.
pub(super) const SAVE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Writes the book to `out`; whether it was written (a failure is told,
/// as `who`'s).
pub(super) fn save(who: &str, out: &std::path::Path, book: &Book, header: &str) -> bool {
    match super::save(out, book.to_text(header)) {
        Ok(()) => true,
        Err(e) => {
            eprintln!("{who}: cannot write {}: {e}", out.display());
            false
        }
    }
}

/// The start of `gaps`'s opening with `after`'s moves played.
fn root_after(gaps: Gaps, after: &str) -> Result<Position, String> {
    let moves = after
        .split([',', ' '])
        .filter(|w| !w.is_empty())
        .map(str::parse)
        .collect::<Result<Vec<Move>, _>>()?;
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).map_err(|e| e.to_string())?;
    start.play_line(&moves).map_err(|e| format!("--after: {e}"))
}

fn winner_by_table(gaps: Gaps) -> Option<Color> {
    match Openings::builtin().get(gaps)? {
        Proof::Proven(p) => p.winner,
        Proof::Unknown(_) => None,
    }
}
