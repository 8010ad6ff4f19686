//! The search against the rules: finished games, legal lines, exact win
//! threats, and races proven by counting.

use super::*;
use crate::engine::{Engine, Score};
use crate::eval::threatens_win;
use crate::rules::Gaps;
use crate::testkit::Rng;

fn fen(text: &str) -> Position {
    Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
}

fn go(pos: &Position, depth: u32) -> SearchResult {
    let mut e = Engine::new(4);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    e.search(pos, &limits, &Stop::new(), &mut |_| {})
}

#[test]
fn a_finished_game_has_no_best_move() {
    let won = fen("8/4P3/8/8/8/8/p7/8 w -")
        .play_unchecked(Move::new("e7".parse().unwrap(), "e8".parse().unwrap()));
    let r = go(&won, 3);
    assert_eq!((r.best, r.score), (None, Score::Mate(0)));
    let stalemate = fen("8/8/8/4p3/4P3/8/8/8 w -");
    let r = go(&stalemate, 3);
    assert_eq!((r.best, r.score), (None, Score::Cp(0)));
}

#[test]
fn the_pv_starts_with_the_best_move_and_is_legal() {
    let pos = Position::start(RuleSet::PAWNRACE, Some(Gaps { white: 0, black: 7 })).unwrap();
    let r = go(&pos, 5);
    assert_eq!(r.pv.first().copied(), r.best);
    let mut p = pos;
    for m in &r.pv {
        assert!(p.is_legal(*m), "{m} in {}", p.fen());
        p = p.play_unchecked(*m);
    }
}

/// The search trusts `threatens_win` to say exactly whether the side to
/// move has a winning move; check it against the rules over random games.
#[test]
fn win_threats_match_the_rules() {
    let mut rng = Rng::new(&[0x1234_5678_9ABC_DEF1]);
    let mut starts: Vec<Position> = Gaps::all(8)
        .map(|g| Position::start(RuleSet::PAWNRACE, Some(g)).unwrap())
        .collect();
    starts.push(Position::start(RuleSet::MINI4, None).unwrap());
    let odd = RuleSet::new(5, 4, 1, true, true, true, NoMoves::Draw).unwrap();
    starts.push(Position::start(odd, Some(Gaps { white: 0, black: 4 })).unwrap());
    let mut checked = 0;
    for round in 0..3000 {
        let mut pos = starts[round % starts.len()];
        loop {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let wins = moves.iter().any(|m| pos.play_unchecked(*m).is_decided());
            assert_eq!(
                threatens_win(&pos, pos.side_to_move()),
                wins,
                "{}",
                pos.fen()
            );
            checked += 1;
            pos = pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn a_race_won_by_one_tempo_is_proven() {
    // Both need five moves; white moves first and wins.
    let r = go(&fen("8/p7/8/8/8/8/7P/8 w -"), 12);
    assert_eq!(r.score, Score::Mate(5));
    let r = go(&fen("8/p7/8/8/8/8/7P/8 b -"), 12);
    assert_eq!(r.score, Score::Mate(5));
}

#[test]
fn a_race_the_solver_counts_is_proven_at_the_horizon() {
    // White's c-pawn promotes in four moves (ply 7), black's h-pawn needs
    // five. One ply deep the evaluation only guesses at that; the race
    // arithmetic proves it.
    let pos = fen("8/8/7p/8/2P5/8/8/8 w -");
    let r = go(&pos, 1);
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{:?}", r.score);
}
