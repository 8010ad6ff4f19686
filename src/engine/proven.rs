//! Perfect play: before it searches, the engine looks for a proof of the
//! position's value, first in the proof tables ([`crate::proofs::known`]:
//! the openings table's lines, then the book), then from the exact solver
//! within a share of its time. With a proof it plays a move that keeps the
//! value (the shortest win, the longest loss, a drawing move); without one
//! the search gets the rest of the time.
//!
//! Only searches with a clock do this: `go depth` and `go nodes` stay a
//! plain search, whose node counts are a signature of its behaviour.

use super::report::{SearchInfo, SearchResult, proven_score};
use super::time::{Budget, Clock};
use crate::proofs::{self, Entry};
use crate::rules::Position;
use crate::solver::{SolveLimits, Solver};
use std::sync::atomic::AtomicBool;

/// The solver may take up to this fraction (1/n) of a move's time.
const SOLVER_SHARE: u64 = 2;

/// The exact solver behind perfect play, made on first use with a table of
/// `hash_mib` MiB.
pub(super) fn lazy_solver(slot: &mut Option<Box<Solver>>, hash_mib: usize) -> &mut Solver {
    slot.get_or_insert_with(|| Box::new(Solver::new(hash_mib)))
}

/// A result that keeps the proven value, or `None` when nothing is proven
/// in time (or the search has no clock). The solver, in `slot`, is made
/// only when the tables do not know the position.
pub(super) fn proven(
    slot: &mut Option<Box<Solver>>,
    hash_mib: usize,
    pos: &Position,
    budget: &Budget,
    clock: &Clock,
    stop: &AtomicBool,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<SearchResult> {
    let total = budget.total_ms()?;
    let (entry, nodes) = match proofs::known(pos) {
        Some(entry) => (entry, 0),
        None => {
            let limits = SolveLimits {
                nodes: None,
                movetime_ms: Some((total / SOLVER_SHARE).max(1)),
            };
            let mut nodes = 0;
            let solution =
                lazy_solver(slot, hash_mib).solve(pos, &limits, stop, &mut |p| nodes = p.nodes)?;
            let entry = Entry {
                value: solution.value,
                plies: solution.plies,
                pv: solution.pv,
            };
            (entry, nodes)
        }
    };
    let Entry { value, plies, pv } = entry;
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

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Limits, Score};
    use crate::proofs::book::Book;
    use crate::proofs::known_in;
    use crate::proofs::openings::Openings;
    use crate::rules::{Position, RuleSet, parse_move};
    use crate::solver::Value;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn the_table_answers_along_its_lines_only() {
        let text = "AH white 3 pv b2b4 a7a5 b4b5\n";
        let table = Openings::parse(text).unwrap();
        let book = Book::default();
        let known = |pos: &Position| known_in(pos, &table, &book);
        let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
        let e = known(&start).unwrap();
        assert_eq!(
            (e.value, e.plies, e.pv[0].to_string()),
            (Value::Win, 3, "b2b4".to_string())
        );
        let other = Position::start(RuleSet::PAWNRACE, Some("BH".parse().unwrap())).unwrap();
        assert!(known(&other).is_none());
        // One ply along the line, black to move, is a loss in two.
        let on_line = start.play_unchecked(parse_move(&start, "b2b4").unwrap());
        let e = known(&on_line).unwrap();
        assert_eq!(
            (e.value, e.plies, e.pv[0].to_string()),
            (Value::Loss, 2, "a7a5".to_string())
        );
        let off_line = start.play_unchecked(parse_move(&start, "c2c4").unwrap());
        assert!(known(&off_line).is_none());
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
