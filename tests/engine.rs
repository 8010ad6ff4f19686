//! The engine through its public API: results, limits, stopping, legality,
//! the 4x4 rule set and play against a random mover.

use pawnrace::engine::{Engine, Limits, Score, SearchInfo, SearchResult};
use pawnrace::rules::{Color, Gaps, Move, NoMoves, Position, RuleSet};
use pawnrace::stop::Stop;
use pawnrace::testkit::Rng;
use std::time::{Duration, Instant};

mod common;

fn fen(text: &str) -> Position {
    Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
}

fn mv(text: &str) -> Move {
    Move::new(text[..2].parse().unwrap(), text[2..].parse().unwrap())
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn search(engine: &mut Engine, pos: &Position, limits: &Limits) -> SearchResult {
    engine.search(pos, limits, &Stop::new(), &mut |_| {})
}

/// An infinite search whose stop flag another thread raises after `delay`.
fn infinite_search_stopped_after(
    engine: &mut Engine,
    pos: &Position,
    delay: Duration,
) -> SearchResult {
    let stop = Stop::new();
    let limits = Limits {
        infinite: true,
        ..Limits::default()
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(delay);
            stop.raise();
        });
        engine.search(pos, &limits, &stop, &mut |_| {})
    })
}

fn random_start(rng: &mut Rng) -> Position {
    let gaps = Gaps {
        white: rng.below(8) as u8,
        black: rng.below(8) as u8,
    };
    Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap()
}

#[test]
fn finds_a_win_in_one() {
    let mut e = Engine::new(1);
    let r = search(&mut e, &fen("8/4P3/8/8/8/8/p7/8 w -"), &depth(4));
    assert_eq!(r.best, Some(mv("e7e8")));
    assert_eq!(r.score, Score::Mate(1));
    // Capturing the last pawn wins as well as promoting.
    let r = search(&mut e, &fen("8/8/8/3p4/4P3/8/8/8 w -"), &depth(4));
    assert_eq!((r.best, r.score), (Some(mv("e4d5")), Score::Mate(1)));
}

#[test]
fn avoids_a_loss_in_one() {
    // e5 walks into fxe5, the capture of white's last pawn.
    let mut e = Engine::new(1);
    let r = search(&mut e, &fen("8/8/5p2/3p4/4P3/8/8/8 w -"), &depth(1));
    assert_eq!(r.best, Some(mv("e4d5")));
    // Nothing stops a1: every move loses at once.
    let r = search(&mut e, &fen("8/8/8/8/8/7P/p7/8 w -"), &depth(4));
    assert_eq!(r.score, Score::Mate(-1));
}

#[test]
fn respects_depth_and_reports_every_iteration() {
    let pos = random_start(&mut Rng::new(&[7]));
    let mut e = Engine::new(4);
    let mut depths = Vec::new();
    let r = e.search(&pos, &depth(5), &Stop::new(), &mut |i: &SearchInfo| {
        depths.push(i.depth)
    });
    assert_eq!(depths, [1, 2, 3, 4, 5]);
    assert_eq!(r.depth, 5);
    assert!(pos.is_legal(r.best.unwrap()));
}

#[test]
fn respects_the_node_limit() {
    let pos = random_start(&mut Rng::new(&[11]));
    for nodes in [1, 10, 1_000, 20_000] {
        let mut e = Engine::new(4);
        let r = search(
            &mut e,
            &pos,
            &Limits {
                nodes: Some(nodes),
                ..Limits::default()
            },
        );
        assert!(r.nodes <= nodes, "{} > {nodes}", r.nodes);
        assert!(pos.is_legal(r.best.unwrap()));
    }
}

#[test]
fn is_deterministic_without_time_limits() {
    let pos = random_start(&mut Rng::new(&[3]));
    let run = || {
        let mut e = Engine::new(4);
        let r = search(&mut e, &pos, &depth(6));
        (r.best, r.score, r.nodes, r.pv)
    };
    assert_eq!(run(), run());
}

#[test]
fn a_raised_stop_flag_returns_promptly_with_a_legal_move() {
    let pos = random_start(&mut Rng::new(&[5]));
    let mut e = Engine::new(4);
    let stop = Stop::raised();
    let r = e.search(
        &pos,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &stop,
        &mut |_| {},
    );
    assert!(pos.is_legal(r.best.unwrap()));

    // Raised from another thread during an infinite search.
    let started = Instant::now();
    let r = infinite_search_stopped_after(&mut e, &pos, Duration::from_millis(100));
    assert!(
        started.elapsed() < Duration::from_millis(1_000),
        "{:?}",
        started.elapsed()
    );
    assert!(pos.is_legal(r.best.unwrap()));
}

#[test]
fn infinite_waits_for_stop_even_after_a_proof() {
    let pos = fen("8/4P3/8/8/8/8/p7/8 w -");
    let mut e = Engine::new(1);
    let started = Instant::now();
    let r = infinite_search_stopped_after(&mut e, &pos, Duration::from_millis(50));
    assert!(started.elapsed() >= Duration::from_millis(50));
    assert_eq!(r.best, Some(mv("e7e8")));
}

#[test]
fn movetime_and_clocks_are_kept() {
    let pos = random_start(&mut Rng::new(&[9]));
    let mut e = Engine::new(4);
    for limits in [
        Limits {
            movetime_ms: Some(100),
            ..Limits::default()
        },
        Limits {
            wtime_ms: Some(2_000),
            btime_ms: Some(2_000),
            ..Limits::default()
        },
        Limits {
            wtime_ms: Some(-5),
            ..Limits::default()
        },
    ] {
        let started = Instant::now();
        let r = search(&mut e, &pos, &limits);
        assert!(
            started.elapsed() < Duration::from_millis(300),
            "{limits:?}: {:?}",
            started.elapsed()
        );
        assert!(pos.is_legal(r.best.unwrap()));
    }
}

#[test]
fn never_returns_an_illegal_move() {
    let mut rng = Rng::new(&[0x9E37_79B9_7F4A_7C15]);
    let mut e = Engine::new(2);
    let mut searched = 0;
    for _ in 0..200 {
        let mut pos = random_start(&mut rng);
        let plies = rng.below(30);
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        // Alternate depth and node limits, so that interrupted iterations
        // are exercised too.
        let limits = if rng.below(2) == 0 {
            depth(1 + rng.below(4) as u32)
        } else {
            Limits {
                nodes: Some(1 + rng.below(3_000) as u64),
                ..Limits::default()
            }
        };
        let r = search(&mut e, &pos, &limits);
        match r.best {
            Some(m) => assert!(pos.is_legal(m), "{m} in {}", pos.fen()),
            None => assert!(pos.legal_moves().is_empty(), "no move in {}", pos.fen()),
        }
        assert_eq!(r.pv.first().copied(), r.best, "{}", pos.fen());
        let mut p = pos;
        for m in &r.pv {
            assert!(p.is_legal(*m), "pv move {m} in {}", p.fen());
            p = p.play_unchecked(*m);
        }
        searched += 1;
    }
    assert_eq!(searched, 200);
}

#[test]
fn mini4_start_is_a_white_win_in_eleven_plies() {
    let rules = RuleSet::MINI4;
    assert_eq!(rules.no_moves(), NoMoves::Loss);
    let pos = Position::from_fen("pppp/4/4/PPPP w -", rules).unwrap();
    let mut e = Engine::new(4);
    let r = search(&mut e, &pos, &depth(14));
    assert_eq!(r.score, Score::Mate(6));
    // The proof ends the search at its own depth.
    assert!(r.depth <= 12, "{}", r.depth);
    // And the engine can play it out against any defence.
    let mut p = pos;
    let mut rng = Rng::new(&[42]);
    while p.outcome().is_none() {
        let m = if p.side_to_move() == Color::White {
            search(&mut e, &p, &depth(12)).best.unwrap()
        } else {
            let moves = p.legal_moves();
            moves[rng.below(moves.len())]
        };
        p = p.play_unchecked(m);
    }
    assert_eq!(p.outcome().unwrap().winner, Some(Color::White));
}

#[test]
fn choose_gaps_picks_a_pair_and_stops() {
    let mut e = Engine::new(4);
    let g = e.choose_gaps(&RuleSet::PAWNRACE, &depth(2), &Stop::new());
    assert!(g.white < 8 && g.black < 8);
    let again = Engine::new(4).choose_gaps(&RuleSet::PAWNRACE, &depth(2), &Stop::new());
    assert_eq!(g, again);
    let started = Instant::now();
    let timed = Limits {
        movetime_ms: Some(200),
        ..Limits::default()
    };
    e.choose_gaps(&RuleSet::PAWNRACE, &timed, &Stop::new());
    assert!(
        started.elapsed() < Duration::from_millis(600),
        "{:?}",
        started.elapsed()
    );
    let g = e.choose_gaps(&RuleSet::PAWNRACE, &Limits::default(), &Stop::raised());
    assert!(g.white < 8 && g.black < 8);
}

#[test]
fn beats_a_random_mover_every_game() {
    let mut rng = Rng::new(&[2024]);
    let mut e = Engine::new(8);
    for game in 0..24 {
        let mut pos = random_start(&mut rng);
        let engine_side = if game % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        e.new_game();
        while pos.outcome().is_none() {
            let m = if pos.side_to_move() == engine_side {
                search(&mut e, &pos, &depth(5)).best.unwrap()
            } else {
                let moves = pos.legal_moves();
                moves[rng.below(moves.len())]
            };
            pos = pos.play_unchecked(m);
        }
        let outcome = pos.outcome().unwrap();
        assert_eq!(
            outcome.winner,
            Some(engine_side),
            "game {game}: {outcome} at {}",
            pos.fen()
        );
    }
}
