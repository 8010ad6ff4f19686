//! `--games`: traps where the games went. In a match, an engine's moves
//! vary from game to game, so a walk that follows the model's own choice
//! misses the positions a match reaches; the games themselves name them.
//! Their positions where the player was to move in its first turns, in
//! the games it did not win, are walked from round by round: every game's
//! first turn, then every game's second, and so on, so that a trap set at
//! one turn is in the table before the later turns of its game are taken
//! up. A turn is left out once its game has a trap at an earlier turn that
//! plays otherwise: the engine no longer goes there.

use crate::cli::args::Shard;
use pawnrace::engine::traps::Root;
use pawnrace::pgn::read_games;
use pawnrace::proofs::traps::Traps;
use pawnrace::rules::{Color, Gaps, Move, Position, RuleSet};
use std::path::PathBuf;

/// One game's line, from the player's side.
pub(super) struct Line {
    gaps: Gaps,
    /// From the start; one more than `moves`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// The plies where the player was to move.
    turns: Vec<usize>,
}

/// The games read, and how many were passed over (not the player's, won
/// by it, another opening or variant, or set up without gaps).
pub(super) struct Games {
    pub lines: Vec<Line>,
    pub passed_over: usize,
}

/// The games of `paths` that `player` played and did not win, in
/// `openings`, and of those this `shard`'s share of the openings (each
/// opening's games in one shard: no two shards then set traps in one
/// position). A game that does not read is an error naming it.
pub(super) fn read(
    paths: &[PathBuf],
    player: &str,
    openings: &[Gaps],
    shard: Option<Shard>,
) -> Result<Games, String> {
    let mut games = Games {
        lines: Vec::new(),
        passed_over: 0,
    };
    for path in paths {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        games
            .take_in(&text, player, openings)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(shard) = shard {
        let mut order: Vec<Gaps> = Vec::new();
        for line in &games.lines {
            if !order.contains(&line.gaps) {
                order.push(line.gaps);
            }
        }
        let mine = shard.of(order);
        let before = games.lines.len();
        games.lines.retain(|l| mine.contains(&l.gaps));
        games.passed_over += before - games.lines.len();
    }
    Ok(games)
}

impl Games {
    /// Adds the games of `text` that `player` played and did not win, in
    /// `openings`; an error names the first game that does not read.
    fn take_in(&mut self, text: &str, player: &str, openings: &[Gaps]) -> Result<(), String> {
        for (n, game) in read_games(text).into_iter().enumerate() {
            let game = game.map_err(|e| format!("game {}: {e}", n + 1))?;
            let color = if game.white == player {
                Color::White
            } else if game.black == player {
                Color::Black
            } else {
                self.passed_over += 1;
                continue;
            };
            let won = match color {
                Color::White => "1-0",
                Color::Black => "0-1",
            };
            let Some(gaps) = game.gaps.filter(|g| openings.contains(g)) else {
                self.passed_over += 1;
                continue;
            };
            if game.rules != RuleSet::PAWNRACE || game.result == won {
                self.passed_over += 1;
                continue;
            }
            let mut positions = vec![game.start];
            for &m in &game.moves {
                let next = positions[positions.len() - 1].play_unchecked(m);
                positions.push(next);
            }
            let turns = (0..game.moves.len())
                .filter(|&i| positions[i].side_to_move() == color)
                .collect();
            self.lines.push(Line {
                gaps,
                positions,
                moves: game.moves,
                turns,
            });
        }
        Ok(())
    }

    /// The roots at the player's turn `turn` (from 0) of every game that
    /// has one and that the engine, with `table`, would still reach.
    pub fn roots(&self, turn: usize, table: &Traps) -> Vec<Root> {
        let mut roots = Vec::new();
        for line in &self.lines {
            let Some(&ply) = line.turns.get(turn) else {
                continue;
            };
            let goes_elsewhere = line.turns[..turn].iter().any(|&i| {
                table
                    .get(&line.positions[i])
                    .is_some_and(|t| t.mv != line.moves[i])
            });
            if goes_elsewhere {
                continue;
            }
            roots.push(Root {
                pos: line.positions[ply],
                keep: Vec::new(),
                before: line.positions[..ply].to_vec(),
                only_if_lost: true,
            });
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pawnrace::proofs::traps::Trap;
    use pawnrace::rules::parse_move;
    use pawnrace::solver::Value;

    /// p loses one game as white and wins one; q plays r; p draws as black.
    const GAMES: &str = r#"[White "p"]
[Black "q"]
[Gaps "AE"]

1. e4 a5 2. e5 a4 3. c4 b6 4. d4 c6 0-1

[White "p"]
[Black "q"]
[Gaps "AE"]

1. e4 a5 1-0

[White "q"]
[Black "r"]
[Gaps "AE"]

1. e4 a5 0-1

[White "q"]
[Black "p"]
[Gaps "BA"]

1. c4 d6 1/2-1/2
"#;

    fn games(openings: &[&str]) -> Games {
        let openings: Vec<Gaps> = openings.iter().map(|g| g.parse().unwrap()).collect();
        let mut games = Games {
            lines: Vec::new(),
            passed_over: 0,
        };
        games.take_in(GAMES, "p", &openings).unwrap();
        games
    }

    #[test]
    fn the_games_a_player_did_not_win_in_the_openings_asked() {
        let all = games(&["AE", "BA"]);
        assert_eq!((all.lines.len(), all.passed_over), (2, 2));
        let ae = games(&["AE"]);
        assert_eq!((ae.lines.len(), ae.passed_over), (1, 3));
        let roots = all.roots(0, &Traps::default());
        assert_eq!(roots.len(), 2);
        // p's first turn as black comes after 1. c4.
        let black = &roots[1];
        assert_eq!(black.before.len(), 1);
        assert!(black.only_if_lost && black.keep.is_empty());
        let bad = "[White \"p\"]\n[Gaps \"AE\"]\n\n1. e5 0-1\n";
        let mut games = games(&[]);
        let err = games.take_in(bad, "p", &[]).unwrap_err();
        assert!(err.starts_with("game 1: "), "{err}");
    }

    /// A later turn is walked from while the table plays the game's move
    /// at the earlier turns (or has no trap there), not once a trap there
    /// plays another.
    #[test]
    fn a_turn_the_engine_no_longer_reaches_is_left_out() {
        let games = games(&["AE"]);
        let line = &games.lines[0];
        assert_eq!(line.turns, [0, 2, 4, 6]);
        let at_turn_2 = line.positions[2];
        let trap = |mv: &str| {
            let mv = parse_move(&at_turn_2, mv).unwrap();
            let after = at_turn_2.play_unchecked(mv);
            Trap {
                value: Value::Loss,
                mv,
                reply: after.legal_moves()[0],
                fools: vec![1],
                by: "model".into(),
                lead: false,
            }
        };
        let mut table = Traps::default();
        assert_eq!(games.roots(3, &table).len(), 1);
        table.insert(at_turn_2, trap("e4e5"));
        let roots = games.roots(3, &table);
        assert_eq!(roots.len(), 1, "the game's own move");
        assert_eq!(roots[0].pos, line.positions[6]);
        assert_eq!(roots[0].before, line.positions[..6]);
        table.replace(at_turn_2, trap("d2d4"));
        assert!(
            games.roots(3, &table).is_empty(),
            "a trap that plays otherwise"
        );
        assert!(
            games.roots(4, &Traps::default()).is_empty(),
            "past the game"
        );
    }
}
