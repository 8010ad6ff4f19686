use super::*;
use crate::pgn::read_games;
use crate::rules::{RuleSet, parse_move};
use crate::solver::Value;

const UNLIMITED: SolveLimits = SolveLimits {
    nodes: None,
    movetime_ms: None,
};

fn game(fen: &str, moves: &[&str]) -> Game {
    let start = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
    let mut pos = start;
    let moves = moves
        .iter()
        .map(|t| {
            let m = parse_move(&pos, t).unwrap();
            pos = pos.play_unchecked(m);
            m
        })
        .collect();
    Game { start, moves }
}

/// Games of the committed match against Fairy-Stockfish, each from its
/// 12th ply on (the start's proofs take seconds in a debug build), two of
/// them twice (a shared start), and a race with spoils on both sides.
fn games() -> Vec<Game> {
    let text = include_str!("../../data/match/fsf-1s.pgn");
    let mut games: Vec<Game> = read_games(text)
        .into_iter()
        .flatten()
        .take(4)
        .map(|g| {
            let mut start = g.start;
            for m in &g.moves[..12] {
                start = start.play_unchecked(*m);
            }
            Game {
                start,
                moves: g.moves[12..].to_vec(),
            }
        })
        .collect();
    games.push(games[0].clone());
    let race = [
        "h3", "a6", "h4", "a5", "h5", "a4", "h6", "a3", "h7", "a2", "h8",
    ];
    games.push(game("8/p7/8/3p4/8/3P4/7P/8 w -", &race));
    games.push(games[2].clone());
    games
}

fn values(a: &GameAnalysis) -> Vec<Option<Value>> {
    a.positions
        .iter()
        .map(|p| p.as_ref().map(|p| p.value))
        .collect()
}

/// Two workers give the results and verdicts each game gets alone, in the
/// games' order, and say when each game is done.
#[test]
fn workers_give_what_each_game_gets_alone() {
    let games = games();
    let stop = Stop::new();
    let heard = Mutex::new(Vec::new());
    let note = |i: usize, _: &GameAnalysis, _: Duration| heard.lock().unwrap().push(i);
    let mut solvers = [Solver::new(8), Solver::new(8)];
    let two = analyse_games(&games, &mut solvers, &UNLIMITED, &stop, &note);
    assert_eq!(two.len(), games.len());
    for (g, a) in games.iter().zip(&two) {
        let alone = analyse(
            &g.start,
            &g.moves,
            &mut Solver::new(16),
            &UNLIMITED,
            &stop,
            &mut |_| {},
        );
        assert!(alone.positions.iter().all(Option::is_some));
        assert_eq!(values(a), values(&alone));
        let verdicts = |a: &GameAnalysis| a.moves.iter().map(|r| r.verdict).collect::<Vec<_>>();
        assert_eq!(verdicts(a), verdicts(&alone));
    }
    // No worker: nothing valued, nothing guessed.
    let none = analyse_games(&games, &mut [], &UNLIMITED, &stop, &|_, _, _| {});
    assert!(
        none.iter()
            .all(|a| a.stopped && a.positions.iter().all(Option::is_none))
    );
    let mut heard = heard.into_inner().unwrap();
    heard.sort_unstable();
    assert_eq!(heard, (0..games.len()).collect::<Vec<_>>());
}
