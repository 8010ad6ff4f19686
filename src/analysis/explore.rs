//! The explorer: every legal move of a position with its proven value, as a
//! tablebase page shows them for chess endgames.
//!
//! A move's value is the value of the position it leads to, read the way
//! [`analyse`](super::analyse) reads values: the rules (a finished game),
//! the openings table and the book at once, then the exact solver with a
//! budget per move. A move the budget does not reach is unknown: never a
//! guess. The moves the tables know are reported first, so that a client
//! can show them at once while the solver works on the rest; all the
//! solves share the solver's table, so a sibling's proof helps the next.

use super::instant_value;
use super::write::value_text;
use crate::rules::{Color, Move, Position, san};
use crate::solver::{Proven, SolveLimits, SolveProgress, Solver, Standing, Value};
use crate::stop::Stop;
use std::cmp::Reverse;

/// The budget per move when a caller gives none, ms.
pub const DEFAULT_MOVE_MS: u64 = 1000;

/// One legal move and what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explored {
    pub mv: Move,
    pub san: String,
    /// Who is to move after the move (the opponent of the mover).
    pub side_after: Color,
    /// The value of the position after the move, for `side_after`; `None`
    /// when no proof was found within the budget.
    pub after: Option<Proven>,
}

impl Explored {
    /// The move's value for its mover, distance included (one ply more
    /// than the position after it); `None` when unknown.
    pub fn standing(&self) -> Option<Standing> {
        let after = self.after.as_ref()?;
        let mover = !self.side_after;
        let value = Value::for_side(after.winner(self.side_after), mover);
        Some(Standing::new(value, after.plies.map(|p| p + 1)))
    }

    /// The value as the protocol writes one ([`value_text`]), its distance
    /// counted from the position explored: `white wins in 29`.
    pub fn value_text(&self) -> String {
        let from_here = self.after.as_ref().map(|a| Proven {
            plies: a.plies.map(|p| p + 1),
            ..a.clone()
        });
        value_text(from_here.as_ref(), self.side_after)
    }
}

/// A position's moves, valued.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exploration {
    /// Best first for the side to move (see [`best_first`]).
    pub moves: Vec<Explored>,
    /// Whether the stop flag cut it short.
    pub stopped: bool,
}

impl Exploration {
    pub fn unknown(&self) -> usize {
        self.moves.iter().filter(|m| m.after.is_none()).count()
    }
}

/// What [`explore`] reports as it goes.
#[derive(Copy, Clone, Debug)]
pub enum ExploreEvent<'a> {
    /// A move valued (or given up on: `after` is `None`).
    Valued(&'a Explored),
    /// A solve under way, about once a second and at each phase's end.
    Solving {
        mv: Move,
        progress: &'a SolveProgress,
    },
}

/// Values every legal move of `pos`. Each solve gets `limits` afresh;
/// `stop` ends the exploration early, leaving what was not valued unknown.
/// Every move is reported once through `report`, in the order it is valued:
/// the tables' first (best first), then the solver's.
pub fn explore(
    pos: &Position,
    solver: &mut Solver,
    limits: &SolveLimits,
    stop: &Stop,
    report: &mut dyn FnMut(ExploreEvent),
) -> Exploration {
    let side_after = !pos.side_to_move();
    let mut known = Vec::new();
    let mut left = Vec::new();
    for &mv in pos.legal_moves().iter() {
        let child = pos.play_unchecked(mv);
        let entry = Explored {
            mv,
            san: san(mv),
            side_after,
            after: instant_value(&child),
        };
        if entry.after.is_some() {
            known.push(entry);
        } else {
            left.push((entry, child));
        }
    }
    best_first(&mut known);
    for entry in &known {
        report(ExploreEvent::Valued(entry));
    }
    let mut done = known;
    for (mut entry, child) in left {
        if !stop.is_raised() {
            let mv = entry.mv;
            entry.after = solver.solve(&child, limits, stop, &mut |progress| {
                report(ExploreEvent::Solving { mv, progress })
            });
        }
        report(ExploreEvent::Valued(&entry));
        done.push(entry);
    }
    best_first(&mut done);
    Exploration {
        moves: done,
        stopped: stop.is_raised(),
    }
}

/// Orders moves as their mover prefers them: wins (shortest first), draws,
/// the unknown, losses (longest first); ties in the moves' own order.
pub fn best_first(moves: &mut [Explored]) {
    moves.sort_by_key(|m| {
        let standing = m.standing();
        // Unknown sits between a draw and a loss: it may be anything, but
        // a proven draw is a result in hand.
        let rank = match standing.map(|s| s.value) {
            Some(Value::Win) => 3,
            Some(Value::Draw) => 2,
            None => 1,
            Some(Value::Loss) => 0,
        };
        (Reverse(rank), standing.map(Reverse))
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Gaps, RuleSet};
    use crate::solver::Source;

    fn solver() -> Solver {
        Solver::new(16)
    }

    fn fen(text: &str) -> Position {
        Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
    }

    /// A race: white's h-pawn is one step ahead (white wins in 9 with h4).
    const RACE: &str = "8/p7/8/3p4/8/3P4/7P/8 w -";

    #[test]
    fn every_move_gets_the_value_solve_gives_the_position_after_it() {
        let pos = fen(RACE);
        let stop = Stop::new();
        let limits = SolveLimits::default();
        let mut seen = Vec::new();
        let found = explore(&pos, &mut solver(), &limits, &stop, &mut |e| {
            if let ExploreEvent::Valued(m) = e {
                seen.push(m.mv);
            }
        });
        assert_eq!(found.moves.len(), pos.legal_moves().len());
        assert_eq!(seen.len(), found.moves.len(), "each move reported once");
        assert_eq!(found.unknown(), 0);
        for m in &found.moves {
            let child = pos.play_unchecked(m.mv);
            let alone = solver().solve(&child, &limits, &stop, &mut |_| {}).unwrap();
            let after = m.after.as_ref().unwrap();
            assert_eq!((after.value, after.plies), (alone.value, alone.plies));
        }
        let best = &found.moves[0];
        assert_eq!(best.san, "h4");
        assert_eq!(best.value_text(), "white wins in 9");
        assert_eq!(best.standing(), Some(Standing::new(Value::Win, Some(9))));
        let order: Vec<_> = found.moves.iter().map(|m| m.standing()).collect();
        assert!(
            order.windows(2).all(|w| w[0] >= w[1]),
            "best first: {order:?}"
        );
    }

    const ONE_NODE: SolveLimits = SolveLimits {
        nodes: Some(1),
        movetime_ms: None,
    };

    /// The moves' sources in the order they were reported.
    fn sources(pos: &Position) -> (Exploration, Vec<Option<Source>>) {
        let mut order = Vec::new();
        let found = explore(pos, &mut solver(), &ONE_NODE, &Stop::new(), &mut |e| {
            if let ExploreEvent::Valued(m) = e {
                order.push(m.after.as_ref().map(|p| p.source));
            }
        });
        (found, order)
    }

    #[test]
    fn the_tables_value_an_openings_moves_without_the_solver() {
        let pos = Position::start(RuleSet::PAWNRACE, Some("AH".parse::<Gaps>().unwrap())).unwrap();
        let (found, order) = sources(&pos);
        assert_eq!(
            found.unknown(),
            0,
            "one solver node proves nothing: {found:?}"
        );
        assert!(
            order
                .iter()
                .all(|s| matches!(s, Some(Source::Openings | Source::Book)))
        );
        let opening = crate::proofs::known(&pos).unwrap();
        assert_eq!(found.moves[0].standing(), Some(opening.standing()));
    }

    #[test]
    fn the_tables_answer_first_and_a_spent_budget_is_unknown() {
        let mut pos =
            Position::start(RuleSet::PAWNRACE, Some("EE".parse::<Gaps>().unwrap())).unwrap();
        for m in ["a2a4", "d7d5", "a4a5", "d5d4", "b2b4", "g7g6"] {
            pos = pos.play_unchecked(crate::rules::parse_move(&pos, m).unwrap());
        }
        let (found, order) = sources(&pos);
        let from_tables = order.iter().take_while(|s| s.is_some()).count();
        assert!(
            order[from_tables..].iter().all(Option::is_none),
            "{order:?}"
        );
        assert_eq!(found.unknown(), order.len() - from_tables);
        assert!(found.unknown() > 0, "one node proves no move here");
        assert_eq!(found.moves.last().unwrap().value_text(), "unknown");
    }

    #[test]
    fn a_raised_stop_leaves_the_rest_unknown() {
        let pos = fen(RACE);
        let stop = Stop::new();
        stop.raise();
        let found = explore(
            &pos,
            &mut solver(),
            &SolveLimits::default(),
            &stop,
            &mut |_| {},
        );
        assert!(found.stopped);
        assert_eq!(found.unknown(), found.moves.len());
    }

    #[test]
    fn a_finished_game_has_no_moves_to_explore() {
        let pos = fen("8/8/8/8/8/7p/7P/8 w -");
        let found = explore(
            &pos,
            &mut solver(),
            &SolveLimits::default(),
            &Stop::new(),
            &mut |_| {},
        );
        assert!(found.moves.is_empty());
    }
}
