//! `pawnrace book`: grows a book file of proven positions near an
//! opening's start, resumably; `book-merge` takes it into the compiled-in
//! book's parts (`data/book/`).

use super::args::{BudgetArgs, ProofTable};
use super::cache::CacheFile;
use super::progress::ProgressLine;
use clap::Args;
use pawnrace::proofs::ProofEvent;
use pawnrace::proofs::book::{self, Book};
use pawnrace::proofs::openings::{Opening, Openings};
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::{Color, Gaps, Position};
use pawnrace::solver::Solver;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

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
    /// the openings table): white or black.
    #[arg(long)]
    side: Option<Color>,
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
    /// Go on after the move the engine itself plays there: the traps
    /// table's in a lost or drawn position that has one, else the proof
    /// tables' or the proof's, and after every move in a loss neither
    /// covers (the engine chooses that move in play). With `--side` the
    /// opening's loser, its positions are covered where the engine's own
    /// play reaches them once the opponent throws the win away.
    #[arg(long, conflicts_with = "every_move")]
    as_played: bool,
    /// With `--as-played`: follow every move of a lost position that no
    /// table answers only where that move lies within this many plies of
    /// the root; further on the branch ends, so that the opponent's errors
    /// up to that ply are covered to the full `--plies` without the
    /// loser's every line beyond it.
    #[arg(long, value_name = "PLIES", requires = "as_played")]
    lost_within: Option<u32>,
    // A position given up on leaves its subtree out of the book.
    #[command(flatten)]
    budget: BudgetArgs,
    /// The book file to grow: a run's own, to be merged into a part of the
    /// compiled-in book (`book-merge --out data/book/part-N.txt`), or a
    /// part itself. It is read first and written after every proof.
    #[arg(long)]
    out: PathBuf,
    #[command(flatten)]
    table: ProofTable,
    /// Read the solver's proofs from this file first and write them back
    /// at the end (made if missing; a file that is not this build's cache
    /// is reported and left alone): runs in one opening share much.
    #[arg(long)]
    cache: Option<PathBuf>,
    /// Read the proof tables as a session's `solve` does: a position they
    /// prove as asked (its distance too, unless `--decide`) is taken from
    /// them and not written again, and the rest is proven reading what they
    /// prove (the book's values, and distances where proven) wherever the
    /// proof's own table knows nothing. `book-merge --check` proves a
    /// sample again from the rules alone.
    #[arg(long)]
    tables: bool,
}

pub fn run(args: BookArgs) -> ExitCode {
    let existing = match super::read_out(&args.out) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let book = match Book::parse(&existing) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{WHO}: {}: {e}", args.out.display());
            return ExitCode::FAILURE;
        }
    };
    let Some(side) = args.side.or_else(|| winner_by_table(args.gaps)) else {
        eprintln!(
            "{WHO}: {} is not a proven win in the openings table; say --side white or --side black",
            args.gaps
        );
        return ExitCode::FAILURE;
    };
    let root = match super::args::position_after(args.gaps, &args.after) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{WHO}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let header = header(&existing, this_run(&args, side));
    let mut solver = Solver::new(args.table.mib);
    if args.tables {
        solver.set_known(Some(pawnrace::proofs::values()));
    }
    let cache = CacheFile::open(WHO, args.cache.as_deref(), &mut solver);
    let mut failed = !grow(book, &mut solver, &root, &args, side, &header);
    if cache.is_some_and(|c| !c.save(WHO, &solver)) {
        failed = true;
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

const WHO: &str = "pawnrace book";

/// This run as the book's header records it.
fn this_run(args: &BookArgs, side: Color) -> String {
    let after = if args.after.trim().is_empty() {
        String::new()
    } else {
        format!(" --after {}", args.after.replace(' ', ","))
    };
    let budget = args.budget;
    format!(
        "run: pawnrace book --gaps {}{after} --plies {} --side {}{}{}{}{}{}{}{} --hash {}",
        args.gaps,
        args.plies,
        side.name(),
        if args.decide { " --decide" } else { "" },
        if args.every_move { " --every-move" } else { "" },
        if args.as_played { " --as-played" } else { "" },
        args.lost_within
            .map_or(String::new(), |n| format!(" --lost-within {n}")),
        if args.tables { " --tables" } else { "" },
        budget
            .movetime
            .map_or(String::new(), |t| format!(" --movetime {t}")),
        budget
            .nodes
            .map_or(String::new(), |n| format!(" --nodes {n}")),
        args.table.mib
    )
}

/// The book's header: what its lines mean, and every run that grew it,
/// `this_run` included.
fn header(existing: &str, this_run: String) -> String {
    super::args::runs_header(
        "Proven positions near the start of Pawn Race openings (see src/proofs/book/mod.rs):\n\
         the position's text, then for the side to move: win|loss|draw plies pv <line>\n\
         (plies ? and a one-move line: the value and a move keeping it, the distance not proven).",
        existing,
        Some(this_run),
    )
}

/// What the run proves, and whose moves it follows.
fn plan(args: &BookArgs, side: Color) -> book::Plan {
    book::Plan {
        plies: args.plies,
        side,
        proving: if args.decide {
            book::Proving::Decide
        } else {
            book::Proving::Full
        },
        follow: if args.every_move {
            book::Follow::Every
        } else if args.as_played {
            book::Follow::Played {
                traps: Traps::builtin(),
                lost_within: args.lost_within,
            }
        } else {
            book::Follow::Proven
        },
        tables: args.tables,
    }
}

/// Grows `book` from `root`, telling each proof on stderr and writing the
/// book every [`SAVE_EVERY`] and at the end; whether every write worked.
fn grow(
    mut book: Book,
    solver: &mut Solver,
    root: &Position,
    args: &BookArgs,
    side: Color,
    header: &str,
) -> bool {
    // Ctrl-C ends the run between proofs' nodes: the book is still
    // written with every proof so far, and so is the cache.
    let stop = super::stop_on_ctrl_c("the book run");
    let mut run = Run {
        bar: ProgressLine::new(),
        started: Instant::now(),
        counts: (0, 0, 0, 0),
        side,
    };
    let mut written = true;
    let mut last_save = Instant::now();
    let mut unsaved = false;
    let plan = plan(args, side);
    let limits = args.budget.limits();
    book::grow(
        &mut book,
        solver,
        root,
        &plan,
        &limits,
        &stop,
        &mut |event| {
            let Some(book) = run.tell(event) else { return };
            unsaved = true;
            if last_save.elapsed() >= SAVE_EVERY {
                written &= save(WHO, &args.out, book, header);
                (last_save, unsaved) = (Instant::now(), false);
            }
        },
    );
    if unsaved {
        written &= save(WHO, &args.out, &book, header);
    }
    let (proven, lost, unknown, tabled) = run.counts;
    let tabled = if args.tables {
        format!(", {tabled} in the tables already")
    } else {
        String::new()
    };
    eprintln!(
        "{proven} positions proven, {lost} lost, {unknown} not within the budget{tabled}, {} in the book; {:.0} s",
        book.len(),
        run.started.elapsed().as_secs_f64()
    );
    written
}

/// A book run's progress as it is told on stderr.
struct Run {
    bar: ProgressLine,
    started: Instant,
    /// Positions proven, lost, not proven within the budget, and found
    /// proven in the tables.
    counts: (usize, usize, usize, usize),
    side: Color,
}

impl Run {
    /// Tells `event`; the book when the event changed it.
    fn tell<'b>(&mut self, event: ProofEvent<'b>) -> Option<&'b Book> {
        match event {
            ProofEvent::Progress { progress, .. } => {
                self.bar.update("", progress);
                None
            }
            ProofEvent::Proven { book, pos, entry } => {
                self.bar.finish();
                self.counts.0 += 1;
                eprintln!(
                    "{}: {} in {} plies ({} proven, {:.0} s in all)",
                    pos.fen(),
                    entry.value,
                    entry.plies.map_or("?".into(), |p| p.to_string()),
                    self.counts.0,
                    self.started.elapsed().as_secs_f64()
                );
                Some(book)
            }
            ProofEvent::Tabled { pos } => {
                self.bar.finish();
                self.counts.3 += 1;
                eprintln!("{}: proven in the tables already", pos.fen());
                None
            }
            ProofEvent::Lost { pos } => {
                self.bar.finish();
                self.counts.1 += 1;
                eprintln!(
                    "{}: {} loses (nothing to write)",
                    pos.fen(),
                    self.side.name()
                );
                None
            }
            ProofEvent::Unknown { book, pos } => {
                self.bar.finish();
                self.counts.2 += 1;
                eprintln!("{}: not proven within the budget", pos.fen());
                Some(book)
            }
            ProofEvent::Opening { .. } => None,
        }
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
fn winner_by_table(gaps: Gaps) -> Option<Color> {
    match Openings::builtin().get(gaps)? {
        Opening::Proven(p) => p.winner(),
        Opening::Unknown(_) => None,
    }
}
