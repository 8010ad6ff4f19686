//! The engine: evaluation, search, transposition table and time management.
//! Pure and synchronous; a search ends when its limits are reached or its
//! stop flag is raised.

pub mod bench;
pub mod book;
mod eval;
pub mod openings;
mod proven;
mod search;
mod solver;
mod time;
mod tt;

pub(crate) use proven::from_openings;
pub use search::Engine;
pub use solver::{Solution, SolveLimits, SolvePhase, SolveProgress, Solver, Value};
pub use time::{DEFAULT_MOVE_OVERHEAD_MS, Limits};

use crate::rules::Move;
use std::fmt;

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Score {
    /// An estimate in centipawns.
    Cp(i32),
    /// A forced win (positive) or loss (negative) in this many moves of the
    /// side to move, as UCI's `score mate`.
    Mate(i32),
}

/// `cp 35` or `mate -3`, as UCI writes it after `score`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Progress of a search, reported after every completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time_ms: u64,
    pub pv: Vec<Move>,
    /// Set when the score is a proof, not an estimate: the exact result for
    /// the side to move and its distance in plies.
    pub proven: Option<(Value, u32)>,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What a search settled on. `best` is `None` only when the position has no
/// legal move.
#[derive(Clone, Debug)]
pub struct SearchResult {
    pub best: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Move>,
}
