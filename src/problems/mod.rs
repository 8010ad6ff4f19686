//! Front ends for the classic problems the project grew from (see the seeds'
//! README): each reads a problem's input and writes its exact output, with
//! anything wrong with the input explained on a separate error stream.

pub mod chess_validator;
pub mod duel;
pub mod mini4;
pub mod pawn_validator;

use std::io::{self, BufRead, Write};

/// The input's lines, numbered from 1, without their line ends. Bytes that
/// are not UTF-8 are replaced rather than refused, so that one bad line
/// cannot stop the lines after it from being answered.
fn numbered_lines(mut input: impl BufRead) -> impl Iterator<Item = io::Result<(usize, String)>> {
    let mut number = 0;
    std::iter::from_fn(move || {
        let mut bytes = Vec::new();
        match input.read_until(b'\n', &mut bytes) {
            Ok(0) => None,
            Ok(_) => {
                number += 1;
                let text = String::from_utf8_lossy(&bytes);
                Some(Ok((
                    number,
                    text.trim_end_matches(['\n', '\r']).to_string(),
                )))
            }
            Err(e) => Some(Err(e)),
        }
    })
}

/// Writes a note for the user. The notes explain; the answers are the
/// output, so a note that cannot be written must not stop them.
fn note(errors: &mut impl Write, text: std::fmt::Arguments<'_>) {
    let _ = writeln!(errors, "{text}");
}
