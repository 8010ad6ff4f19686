//! Perfect play: before it searches, the engine looks for a proof of the
//! position's value, first in the openings table, then in the book of
//! positions near the openings' start, then from the exact solver within a
//! share of its time. With a proof it plays a move that keeps the
//! value (the shortest win, the longest loss, a drawing move); without one
//! the search gets the rest of the time.
//!
//! Only searches with a clock do this: `go depth` and `go nodes` stay a
//! plain search, whose node counts are a signature of its behaviour.

use super::book::Book;
use super::openings::{Openings, Proof};
use super::search::Engine;
use super::solver::{SolveLimits, Value};
use super::time::{Budget, Clock};
use super::{Score, SearchInfo, SearchResult};
use crate::rules::{Gaps, Move, Position, RuleSet};
use std::sync::atomic::AtomicBool;

/// The solver may take up to this fraction (1/n) of a move's time.
const SOLVER_SHARE: u64 = 2;

impl Engine {
    /// A result that keeps the proven value, or `None` when nothing is proven
    /// in time (or the search has no clock).
    pub(super) fn proven(
        &mut self,
        pos: &Position,
        budget: &Budget,
        clock: &Clock,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let total = budget.total_ms()?;
        let known = from_openings(pos, Openings::builtin()).or_else(|| {
            Book::builtin()
                .get(pos)
                .map(|e| (e.value, e.plies, e.pv.clone()))
        });
        let (value, plies, pv, nodes) = match known {
            Some((value, plies, pv)) => (value, plies, pv, 0),
            None => {
                let limits = SolveLimits {
                    nodes: None,
                    movetime_ms: Some((total / SOLVER_SHARE).max(1)),
                };
                let mut nodes = 0;
                let solution = self
                    .solver()
                    .solve(pos, &limits, stop, &mut |p| nodes = p.nodes)?;
                (solution.value, solution.plies, solution.pv, nodes)
            }
        };
        let best = *pv.first()?;
        if !pos.is_legal(best) {
            return None;
        }
        let score = proven_score(value, plies);
        info(&SearchInfo {
            depth: plies,
            seldepth: pv.len() as u32,
            score,
            nodes,
            time_ms: clock.elapsed_ms(),
            pv: pv.clone(),
            proven: Some((value, plies)),
        });
        Some(SearchResult {
            best: Some(best),
            score,
            depth: plies,
            nodes,
            pv,
        })
    }
}

/// The score a proof gives: `mate N` in moves for a win or loss, 0 for a draw.
pub(super) fn proven_score(value: Value, plies: u32) -> Score {
    match value {
        Value::Win => Score::Mate(plies.div_ceil(2) as i32),
        Value::Loss => Score::Mate(-((plies / 2) as i32)),
        Value::Draw => Score::Cp(0),
    }
}

/// The table's proof when `pos` lies on the optimal line of a proven Pawn
/// Race opening (its start, or any position the line passes through): the
/// value for the side to move, the distance left and the rest of the line.
/// Off the line the solver has to prove the position itself.
pub(crate) fn from_openings(pos: &Position, table: &Openings) -> Option<(Value, u32, Vec<Move>)> {
    if *pos.rules() != RuleSet::PAWNRACE {
        return None;
    }
    table.iter().find_map(|(gaps, proof)| {
        let Proof::Proven(p) = proof else {
            return None;
        };
        let mut at = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
        for (k, m) in p.line.iter().enumerate() {
            if at == *pos {
                let value = match p.winner {
                    None => Value::Draw,
                    Some(w) if w == pos.side_to_move() => Value::Win,
                    Some(_) => Value::Loss,
                };
                return Some((
                    value,
                    p.plies.saturating_sub(k as u32),
                    p.line[k..].to_vec(),
                ));
            }
            if !at.is_legal(*m) {
                return None;
            }
            at = at.play_unchecked(*m);
        }
        None
    })
}

/// Black's choice of gaps by the table (see [`Openings::best_for_black`]).
pub(super) fn gaps_from_openings(rules: &RuleSet) -> Option<Gaps> {
    (*rules == RuleSet::PAWNRACE)
        .then(|| Openings::builtin().best_for_black(rules.width()))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Limits;
    use crate::rules::parse_move;

    #[test]
    fn proven_scores_count_whole_moves() {
        assert_eq!(proven_score(Value::Win, 1), Score::Mate(1));
        assert_eq!(proven_score(Value::Win, 29), Score::Mate(15));
        assert_eq!(proven_score(Value::Loss, 2), Score::Mate(-1));
        assert_eq!(proven_score(Value::Loss, 30), Score::Mate(-15));
        assert_eq!(proven_score(Value::Draw, 12), Score::Cp(0));
    }

    #[test]
    fn the_table_answers_along_its_lines_only() {
        let text = "AH white 3 pv b2b4 a7a5 b4b5\n";
        let table = Openings::parse(text).unwrap();
        let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
        let (value, plies, pv) = from_openings(&start, &table).unwrap();
        assert_eq!(
            (value, plies, pv[0].to_string()),
            (Value::Win, 3, "b2b4".to_string())
        );
        let other = Position::start(RuleSet::PAWNRACE, Some("BH".parse().unwrap())).unwrap();
        assert!(from_openings(&other, &table).is_none());
        // One ply along the line, black to move, is a loss in two.
        let on_line = start.play_unchecked(parse_move(&start, "b2b4").unwrap());
        let (value, plies, pv) = from_openings(&on_line, &table).unwrap();
        assert_eq!(
            (value, plies, pv[0].to_string()),
            (Value::Loss, 2, "a7a5".to_string())
        );
        let off_line = start.play_unchecked(parse_move(&start, "c2c4").unwrap());
        assert!(from_openings(&off_line, &table).is_none());
    }

    /// A won race with the clock running: the engine proves it, says so, and
    /// plays the winning move; with only a depth it just searches.
    #[test]
    fn a_clock_buys_a_proof() {
        // White's h-pawn needs four moves, black's a-pawn five.
        let pos = Position::from_fen("8/p7/8/8/7P/8/8/8 w -", RuleSet::PAWNRACE).unwrap();
        let stop = AtomicBool::new(false);
        let mut engine = Engine::new(1);
        let mut proofs = Vec::new();
        let limits = Limits {
            movetime_ms: Some(2000),
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &stop, &mut |i| proofs.push(i.proven));
        assert_eq!(proofs, [Some((Value::Win, 7))]);
        assert_eq!(r.best.map(|m| m.to_string()), Some("h4h5".into()));
        assert_eq!(r.score, Score::Mate(4));
        let mut proofs = Vec::new();
        let depth = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        engine.search(&pos, &depth, &stop, &mut |i| proofs.push(i.proven));
        assert!(proofs.iter().all(Option::is_none));
    }
}
