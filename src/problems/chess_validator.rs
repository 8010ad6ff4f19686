//! S1, the chess validator (workat.tech "Design Chess Validator").
//!
//! Input: one move per line, `e2 e4` (`e2e4` is read too), until a line
//! `exit` (in any case) or the end of the input. Output, exactly as the statement's judge
//! expects: the start board and a blank line; after every valid move the
//! board and a blank line; `Invalid Move` alone for every invalid move, after
//! which the same side moves again.
//!
//! Decided where the statement is silent (its judge only sends well-formed
//! lines):
//! - A line that is not two squares is an invalid move like any other.
//! - A blank line is no move at all: it is skipped without an answer.
//! - A square off the board (`i9 a1`) makes the move invalid; text that names
//!   no square at all (`e0`, `xx`) makes the line malformed.
//! - Every `Invalid Move` gets a note on the error stream naming the input
//!   line and the reason, so a user can tell a typo from a rule.

use super::{note, numbered_lines};
use crate::chess::{Game, PlayError};
use std::io::{self, BufRead, Write};

/// Plays chess from `input`, answering on `output`, notes on `errors`.
pub fn run(input: impl BufRead, output: impl Write, errors: impl Write) -> io::Result<()> {
    run_game(Game::chess(), input, output, errors)
}

/// [`run`] for any game: another variant prints and plays the same way.
pub fn run_game(
    mut game: Game,
    input: impl BufRead,
    mut output: impl Write,
    mut errors: impl Write,
) -> io::Result<()> {
    writeln!(output, "{}", game.render())?;
    output.flush()?;
    for line in numbered_lines(input) {
        let (number, text) = line?;
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if text.eq_ignore_ascii_case("exit") {
            break;
        }
        match game.play_text(text) {
            Ok(_) => writeln!(output, "{}", game.render())?,
            Err(e) => {
                writeln!(output, "Invalid Move")?;
                match e {
                    PlayError::Parse(e) => note(&mut errors, format_args!("line {number}: {e}")),
                    PlayError::Invalid(m, reason) => note(
                        &mut errors,
                        format_args!("line {number}: {m} by {}: {reason}", game.side_to_move()),
                    ),
                }
            }
        }
        output.flush()?;
    }
    Ok(())
}
