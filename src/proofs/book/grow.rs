//! Growing the book: proving the positions near an opening's start that
//! one side meets, as `pawnrace book` asks.

use super::Book;
use crate::proofs::ProofEvent;
use crate::proofs::traps::Traps;
use crate::rules::{Color, Position};
use crate::solver::{Proven, SolveLimits, Solver};
use crate::stop::Stop;

/// How much of a position `grow` proves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proving {
    /// The value, the distance and a line.
    Full,
    /// The value and a move that keeps it.
    Decide,
}

/// Which of the served side's own moves [`grow`] goes on after.
#[derive(Copy, Clone, Debug)]
pub enum Follow {
    /// Only the move its proof plays: all the engine needs while it plays
    /// from the book.
    Proven,
    /// Every move, losing ones too. A game taken over part-way (a harness's
    /// `position startpos moves ...`) or set up by hand reaches the side's
    /// positions after moves the book would not have played, and the
    /// opponent may throw back what such a move threw away.
    Every,
    /// The move the engine plays, `Resistance practical`: the traps
    /// table's where it holds one (a lost or drawn position), else the
    /// proof tables' (the openings table's line, then the book built in),
    /// else the proof's; after every move where none says (a loss, whose
    /// move the engine chooses in play). So the side's positions are covered
    /// as the engine's own play reaches them after the opponent's errors,
    /// not only along a won opening's proofs.
    ///
    /// `lost_within`: a lost position none of them answers is followed
    /// after every move only where that move lies within so many plies
    /// of the root; further on the branch ends there, so that the
    /// opponent's errors up to that ply are covered to the full depth
    /// without the loser's every line beyond it (which multiplies the
    /// positions by some fourteen a ply). `None`: at any depth.
    Played {
        traps: &'static Traps,
        lost_within: Option<u32>,
    },
}

/// What [`grow`] covers from its root.
#[derive(Copy, Clone, Debug)]
pub struct Plan {
    /// How many plies on from the root.
    pub plies: u32,
    /// The side the book serves: its positions are the ones proven.
    pub side: Color,
    pub proving: Proving,
    pub follow: Follow,
    /// Take what the proof tables already prove ([`crate::proofs::known`])
    /// rather than proving it again, and let the solver read them: the
    /// caller sets the solver's known values ([`Solver::set_known`]).
    pub tables: bool,
}

/// Adds to `book` the proofs of `root` and of the positions after it, up to
/// `plan.plies` plies on: where `plan.side` is to move, only after the move
/// its proof plays (or after every move, with [`Follow::Every`]); where the
/// opponent is, after every move. So `side`, playing from the book, finds
/// every reply of the opponent answered. Positions the book has are not
/// proven again, so an interrupted run resumes where it stopped. `report`
/// hears of every solve's progress and of every position proven
/// ([`ProofEvent::Proven`]), given up ([`ProofEvent::Unknown`]) or decided
/// lost for `side` ([`ProofEvent::Lost`]).
///
/// With [`Proving::Decide`], `side`'s positions get only their value and a
/// move keeping it (no distance: several times cheaper), and the
/// opponent's are not proven at all, only passed through.
pub fn grow(
    book: &mut Book,
    solver: &mut Solver,
    root: &Position,
    plan: &Plan,
    limits: &SolveLimits,
    stop: &Stop,
    report: &mut dyn FnMut(ProofEvent),
) {
    let mut run = Run {
        book,
        solver,
        plan: *plan,
        limits,
        stop,
        report,
    };
    let mut todo = vec![Work::Visit(*root, plan.plies)];
    // Depth first, in move order, so that siblings share the solver's table.
    while let Some(work) = todo.pop() {
        if stop.is_raised() {
            return;
        }
        match work {
            Work::Prove(pos) => {
                run.prove(pos);
            }
            Work::Visit(pos, left) => run.visit(pos, left, &mut todo),
        }
    }
}

/// What is left to do: a position to visit with this many plies left
/// after it, or one of the opponent's positions to prove once its replies
/// are.
enum Work {
    Visit(Position, u32),
    Prove(Position),
}

/// One [`grow`]'s book, solver, plan and budget.
struct Run<'a> {
    book: &'a mut Book,
    solver: &'a mut Solver,
    plan: Plan,
    limits: &'a SolveLimits,
    stop: &'a Stop,
    report: &'a mut dyn FnMut(ProofEvent),
}

impl Run<'_> {
    /// Proves `pos` unless the book has it; `None` when it is not proven
    /// in the budget, or is a decided loss (nothing to write).
    fn prove(&mut self, pos: Position) -> Option<Proven> {
        if let Some(e) = self.book.get(&pos) {
            return Some(e);
        }
        if self.plan.tables {
            let tabled = match self.plan.proving {
                Proving::Full => crate::proofs::known_in_full(&pos),
                Proving::Decide => crate::proofs::known(&pos),
            };
            if let Some(e) = tabled {
                (self.report)(ProofEvent::Tabled { pos: &pos });
                return Some(e);
            }
        }
        let report = &mut *self.report;
        let mut progress = |p: &_| {
            report(ProofEvent::Progress {
                gaps: None,
                progress: p,
            })
        };
        let proof = match self.plan.proving {
            Proving::Full => self
                .solver
                .solve(&pos, self.limits, self.stop, &mut progress),
            Proving::Decide => self.solver.decide(&pos, self.limits, self.stop),
        };
        match proof {
            None => {
                if !self.stop.is_raised() {
                    report(ProofEvent::Unknown {
                        book: self.book,
                        pos: &pos,
                    });
                }
                None
            }
            // A decided loss has no move to keep: proven, but nothing to
            // write. (Finished games never get here, and a solve's line is
            // never empty otherwise.)
            Some(p) if p.line.is_empty() => {
                report(ProofEvent::Lost { pos: &pos });
                None
            }
            Some(proven) => {
                self.book.insert(pos, proven.clone());
                report(ProofEvent::Proven {
                    book: self.book,
                    pos: &pos,
                    entry: &proven,
                });
                Some(proven)
            }
        }
    }

    /// Proves what `pos` needs and queues the positions after it.
    fn visit(&mut self, pos: Position, left: u32, todo: &mut Vec<Work>) {
        if pos.outcome().is_some() {
            return;
        }
        let after_every_move = |todo: &mut Vec<Work>| {
            for m in pos.legal_moves().iter().rev() {
                todo.push(Work::Visit(pos.play_unchecked(*m), left - 1));
            }
        };
        if pos.side_to_move() == self.plan.side {
            // Our move comes from the proof, so the proof comes first.
            let proven = self.prove(pos);
            if left == 0 {
                return;
            }
            match self.plan.follow {
                Follow::Proven => {
                    if let Some(&m) = proven.as_ref().and_then(|e| e.line.first()) {
                        todo.push(Work::Visit(pos.play_unchecked(m), left - 1));
                    }
                }
                Follow::Every => after_every_move(todo),
                Follow::Played { traps, lost_within } => {
                    let first = |e: Proven| e.line.first().copied();
                    let played = traps
                        .get(&pos)
                        .map(|t| t.mv)
                        .or_else(|| crate::proofs::known(&pos).and_then(first))
                        .or_else(|| proven.and_then(first));
                    // This position's move is ply `depth + 1` from the root.
                    let depth = self.plan.plies - left;
                    match played {
                        Some(m) => todo.push(Work::Visit(pos.play_unchecked(m), left - 1)),
                        None if lost_within.is_none_or(|n| depth < n) => after_every_move(todo),
                        None => {}
                    }
                }
            }
        } else {
            // Every reply is covered whatever this position's value; proving
            // it after them is nearly free, their values being in the table.
            if self.plan.proving == Proving::Full {
                todo.push(Work::Prove(pos));
            }
            if left > 0 {
                after_every_move(todo);
            }
        }
    }
}

#[cfg(test)]
mod tests;
