//! The exact solver through its public API: agreement with a plain minimax
//! on small positions of three rule sets, known results, colour mirroring,
//! the lines it returns, and its budgets.

use pawnrace::rules::{Bitboard, Color, NoMoves, Position, RuleSet, Square};
use pawnrace::solver::{Solution, SolveLimits, Solver, Value};
use pawnrace::stop::Stop;
use std::collections::HashMap;
use std::time::{Duration, Instant};

mod common;
use common::Rng;

/// Value and distance by full-width minimax, memoised: the winner takes the
/// shortest win, the loser the longest loss. Draws carry no distance.
fn minimax(pos: &Position, memo: &mut HashMap<Position, (Value, u32)>) -> (Value, u32) {
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let result = if pos.is_decided() {
        (Value::Loss, 0)
    } else {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            match pos.rules().no_moves() {
                NoMoves::Draw => (Value::Draw, 0),
                NoMoves::Loss => (Value::Loss, 0),
            }
        } else {
            let children: Vec<(Value, u32)> = moves
                .iter()
                .map(|m| minimax(&pos.play_unchecked(*m), memo))
                .collect();
            let win = children
                .iter()
                .filter(|c| c.0 == Value::Loss)
                .map(|c| c.1)
                .min();
            if let Some(k) = win {
                (Value::Win, k + 1)
            } else if children.iter().any(|c| c.0 == Value::Draw) {
                (Value::Draw, 0)
            } else {
                (
                    Value::Loss,
                    children.iter().map(|c| c.1).max().unwrap_or(0) + 1,
                )
            }
        }
    };
    memo.insert(*pos, result);
    result
}

/// A random legal position with up to `max` pawns a side, home squares
/// favoured, then up to two random moves so that en passant squares and
/// stalemates turn up.
fn random_position(rng: &mut Rng, rules: RuleSet, max: u64) -> Option<Position> {
    let mut pawns = [Bitboard::EMPTY; 2];
    for color in Color::BOTH {
        let area: Vec<Square> = rules.pawn_area(color).collect();
        let home: Vec<Square> = (Bitboard::rank(rules.home_rank(color)) & rules.board()).collect();
        for _ in 0..=rng.below(max as usize) {
            let sq = if rng.below(3) == 0 {
                home[rng.below(home.len())]
            } else {
                area[rng.below(area.len())]
            };
            if !(pawns[0] | pawns[1]).has(sq) {
                pawns[color.index()] |= sq.bb();
            }
        }
    }
    let side = [Color::White, Color::Black][rng.below(2)];
    let mut pos = Position::new(rules, pawns[0], pawns[1], side, None).ok()?;
    for _ in 0..rng.below(3) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(moves[rng.below(moves.len())]);
    }
    Some(pos)
}

fn solve(solver: &mut Solver, pos: &Position) -> Solution {
    solver
        .solve(pos, &SolveLimits::default(), &Stop::new(), &mut |_| {})
        .expect("no limits: solved")
}

/// The line is legal, as long as claimed, and ends the game as claimed.
fn check_line(pos: &Position, s: &Solution) {
    let mut p = *pos;
    for m in &s.pv {
        assert!(p.is_legal(*m), "{}: {m} illegal in {}", pos.fen(), p.fen());
        p = p.play_unchecked(*m);
    }
    assert_eq!(s.pv.len() as u32, s.plies, "{}", pos.fen());
    let outcome = p.outcome().expect("the line ends the game");
    let expected = s.value.winner(pos.side_to_move());
    assert_eq!(
        outcome.winner,
        expected,
        "{} line ends {}",
        pos.fen(),
        p.fen()
    );
}

fn rule_sets() -> [(RuleSet, u64, usize); 3] {
    [
        (RuleSet::PAWNRACE, 3, 250),
        (RuleSet::MINI4, 4, 250),
        (
            RuleSet::new(5, 6, 1, true, true, true, NoMoves::Draw).expect("rules"),
            3,
            250,
        ),
    ]
}

#[test]
fn agrees_with_minimax_on_random_small_positions() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut seen_ep = 0;
    let mut seen = HashMap::new();
    for (rules, max, count) in rule_sets() {
        let mut memo = HashMap::new();
        // A small table, reused across positions: stale entries must not lie.
        let mut solver = Solver::new(1);
        let mut tried = 0;
        while tried < count {
            let Some(pos) = random_position(&mut rng, rules, max) else {
                continue;
            };
            tried += 1;
            seen_ep += pos.en_passant().is_some() as u32;
            let expected = minimax(&pos, &mut memo);
            let s = solve(&mut solver, &pos);
            *seen.entry(format!("{:?}", s.value)).or_insert(0) += 1;
            assert_eq!(s.value, expected.0, "{}", pos.fen());
            if s.value != Value::Draw {
                assert_eq!(s.plies, expected.1, "{}", pos.fen());
            }
            check_line(&pos, &s);
        }
    }
    assert!(seen_ep > 5, "only {seen_ep} en passant positions");
    assert!(seen.len() == 3, "{seen:?}");
}

#[test]
fn mirrored_positions_have_the_same_solution() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    for (rules, max, count) in rule_sets() {
        let mut solver = Solver::new(1);
        let mut tried = 0;
        while tried < count / 4 {
            let Some(pos) = random_position(&mut rng, rules, max) else {
                continue;
            };
            tried += 1;
            let a = solve(&mut solver, &pos);
            // Colours swapped, and files reversed.
            for other in [pos.mirror(), pos.mirror_files()] {
                let b = solve(&mut solver, &other);
                assert_eq!(a.value, b.value, "{} / {}", pos.fen(), other.fen());
                if a.value != Value::Draw {
                    assert_eq!(a.plies, b.plies, "{} / {}", pos.fen(), other.fen());
                }
                check_line(&other, &b);
            }
        }
    }
}

fn mini4(text: &str) -> Position {
    Position::from_fen(text, RuleSet::MINI4).expect("mini4 position")
}

fn pawnrace(text: &str) -> Position {
    Position::from_fen(text, RuleSet::PAWNRACE).expect("pawnrace position")
}

#[test]
fn uva_10838_samples() {
    let mut solver = Solver::new(4);
    for (text, value, plies) in [
        ("pppp/4/4/PPPP w -", Value::Win, 11),
        (".ppp/..../.PPP/.... w -", Value::Win, 7),
        ("...p/...p/pP.P/...P w -", Value::Loss, 2),
    ] {
        let pos = mini4(text);
        let s = solve(&mut solver, &pos);
        assert_eq!((s.value, s.plies), (value, plies), "{text}");
        check_line(&pos, &s);
    }
}

#[test]
fn one_pawn_each() {
    let mut solver = Solver::new(1);
    for (text, value) in [
        ("8/4p3/8/8/8/8/4P3/8 w -", Value::Draw),
        ("8/3p4/8/8/8/4P3/8/8 b -", Value::Win),
        ("8/P7/8/8/8/8/7p/8 w -", Value::Win),
    ] {
        let pos = pawnrace(text);
        let s = solve(&mut solver, &pos);
        assert_eq!(s.value, value, "{text}");
        check_line(&pos, &s);
    }
    let s = solve(&mut solver, &pawnrace("8/P7/8/8/8/8/7p/8 w -"));
    assert_eq!(s.plies, 1);
}

#[test]
fn finished_games_need_no_line() {
    let mut solver = Solver::new(1);
    let stalemate = pawnrace("8/8/8/4p3/4P3/8/8/8 w -");
    let s = solve(&mut solver, &stalemate);
    assert_eq!((s.value, s.plies, s.pv.len()), (Value::Draw, 0, 0));
    let lost = mini4("4/p3/P3/4 w -");
    let s = solve(&mut solver, &lost);
    assert_eq!((s.value, s.plies), (Value::Loss, 0));
}

#[test]
fn budgets_give_unknown_never_a_guess() {
    let ah = Position::start(RuleSet::PAWNRACE, Some("AH".parse().expect("gaps"))).expect("start");
    let mut solver = Solver::new(16);
    let stop = Stop::new();
    let t = Instant::now();
    let limits = SolveLimits {
        nodes: Some(1000),
        movetime_ms: None,
    };
    assert_eq!(solver.solve(&ah, &limits, &stop, &mut |_| {}), None);
    let limits = SolveLimits {
        nodes: None,
        movetime_ms: Some(50),
    };
    assert_eq!(solver.solve(&ah, &limits, &stop, &mut |_| {}), None);
    stop.raise();
    assert_eq!(
        solver.solve(&ah, &SolveLimits::default(), &stop, &mut |_| {}),
        None
    );
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    // A budget that does suffice still gives the exact answer.
    let stop = Stop::new();
    let pos = pawnrace("8/pp6/8/8/8/8/6PP/8 w -");
    let limits = SolveLimits {
        nodes: Some(1_000_000),
        movetime_ms: Some(60_000),
    };
    let s = solver.solve(&pos, &limits, &stop, &mut |_| {});
    assert_eq!(s.map(|s| (s.value, s.plies)), Some((Value::Win, 9)));
}

#[test]
fn progress_is_reported() {
    let mut solver = Solver::new(1);
    let mut reports = 0;
    let pos = pawnrace("8/ppp5/8/8/8/8/5PPP/8 w -");
    solver.solve(&pos, &SolveLimits::default(), &Stop::new(), &mut |p| {
        assert!(p.nodes > 0 || p.time_ms < 1000);
        reports += 1;
    });
    assert!(reports >= 2);
}
