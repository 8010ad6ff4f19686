//! The exact solver through its public API: agreement with a plain minimax
//! on small positions of three rule sets, known results, colour mirroring,
//! the lines it returns, and its budgets.

use pawnrace::rules::{Position, RuleSet};
use pawnrace::solver::{Proven, SolveLimits, Solver, Value};
use pawnrace::stop::Stop;
use pawnrace::testkit::{Rng, minimax, random_position, small_rule_sets};
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn solve(solver: &mut Solver, pos: &Position) -> Proven {
    solver
        .solve(pos, &SolveLimits::default(), &Stop::new(), &mut |_| {})
        .expect("no limits: solved")
}

/// The line is legal, as long as claimed, and ends the game as claimed.
fn check_line(pos: &Position, s: &Proven) {
    let mut p = *pos;
    for m in &s.line {
        assert!(p.is_legal(*m), "{}: {m} illegal in {}", pos.fen(), p.fen());
        p = p.play_unchecked(*m);
    }
    assert_eq!(Some(s.line.len() as u32), s.plies, "{}", pos.fen());
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

/// Random positions tried per small rule set.
const COUNT: usize = 250;

#[test]
fn agrees_with_minimax_on_random_small_positions() {
    let mut rng = Rng::new(&[0x9E37_79B9_7F4A_7C15]);
    let mut seen_ep = 0;
    let mut seen = HashMap::new();
    for (rules, max) in small_rule_sets() {
        let mut memo = HashMap::new();
        // A small table, reused across positions: stale entries must not lie.
        let mut solver = Solver::new(1);
        let mut tried = 0;
        while tried < COUNT {
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
                assert_eq!(s.plies, Some(expected.1), "{}", pos.fen());
            }
            check_line(&pos, &s);
        }
    }
    assert!(seen_ep > 5, "only {seen_ep} en passant positions");
    assert!(seen.len() == 3, "{seen:?}");
}

#[test]
fn mirrored_positions_have_the_same_solution() {
    let mut rng = Rng::new(&[0x0123_4567_89AB_CDEF]);
    for (rules, max) in small_rule_sets() {
        let mut solver = Solver::new(1);
        let mut tried = 0;
        while tried < COUNT / 4 {
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
        assert_eq!((s.value, s.plies), (value, Some(plies)), "{text}");
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
    assert_eq!(s.plies, Some(1));
}

#[test]
fn finished_games_need_no_line() {
    let mut solver = Solver::new(1);
    let stalemate = pawnrace("8/8/8/4p3/4P3/8/8/8 w -");
    let s = solve(&mut solver, &stalemate);
    assert_eq!((s.value, s.plies, s.line.len()), (Value::Draw, Some(0), 0));
    let lost = mini4("4/p3/P3/4 w -");
    let s = solve(&mut solver, &lost);
    assert_eq!((s.value, s.plies), (Value::Loss, Some(0)));
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
    assert_eq!(s.map(|s| (s.value, s.plies)), Some((Value::Win, Some(9))));
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
