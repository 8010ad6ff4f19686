//! The chess validator's game in a session (`newgame chess`): `move`,
//! `moves`, `board` in the validator's format, `undo` and `position
//! startpos`. Full chess has no engine here, so the engine's commands get a
//! clear `unsupported`.

use super::{Answer, Session, State, fail};
use crate::chess::{Game, PlayError};
use crate::protocol::command::{Command, Setup};
use crate::protocol::reply::{Done, ErrorCode, Refusal, Reply};

impl Session {
    /// Answers the game commands while the session plays chess; `None` for
    /// every other command, and for every command of a pawn game.
    pub(super) fn chess_command(&mut self, command: &Command) -> Option<Answer> {
        let State::Chess(history) = &mut self.state else {
            return None;
        };
        Some(match command {
            Command::Move(text) => play_move(history, text),
            Command::Undo => undo(history),
            Command::Moves => Ok(list_moves(current(history))),
            Command::Board => Ok(board(current(history))),
            Command::Position {
                setup: Setup::StartPos(None),
                moves,
            } => set_up(history, moves),
            Command::Go(..)
            | Command::Perft(_)
            | Command::Solve(_)
            | Command::Analyse(_)
            | Command::Explore(_) => Err(fail(
                ErrorCode::Unsupported,
                "the engine plays pawn games only; in chess use move, moves, board and undo",
            )),
            Command::Gaps(_) | Command::Fen | Command::Position { .. } => Err(fail(
                ErrorCode::Unsupported,
                "chess has no gaps or position text here; position startpos [moves ...] sets it up",
            )),
            _ => return None,
        })
    }
}

/// `move`: the game so far gains the position after it.
fn play_move(history: &mut Vec<Game>, text: &str) -> Answer {
    let mut game = current(history).clone();
    let mv = play(&mut game, text)?;
    history.push(game);
    Ok(vec![
        Done::Move {
            mv: mv.to_string(),
            san: None,
            result: None,
        }
        .into(),
    ])
}

/// `undo`: back one position, never past the start.
fn undo(history: &mut Vec<Game>) -> Answer {
    if history.len() > 1 {
        history.pop();
        Ok(vec![Done::Undo { taken: None }.into()])
    } else {
        Err(fail(ErrorCode::WrongState, "no move to take back"))
    }
}

/// `moves`: every valid move, then their count.
fn list_moves(game: &Game) -> Vec<Reply> {
    let moves = game.valid_moves();
    let mut lines: Vec<Reply> = moves
        .iter()
        .map(|m| Reply::Move {
            mv: m.to_string(),
            san: None,
        })
        .collect();
    lines.push(Done::Moves(moves.len()).into());
    lines
}

/// `board` in the validator's format, then the variant and the side to
/// move as the pawn game's board gives them.
fn board(game: &Game) -> Vec<Reply> {
    let mut lines: Vec<Reply> = game
        .render()
        .lines()
        .map(|l| Reply::Board(l.to_string()))
        .collect();
    lines.push(Reply::Board("variant chess".into()));
    lines.push(Reply::Board(format!("side {}", game.side_to_move())));
    lines.push(Done::Board.into());
    lines
}

/// `position startpos moves ...`: the whole line is played before the
/// game changes, so a refused move leaves the game as it was.
fn set_up(history: &mut Vec<Game>, moves: &[String]) -> Answer {
    let mut game = Game::chess();
    let positions = moves
        .iter()
        .enumerate()
        .map(|(i, text)| {
            play(&mut game, text)
                .map(|_| game.clone())
                .map_err(|e| fail(e.code, format!("move {} ({text}): {}", i + 1, e.detail)))
        })
        .collect::<Result<Vec<_>, _>>()?;
    *history = std::iter::once(Game::chess()).chain(positions).collect();
    Ok(vec![Done::ChessPosition.into()])
}

fn current(history: &[Game]) -> &Game {
    history
        .last()
        .expect("a chess session always holds its start")
}

/// Plays a move given as text, with the protocol's error codes.
fn play(game: &mut Game, text: &str) -> Result<crate::chess::ChessMove, Refusal> {
    game.play_text(text).map_err(|e| match e {
        PlayError::Parse(_) => fail(
            ErrorCode::BadArgument,
            format!("'{text}' is not a move (e2e4 or e2 e4)"),
        ),
        PlayError::Invalid(..) => fail(ErrorCode::IllegalMove, e.to_string()),
    })
}
