//! Growing small books against the solver.

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
