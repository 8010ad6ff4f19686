//! The proof tables: what the solver proved ahead of time, kept as data and
//! compiled in, with the drivers that prove them.
//!
//! - [`openings`]: every Pawn Race gap opening's result and optimal line
//!   (`data/openings.txt`, made by `pawnrace solve --all-gaps`);
//! - [`book`]: positions near the openings' start that the opponent reaches
//!   by leaving those lines (`data/book.txt`, grown by `pawnrace book`);
//! - [`lines`]: the one text format both are kept in.
//!
//! [`known`] is what the engine asks before it searches: the openings
//! table's line, then the book. The long runs that fill the tables report to
//! one callback with [`ProofEvent`]s.
//!
//! Below the engine, above the solver: `engine` -> `proofs` -> `solver`.

pub mod book;
pub mod lines;
pub mod openings;

use crate::rules::{Gaps, Move, Position};
use crate::solver::{SolveProgress, Value};
use book::Book;
use openings::{Openings, Proved};

/// A position's proven value for the side to move, its distance (as the
/// solver gives it: the shortest win, the longest loss; for a draw the
/// length of the line) and a line that realises it; or, where only the
/// value was decided, no distance and a one-move line that keeps the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub value: Value,
    pub plies: Option<u32>,
    pub pv: Vec<Move>,
}

impl Entry {
    /// The same proof on the board mirrored between the first and last files.
    pub fn mirror_files(&self, width: u8) -> Entry {
        Entry {
            value: self.value,
            plies: self.plies,
            pv: self.pv.iter().map(|m| m.mirror_files(width)).collect(),
        }
    }
}

/// The compiled-in tables' proof of `pos`: on the line of a proven opening,
/// the openings table's; failing that, the book's. `None` when neither
/// knows, and the solver has to prove the position itself.
pub fn known(pos: &Position) -> Option<Entry> {
    known_in(pos, Openings::builtin(), |p| book::builtin().get(p))
}

/// [`known`] with the given openings table and book lookup.
pub fn known_in(
    pos: &Position,
    openings: &Openings,
    book: impl Fn(&Position) -> Option<Entry>,
) -> Option<Entry> {
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
        entry: &'a Entry,
    },
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
