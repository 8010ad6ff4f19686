//! What a search reports: the protocol's [`Score`], the progress of a
//! search ([`SearchInfo`], and the solver's with it: [`Progress`]) and its
//! result ([`SearchResult`]), and the conversions into scores from the
//! search's internal scale and from proofs.

use crate::eval::score::{EVAL_LIMIT, MATE_BOUND, SEARCH_MATE};
use crate::rules::Move;
use crate::solver::{SolveProgress, Standing, Value};
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
    /// the side to move and its distance in plies, when that is known too.
    pub proven: Option<Standing>,
    /// With `MultiPV` above 1: which line this is, from 1 (the best); 0
    /// when the search gives one line.
    pub multipv: u32,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// What a search tells on its way ([`super::Engine::search_reporting`]).
/// Both count the whole search: nodes are the solver's and the search's
/// together, time runs from the search's start.
#[derive(Clone, Copy, Debug)]
pub enum Progress<'a> {
    /// An iteration completed, or a move was found proven.
    Search(&'a SearchInfo),
    /// The solver at work on a proof before the search: about once a
    /// second, and as each of its phases ends.
    Solve(&'a SolveProgress),
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

/// The protocol's score for an internal one.
pub(super) fn to_score(v: i32) -> Score {
    if v >= MATE_BOUND {
        Score::Mate((SEARCH_MATE - v + 1) / 2)
    } else if v <= -MATE_BOUND {
        Score::Mate(-((SEARCH_MATE + v + 1) / 2))
    } else {
        Score::Cp(v)
    }
}

/// An internal score ordering the same way as `s`; mate distances are
/// rounded to whole moves, which is enough to compare them.
pub(super) fn from_score(s: Score) -> i32 {
    match s {
        Score::Cp(v) => v,
        Score::Mate(n) if n > 0 => SEARCH_MATE - (2 * n - 1),
        Score::Mate(n) => -(SEARCH_MATE - 2 * -n),
    }
}

/// The score a proof gives: `mate N` in moves for a win or loss, 0 for a draw.
/// Without a distance, a proven win or loss scores the edge of the static
/// range, `cp 20000`: beyond any estimate, yet no mate count is claimed.
pub(super) fn proven_score(proven: Standing) -> Score {
    match (proven.value, proven.plies) {
        (Value::Draw, _) => Score::Cp(0),
        (Value::Win, Some(plies)) => Score::Mate(plies.div_ceil(2) as i32),
        (Value::Loss, Some(plies)) => Score::Mate(-((plies / 2) as i32)),
        (Value::Win, None) => Score::Cp(EVAL_LIMIT),
        (Value::Loss, None) => Score::Cp(-EVAL_LIMIT),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_convert_to_moves_both_ways() {
        assert_eq!(to_score(SEARCH_MATE - 1), Score::Mate(1));
        assert_eq!(to_score(SEARCH_MATE - 11), Score::Mate(6));
        assert_eq!(to_score(-(SEARCH_MATE - 2)), Score::Mate(-1));
        assert_eq!(to_score(-(SEARCH_MATE - 4)), Score::Mate(-2));
        assert_eq!(to_score(35), Score::Cp(35));
        assert!(from_score(Score::Mate(1)) > from_score(Score::Mate(2)));
        assert!(from_score(Score::Mate(9)) > from_score(Score::Cp(EVAL_LIMIT)));
        assert!(from_score(Score::Mate(-1)) < from_score(Score::Mate(-2)));
        assert!(from_score(Score::Mate(-9)) < from_score(Score::Cp(-EVAL_LIMIT)));
    }

    /// Proven scores order as the standings they come from.
    #[test]
    fn proven_scores_order_as_their_standings() {
        let mut standings: Vec<Standing> = [
            "win in 3 plies",
            "loss",
            "draw",
            "win",
            "loss in 2 plies",
            "win in 29 plies",
            "loss in 30 plies",
        ]
        .iter()
        .map(|t| t.parse().unwrap())
        .collect();
        standings.sort();
        let scores: Vec<i32> = standings
            .iter()
            .map(|s| from_score(proven_score(*s)))
            .collect();
        assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
    }

    #[test]
    fn proven_scores_count_whole_moves() {
        let score = |value, plies| proven_score(Standing::new(value, plies));
        assert_eq!(score(Value::Win, Some(1)), Score::Mate(1));
        assert_eq!(score(Value::Win, Some(29)), Score::Mate(15));
        assert_eq!(score(Value::Loss, Some(2)), Score::Mate(-1));
        assert_eq!(score(Value::Loss, Some(30)), Score::Mate(-15));
        assert_eq!(score(Value::Draw, Some(12)), Score::Cp(0));
        assert_eq!(score(Value::Win, None), Score::Cp(EVAL_LIMIT));
        assert_eq!(score(Value::Loss, None), Score::Cp(-EVAL_LIMIT));
    }
}
