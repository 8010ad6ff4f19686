//! Moves as text: coordinates (`e2e4`, `e2-e4`, `e5xd6`) and SAN (`e4`,
//! `exd5`, en passant `exd6`), read in any letter case.

use super::moves::Move;
use super::position::Position;
use super::square::{Square, parse_file};
use std::fmt;

/// Why a piece of text is not a move here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// Not a move in either notation.
    Malformed(String),
    /// A well-formed move that the position does not allow.
    Illegal(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed(s) | MoveError::Illegal(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for MoveError {}

/// The move's standard algebraic notation. It needs no position: a pawn move's SAN is never ambiguous: only one pawn can step to a square,
/// and captures name their file.
pub fn san(m: Move) -> String {
    if m.is_capture() {
        format!("{}x{}", m.from.file_char(), m.to)
    } else {
        m.to.to_string()
    }
}

/// Reads a move in either notation and checks that it is legal in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let cleaned = clean(text);
    let malformed = || {
        MoveError::Malformed(format!(
            "'{text}' is not a move (coordinates like e2e4 or SAN like e4, exd5)"
        ))
    };
    let chars: Vec<char> = cleaned.chars().collect();
    let candidates: Vec<Move> = match chars.as_slice() {
        // exd5
        [f, 'x', tf, tr] => captures_to(pos, *f, *tf, *tr).ok_or_else(malformed)?,
        // e2e4, e2-e4, e5xd6
        [a, b, c, d] | [a, b, '-' | 'x', c, d] => {
            let from: Square = format!("{a}{b}").parse().map_err(|_| malformed())?;
            let to: Square = format!("{c}{d}").parse().map_err(|_| malformed())?;
            return check(pos, Move::new(from, to), text);
        }
        // e4
        [f, r] => {
            let to: Square = format!("{f}{r}").parse().map_err(|_| malformed())?;
            pos.legal_moves()
                .iter()
                .copied()
                .filter(|m| !m.is_capture() && m.to == to)
                .collect()
        }
        // ed5
        [f, tf, tr] => captures_to(pos, *f, *tf, *tr).ok_or_else(malformed)?,
        _ => return Err(malformed()),
    };
    match candidates.as_slice() {
        [m] => Ok(*m),
        [] => Err(illegal(pos, text)),
        _ => Err(MoveError::Illegal(format!("'{text}' is ambiguous here"))),
    }
}

/// The legal captures from file `f` to square `tf tr`; `None` if those are
/// not a file and a square.
fn captures_to(pos: &Position, f: char, tf: char, tr: char) -> Option<Vec<Move>> {
    let from_file = parse_file(f)?;
    let to: Square = format!("{tf}{tr}").parse().ok()?;
    Some(
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|m| m.is_capture() && m.from.file() == from_file && m.to == to)
            .collect(),
    )
}

/// Lower case, without check marks, annotations or an `e.p.` suffix.
fn clean(text: &str) -> String {
    let mut s = text.trim().to_ascii_lowercase();
    for suffix in ["e.p.", "ep"] {
        if let Some(rest) = s.strip_suffix(suffix) {
            s = rest.trim_end().to_string();
        }
    }
    s.trim_end_matches(['+', '#', '!', '?']).to_string()
}

fn check(pos: &Position, m: Move, text: &str) -> Result<Move, MoveError> {
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(illegal(pos, text))
    }
}

fn illegal(pos: &Position, text: &str) -> MoveError {
    MoveError::Illegal(format!(
        "{text} is not legal here ({} to move)",
        pos.side_to_move()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Color, RuleSet};

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen, RuleSet::PAWNRACE).unwrap()
    }

    #[test]
    fn every_form_reads_the_same_move() {
        let p = pos("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
        let e2e4 = Move::new("e2".parse().unwrap(), "e4".parse().unwrap());
        for text in ["e2e4", "E2E4", "e2-e4", "e4", "E4", "e4!", " e4 "] {
            assert_eq!(parse_move(&p, text), Ok(e2e4), "{text}");
        }
    }

    #[test]
    fn captures_and_en_passant() {
        let p = pos("8/8/8/3pP3/8/8/8/8 w d6");
        let ep = Move::new("e5".parse().unwrap(), "d6".parse().unwrap());
        for text in ["exd6", "ed6", "e5d6", "e5xd6", "exd6 e.p.", "EXD6"] {
            assert_eq!(parse_move(&p, text), Ok(ep), "{text}");
        }
        assert_eq!(san(ep), "exd6");
        assert_eq!(p.pawn_at("d5".parse().unwrap()), Some(Color::Black));
    }

    #[test]
    fn malformed_and_illegal_are_told_apart() {
        let p = pos("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -");
        for text in ["", "hello", "e2e9", "z2z4", "e2e4e5", "xd5"] {
            assert!(
                matches!(parse_move(&p, text), Err(MoveError::Malformed(_))),
                "{text}"
            );
        }
        for text in ["e2e5", "e5", "a2a3", "exd3", "e7e5"] {
            assert!(
                matches!(parse_move(&p, text), Err(MoveError::Illegal(_))),
                "{text}"
            );
        }
    }
}
