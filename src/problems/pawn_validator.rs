//! S2, the pawn move validator (CodeAbbey #76).
//!
//! Input: the number of games, then one game per line, moves like `e2e4`
//! separated by spaces, each game from the chess start. Output: for each
//! game the number of its first incorrect move (from 1) or 0, on one line,
//! separated by single spaces.
//!
//! Checked: turn order (white's piece on odd moves, black's on even), a piece
//! on the square moved from, both squares on the board, and pawn moves by the
//! chess pawn's rules. Other pieces' moves are taken as given, even a capture
//! of their own side's piece: the statement calls them correct.
//!
//! Decided where the statement is silent:
//! - A token that is not a move (`e2-e4`, `e9`) is the incorrect move at its
//!   place; the error stream says why, as it does for every incorrect move.
//! - Blank lines are skipped: a game has at least one move.
//! - A count that is not a number: a note, and every following line is a
//!   game. Fewer games than the count: a note, and the games there are
//!   answered. More: a note, and the extra lines are not games.

use super::{note, numbered_lines};
use crate::chess::{ChessVariant, Game, PlayError, Policy};
use std::io::{self, BufRead, Write};

/// The 1-based number of the first incorrect move of a game written as
/// moves separated by whitespace, and why it is incorrect; `None` when every
/// move is correct.
pub fn first_incorrect(moves: &str) -> Option<(usize, PlayError)> {
    let mut game = Game::with_policy(ChessVariant::chess(), Policy::PawnsOnly);
    moves
        .split_whitespace()
        .enumerate()
        .find_map(|(i, token)| game.play_text(token).err().map(|e| (i + 1, e)))
}

/// Answers the games on `input` on `output`, notes on `errors`.
pub fn run(input: impl BufRead, mut output: impl Write, mut errors: impl Write) -> io::Result<()> {
    let mut lines = numbered_lines(input).filter(|line| {
        line.as_ref()
            .map_or(true, |(_, text)| !text.trim().is_empty())
    });
    let expected = match lines.next().transpose()? {
        None => {
            note(
                &mut errors,
                format_args!("no input: expected the number of games"),
            );
            None
        }
        Some((number, text)) => match text.trim().parse::<usize>() {
            Ok(n) => Some(n),
            Err(_) => {
                note(
                    &mut errors,
                    format_args!(
                        "line {number}: '{}' is not the number of games; every line after it is taken as a game",
                        text.trim()
                    ),
                );
                None
            }
        },
    };
    let mut answers = Vec::new();
    for line in lines.by_ref() {
        let (number, text) = line?;
        if expected.is_some_and(|n| answers.len() == n) {
            note(
                &mut errors,
                format_args!(
                    "line {number}: more games than the {} announced; the rest is not answered",
                    answers.len()
                ),
            );
            break;
        }
        let answer = match first_incorrect(&text) {
            None => 0,
            Some((index, e)) => {
                note(
                    &mut errors,
                    format_args!("line {number}, move {index}: {e}"),
                );
                index
            }
        };
        answers.push(answer.to_string());
    }
    if let Some(n) = expected.filter(|&n| answers.len() < n) {
        note(
            &mut errors,
            format_args!(
                "{n} games announced, {} found; answering those",
                answers.len()
            ),
        );
    }
    writeln!(output, "{}", answers.join(" "))?;
    output.flush()
}
