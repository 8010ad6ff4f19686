//! The proof tables: what the solver proved ahead of time, kept as data and
//! compiled in, with the drivers that prove them.
//!
//! - [`openings`]: every Pawn Race gap opening's result and optimal line
//!   (`data/openings.txt`, made by `pawnrace solve --all-gaps`);
//! - [`book`]: positions near the openings' start that the opponent reaches
//!   by leaving those lines (`data/book/`, grown by `pawnrace book`);
//! - [`lines`]: the one text format both are kept in;
//! - [`traps`]: in positions near the start proven lost (or drawn), the
//!   move likeliest to make the opponent throw its result away
//!   (`data/traps.txt`, chosen by `pawnrace traps`).
//!
//! [`known`] is what the engine asks before it searches: the openings
//! table's line, then the book. The long runs that fill the tables report to
//! one callback with [`ProofEvent`]s.
//!
//! Below the engine, above the solver: `engine` -> `proofs` -> `solver`.

pub mod book;
pub mod lines;
pub mod openings;
pub mod traps;

use crate::rules::{Gaps, Position, RuleSet};
use crate::solver::{Known, Proven, SolveProgress, Source};
use book::Book;
use openings::{Openings, Proved};
use std::sync::OnceLock;

/// The compiled-in tables' proof of `pos`: on the line of a proven opening,
/// the openings table's; failing that, the book's. `None` when neither
/// knows, and the solver has to prove the position itself.
pub fn known(pos: &Position) -> Option<Proven> {
    known_in(pos, Openings::builtin(), |p| book::builtin().get(p))
}

/// [`known`]'s proof where it is whole: the value, the distance and a line
/// to the end, as `solve` answers (a book position proven for its value
/// alone has a move that keeps it, and no distance).
pub fn known_in_full(pos: &Position) -> Option<Proven> {
    known(pos).filter(|p| p.plies.is_some())
}

/// The table a proof of [`known`]'s came from, as replies name it.
pub fn table_name(source: Source) -> &'static str {
    match source {
        Source::Openings => "the openings table",
        _ => "the book",
    }
}

/// What the compiled-in book proves, as the solver reads it during its own
/// proofs ([`crate::solver::Solver::set_known`]): every book position with
/// its value, and its distance where proven. Built on first use (a third of a
/// second on this machine), then shared.
///
/// Full solves near the start read it: one to three plies in, the book
/// holds the position's value, and in the proof of its distance the
/// replies that reach a book position the winner does not win refute a
/// line at once. The openings' lines are left out: their positions, one
/// of each shape deep into the game, made a lookup of nearly every node
/// and answered almost none (8 full solves one to three plies in: 17.3 M
/// lookups for 21 answers more, and no fewer nodes). The tables' own
/// proofs never read it (`solve --all-gaps`, `book`), nor what checks
/// them.
pub fn values() -> &'static Known {
    static VALUES: OnceLock<Known> = OnceLock::new();
    VALUES.get_or_init(|| Known::new(RuleSet::PAWNRACE, book::builtin().values()))
}

/// [`known`] with the given openings table and book lookup.
pub fn known_in(
    pos: &Position,
    openings: &Openings,
    book: impl Fn(&Position) -> Option<Proven>,
) -> Option<Proven> {
    openings.along_line(pos).or_else(|| book(pos))
}

/// What a proving run (growing the book, proving the openings) reports to
/// its one callback.
#[derive(Copy, Clone, Debug)]
pub enum ProofEvent<'a> {
    /// A solve under way, about once a second and at the end of each phase;
    /// with the opening being proven when the run proves openings.
    Progress {
        gaps: Option<Gaps>,
        progress: &'a SolveProgress,
    },
    /// A book position proven now; `book` holds it (and is worth saving).
    Proven {
        book: &'a Book,
        pos: &'a Position,
        entry: &'a Proven,
    },
    /// A book position the proof tables already prove as asked (a book run
    /// reading them): taken from there, not written again.
    Tabled { pos: &'a Position },
    /// A book position not proven within the budget: its subtree is left out.
    Unknown { book: &'a Book, pos: &'a Position },
    /// A book position decided lost for the side the book serves: no move
    /// keeps anything, so nothing is written and its subtree is left out.
    Lost { pos: &'a Position },
    /// An opening proven (or given up on); `table` holds it and its mirror.
    Opening {
        table: &'a Openings,
        gaps: Gaps,
        proved: &'a Proved,
    },
}
