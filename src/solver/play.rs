//! What playing at move time asks of the solver, cheaper than a full
//! [`Solver::solve`]: the value with one window and a move that keeps it
//! ([`Solver::decide`]), and what the table already proves of each move
//! ([`Solver::move_bounds`]) when no proof of the whole position came in
//! time.

use super::questions::{decision_score, describe, table_move_first, terminal_score};
use super::race;
use super::relative::up;
use super::search::Ctx;
use super::{Proven, SolveLimits, SolvePhase, SolveProgress, Solver, Source, Value};
use crate::eval::score::SOLVER_WIN;
use crate::eval::threatens_win;
use crate::rules::{Move, Position};
use crate::stop::Stop;

/// What is proven of one move: its value for the mover lies in
/// `at_least..=at_most` (Loss..=Win when nothing is known).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    pub mv: Move,
    pub at_least: Value,
    pub at_most: Value,
}

fn value_of(score: i32) -> Value {
    describe(score).0
}

impl Solver {
    /// The value of `pos` (win, draw or loss, whatever the distance) by
    /// one or two null-window proofs (at least a draw, then a win), and a
    /// move that keeps it (none for a loss, which any move keeps, nor where
    /// the game is over): no distance. `None` when a limit ran out or `stop`
    /// was raised first. Cut off after the first proof, the table still proves which
    /// moves hold the draw ([`Solver::move_bounds`]).
    pub fn decide(&mut self, pos: &Position, limits: &SolveLimits, stop: &Stop) -> Option<Proven> {
        self.decide_reporting(pos, limits, stop, &mut |_| {})
    }

    /// [`Solver::decide`], telling `progress` what [`Solver::solve`] tells
    /// while it decides: about once a second, then once as the decision
    /// ends (the value proven, with the distance its proof bounds, or
    /// still deciding where it was cut off), so that a client sees the
    /// work of a move-time proof as it sees a `solve`'s.
    pub fn decide_reporting(
        &mut self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &Stop,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Option<Proven> {
        let decided = |value, keep: Option<Move>| Proven {
            value,
            plies: None,
            line: keep.into_iter().collect(),
            source: Source::Solver,
        };
        if let Some(s) = terminal_score(pos) {
            return Some(decided(value_of(s), None));
        }
        let helper: super::Helper = |ctx, pos| {
            decision_score(ctx, pos);
        };
        self.run(pos, limits, stop, progress, helper, |ctx| {
            let score = decision_score(ctx, pos);
            if !ctx.aborted {
                let (value, plies) = describe(score);
                ctx.phase = SolvePhase::Distance { value, plies };
            }
            ctx.report();
            if ctx.aborted {
                return None;
            }
            let value = value_of(score);
            if value == Value::Loss {
                return Some(decided(value, None));
            }
            let keep = keeping_move(ctx, pos, value)?;
            Some(decided(value, Some(keep)))
        })
    }

    /// What the table proves of each legal move of `pos`, without searching.
    pub fn move_bounds(&self, pos: &Position) -> Vec<MoveBounds> {
        let us = pos.side_to_move();
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let child = pos.play_unchecked(mv);
                let (at_least, at_most) = if let Some(s) = terminal_score(&child) {
                    (value_of(up(s)), value_of(up(s)))
                } else if threatens_win(&child, !us) {
                    (Value::Loss, Value::Loss)
                } else {
                    // The child's score bounds, from the race rules and the table.
                    let (race_lo, race_hi) = race::bounds(&child);
                    let mut lo = race_lo.unwrap_or(-SOLVER_WIN);
                    let mut hi = race_hi.unwrap_or(SOLVER_WIN);
                    if let Some(hit) = self.table.probe(child.hash()) {
                        lo = lo.max(hit.lo);
                        hi = hi.min(hit.hi);
                    }
                    (value_of(up(hi)), value_of(up(lo)))
                };
                MoveBounds {
                    mv,
                    at_least,
                    at_most,
                }
            })
            .collect()
    }
}

/// A move of `pos` (whose value for the side to move is `value`, a win or a
/// draw) that keeps it: the table's move first, which the proof just made
/// usually settles at once. `None` when the solve was cut short.
fn keeping_move(ctx: &mut Ctx, pos: &Position, value: Value) -> Option<Move> {
    // The child's score must stay below 0 (the opponent loses) for a win,
    // at or below 0 (the opponent does not win) for a draw.
    let (alpha, beta) = match value {
        Value::Win => (-1, 0),
        _ => (0, 1),
    };
    for m in table_move_first(ctx, pos) {
        let child = pos.play_unchecked(m);
        let s = match terminal_score(&child) {
            Some(s) => s,
            None => ctx.search(&child, alpha, beta),
        };
        if ctx.aborted {
            return None;
        }
        if s <= alpha {
            return Some(m);
        }
    }
    // The value is proven, so some move keeps it; a table that says
    // otherwise is better answered with no move than a wrong one.
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::pawnrace as pos;

    #[test]
    fn decide_gives_the_value_and_a_move_keeping_it() {
        let stop = Stop::new();
        let limits = SolveLimits::default();
        let mut solver = Solver::new(4);
        // White wins the race only with the double step.
        let race = pos("8/p7/8/8/8/8/7P/8 w -");
        let d = solver.decide(&race, &limits, &stop).unwrap();
        assert_eq!(d.value, Value::Win);
        assert_eq!(
            d.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["h2h4"]
        );
        // The same race, black to move: black wins.
        let other = pos("8/p7/8/8/8/8/7P/8 b -");
        let d = solver.decide(&other, &limits, &stop).unwrap();
        assert_eq!(d.value, Value::Win);
        assert_eq!(
            d.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["a7a5"]
        );
        // One node proves nothing.
        let one = SolveLimits {
            nodes: Some(1),
            movetime_ms: None,
        };
        assert_eq!(Solver::new(4).decide(&race, &one, &stop), None);
    }

    /// A decision ends as `solve`'s does, reporting the value proven (with
    /// the distance its proof bounds), or, cut off, that it was deciding.
    #[test]
    fn a_decision_reports_how_it_ended() {
        let stop = Stop::new();
        let mut seen = Vec::new();
        let mut solver = Solver::new(4);
        let p = pos("8/pp6/8/8/8/8/6PP/8 w -");
        let d = solver
            .decide_reporting(&p, &SolveLimits::default(), &stop, &mut |r| seen.push(*r))
            .unwrap();
        let last = seen.last().expect("a report at the end");
        assert!(
            matches!(last.phase, SolvePhase::Distance { value, .. } if value == d.value),
            "{last:?} for {d:?}"
        );
        assert!(last.nodes > 0 && last.nodes <= solver.last_nodes());
        let one = SolveLimits {
            nodes: Some(1),
            movetime_ms: None,
        };
        let mut seen = Vec::new();
        let cut = Solver::new(4).decide_reporting(&p, &one, &stop, &mut |r| seen.push(*r));
        assert_eq!(cut, None);
        assert_eq!(
            seen.iter().map(|r| r.phase).collect::<Vec<_>>(),
            [SolvePhase::Deciding]
        );
    }

    #[test]
    fn decide_agrees_with_solve_and_its_move_keeps_the_value() {
        let stop = Stop::new();
        let limits = SolveLimits::default();
        for fen in [
            "8/p7/8/8/8/8/7P/8 w -",
            "8/pp6/8/8/8/8/6PP/8 w -",
            "8/p2p4/8/8/8/8/3P3P/8 b -",
            "8/1p6/8/1P6/8/8/8/8 w -",
            "8/2p5/8/8/3P4/8/8/8 w -",
        ] {
            let p = pos(fen);
            let mut solver = Solver::new(4);
            let d = solver.decide(&p, &limits, &stop).unwrap();
            let s = Solver::new(4)
                .solve(&p, &limits, &stop, &mut |_| {})
                .unwrap();
            assert_eq!(d.value, s.value, "{fen}");
            if let Some(&m) = d.line.first() {
                let child = p.play_unchecked(m);
                let theirs = Solver::new(4)
                    .solve(&child, &limits, &stop, &mut |_| {})
                    .map(|s| s.value);
                let want = match d.value {
                    Value::Win => Value::Loss,
                    _ => Value::Draw,
                };
                let got = match child.outcome() {
                    Some(o) => Value::for_side(o.winner, child.side_to_move()),
                    None => theirs.unwrap(),
                };
                assert_eq!(got, want, "{fen} {m}");
            }
        }
    }

    #[test]
    fn move_bounds_read_the_table_only() {
        let stop = Stop::new();
        let race = pos("8/p7/8/8/8/8/7P/8 w -");
        let mut solver = Solver::new(4);
        // The race rules settle a lone pawn each without a search.
        let bounds = solver.move_bounds(&race);
        let of = |name: &str| *bounds.iter().find(|b| b.mv.to_string() == name).unwrap();
        assert_eq!(of("h2h4").at_least, Value::Win);
        assert_eq!(of("h2h3").at_most, Value::Loss);
        // Pawns in each other's way: nothing is known until a proof leaves it in the table.
        let start = pos("8/p2p1p2/2p3p1/1p2p3/1P2PP2/2P5/1P2PP2/8 w -");
        let unknown = |b: &MoveBounds| (b.at_least, b.at_most) == (Value::Loss, Value::Win);
        assert!(solver.move_bounds(&start).iter().all(unknown));
        let d = solver
            .decide(&start, &SolveLimits::default(), &stop)
            .unwrap();
        let after = solver.move_bounds(&start);
        let kept = after
            .iter()
            .find(|b| Some(&b.mv) == d.line.first())
            .unwrap();
        assert_eq!(kept.at_least, d.value);
    }
}
