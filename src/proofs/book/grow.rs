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
mod tests {
    use super::*;
    use crate::rules::RuleSet;
    use crate::solver::Value;

    /// A small race grown three plies for black: every white move is
    /// answered, black's own moves follow its proofs, and every entry is
    /// what the solver says of the position.
    #[test]
    fn growing_answers_every_reply_of_the_other_side() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let mut book = Book::default();
        let mut solver = Solver::new(1);
        let stop = Stop::new();
        // Grows the book three plies for black; how many positions it proved.
        let mut run = |book: &mut Book| {
            let mut proven = 0;
            let plan = Plan {
                plies: 3,
                side: Color::Black,
                proving: Proving::Full,
                follow: Follow::Proven,
                tables: false,
            };
            grow(
                book,
                &mut solver,
                &root,
                &plan,
                &SolveLimits::default(),
                &stop,
                &mut |e| proven += matches!(e, ProofEvent::Proven { .. }) as usize,
            );
            proven
        };
        assert_eq!(run(&mut book), book.len());
        assert!(book.get(&root).is_some());
        let mut fresh = Solver::new(1);
        for (pos, entry) in &book.written {
            let s = fresh
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap();
            assert_eq!(
                (s.value, s.plies),
                (entry.value, entry.plies),
                "{}",
                pos.fen()
            );
        }
        for m in root.legal_moves().iter() {
            let after = root.play_unchecked(*m);
            if after.outcome().is_some() {
                continue;
            }
            let reply = book.get(&after).expect("every white move answered");
            let next = after.play_unchecked(reply.line[0]);
            if next.outcome().is_none() {
                assert!(book.get(&next).is_some(), "{}", next.fen());
            }
        }
        // A second run finds everything in the book.
        assert_eq!(run(&mut book), 0);
    }

    /// A fresh book grown from `root` by `plan`, without limits.
    fn grown(root: &Position, plan: &Plan) -> Book {
        let mut book = Book::default();
        grow(
            &mut book,
            &mut Solver::new(1),
            root,
            plan,
            &SolveLimits::default(),
            &Stop::new(),
            &mut |_| {},
        );
        book
    }

    /// Deciding only: white's positions get a move that keeps their value
    /// and no distance, black's none at all, and the text says so with `?`.
    #[test]
    fn deciding_writes_a_keeping_move_without_a_distance() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 b -", RuleSet::PAWNRACE).unwrap();
        let book = grown(
            &root,
            &Plan {
                plies: 2,
                side: Color::White,
                proving: Proving::Decide,
                follow: Follow::Proven,
                tables: false,
            },
        );
        let stop = Stop::new();
        assert!(
            book.get(&root).is_none(),
            "black's positions are not proven"
        );
        assert!(!book.is_empty());
        let mut fresh = Solver::new(1);
        let text = book.to_text("");
        for (pos, entry) in &book.written {
            assert_eq!(pos.side_to_move(), Color::White);
            assert_eq!((entry.plies, entry.line.len()), (None, 1), "{}", pos.fen());
            let s = fresh
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap();
            assert_eq!(s.value, entry.value, "{}", pos.fen());
            let after = pos.play_unchecked(entry.line[0]);
            let kept = match after.outcome() {
                Some(o) => Value::for_side(o.winner, Color::White),
                None => {
                    let reply = fresh
                        .solve(&after, &SolveLimits::default(), &stop, &mut |_| {})
                        .unwrap();
                    Value::for_side(reply.value.winner(Color::Black), Color::White)
                }
            };
            assert_eq!(kept, entry.value, "{} {}", pos.fen(), entry.line[0]);
            assert!(text.contains(&format!("{} ? pv {}\n", entry.value, entry.line[0])));
        }
        let text = book.to_text("decided");
        assert_eq!(Book::parse(&text).unwrap().to_text("decided"), text);
    }

    /// Following every move of its own side: black's positions three
    /// plies in are all covered, whichever first move black made, and
    /// exactly those black wins or draws are written.
    #[test]
    fn following_every_move_covers_the_sides_positions_after_any_move() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let book = grown(
            &root,
            &Plan {
                plies: 3,
                side: Color::Black,
                proving: Proving::Decide,
                follow: Follow::Every,
                tables: false,
            },
        );
        let stop = Stop::new();
        let mut fresh = Solver::new(1);
        let (mut written, mut lost) = (0, 0);
        let after = |pos: &Position| -> Vec<Position> {
            let moves = pos.legal_moves();
            moves.iter().map(|m| pos.play_unchecked(*m)).collect()
        };
        for first in after(&root) {
            for reply in after(&first) {
                for second in after(&reply) {
                    if second.outcome().is_some() {
                        continue;
                    }
                    let value = fresh
                        .solve(&second, &SolveLimits::default(), &stop, &mut |_| {})
                        .unwrap()
                        .value;
                    let entry = book.get(&second);
                    if value == Value::Loss {
                        lost += 1;
                        assert!(entry.is_none(), "{}", second.fen());
                    } else {
                        written += 1;
                        assert_eq!(entry.map(|e| e.value), Some(value), "{}", second.fen());
                    }
                }
            }
        }
        assert!(written > 0 && lost > 0, "{written} {lost}");
    }

    /// Following the engine's own play: in a lost position, the traps
    /// table's move where it holds one, else every move; in a won one,
    /// the proof's. Black's positions three plies in are covered just so
    /// (black is lost after four of white's six first moves, drawn after
    /// two).
    #[test]
    fn following_the_engines_play_takes_the_trap_or_every_move_where_lost() {
        use crate::rules::Move;
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P2P1P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let stop = Stop::new();
        let mut fresh = Solver::new(1);
        let mut value = |pos: &Position| {
            fresh
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap()
                .value
        };
        let after = |pos: &Position| -> Vec<(Move, Position)> {
            let moves = pos.legal_moves();
            moves.iter().map(|m| (*m, pos.play_unchecked(*m))).collect()
        };
        let firsts: Vec<Position> = after(&root)
            .into_iter()
            .map(|(_, p)| p)
            .filter(|p| p.outcome().is_none())
            .collect();
        let lost: Vec<&Position> = firsts.iter().filter(|p| value(p) == Value::Loss).collect();
        let (trapped, untrapped) = (*lost[0], *lost[1]);
        let (trap, trap_after) = after(&trapped)[0];
        let line = format!(
            "{} loss trap {trap} reply {} fools 1\n",
            trapped.fen(),
            trap_after.legal_moves()[0]
        );
        let grow_with = |traps: Traps, lost_within: Option<u32>| {
            let traps: &'static Traps = Box::leak(Box::new(traps));
            grown(
                &root,
                &Plan {
                    plies: 3,
                    side: Color::Black,
                    proving: Proving::Decide,
                    follow: Follow::Played { traps, lost_within },
                    tables: false,
                },
            )
        };
        let with_trap = grow_with(Traps::parse(&line).unwrap(), None);
        let without = grow_with(Traps::default(), None);
        // Every move of a lost position only where it is the root's move:
        // black's first moves (ply 2) are past it, so a lost first position
        // no table answers ends its branch, and the won ones go on.
        let to_ply_one = grow_with(Traps::default(), Some(1));
        let to_ply_two = grow_with(Traps::default(), Some(2));
        assert_eq!(to_ply_two.len(), without.len());
        // Black's positions after `first` and `moves`, and each reply,
        // where black is not lost: each written in `book`, or (`false`)
        // whether any is missing.
        let mut covers = |book: &Book, first: &Position, moves: &[Move]| {
            let mut all = true;
            for m in moves {
                for (_, second) in after(&first.play_unchecked(*m)) {
                    if second.outcome().is_none() && value(&second) != Value::Loss {
                        all &= book.get(&second).is_some();
                    }
                }
            }
            all
        };
        let every = |pos: &Position| pos.legal_moves().to_vec();
        assert!(covers(&with_trap, &trapped, &[trap]));
        assert!(covers(&with_trap, &untrapped, &every(&untrapped)));
        assert!(covers(&without, &trapped, &every(&trapped)));
        assert!(!covers(&with_trap, &trapped, &every(&trapped)[1..]));
        for first in firsts.iter().filter(|p| !lost.contains(p)) {
            let entry = with_trap.get(first).expect("a won first position proven");
            assert!(covers(&with_trap, first, &entry.line[..1]));
            assert!(covers(&to_ply_one, first, &entry.line[..1]));
        }
        for first in &lost {
            for (_, second) in after(&first.play_unchecked(every(first)[0])) {
                assert!(to_ply_one.get(&second).is_none(), "{}", second.fen());
            }
        }
        assert!(to_ply_one.len() < without.len());
    }
}
