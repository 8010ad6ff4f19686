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

/// The move's standard algebraic notation. No position is needed: a pawn
/// move's SAN is never ambiguous, since only one pawn can step to a given
/// square and a capture names the file it came from.
pub fn san(m: Move) -> String {
    if m.is_capture() {
        format!("{}x{}", m.from.file_char(), m.to)
    } else {
        m.to.to_string()
    }
}

/// The move in UCI's coordinates: `e2e4`, and a move to the last rank with
/// a queen's `q` (`a7a8q`), as chess GUIs and libraries write and expect
/// a promotion. In a pawn game the pawn wins there, whatever it would become.
pub fn uci(pos: &Position, m: Move) -> String {
    if pos.rules().goal(pos.side_to_move()).has(m.to) {
        format!("{m}q")
    } else {
        m.to_string()
    }
}

/// A line of moves from `pos` in UCI's coordinates, space-separated; it
/// stops before a move that is not legal where it comes.
pub fn uci_line(pos: &Position, moves: &[Move]) -> String {
    let mut at = *pos;
    let mut words = Vec::with_capacity(moves.len());
    for &m in moves {
        if !at.is_legal(m) {
            break;
        }
        words.push(uci(&at, m));
        at = at.play_unchecked(m);
    }
    words.join(" ")
}

/// Reads a move in either notation and checks that it is legal in `pos`.
/// A promotion letter (`a7a8q`, `a8=Q`; any piece) is read on a move to the
/// last rank, where the pawn wins whatever it would become.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let (cleaned, promotes) = strip_promotion(&clean(text));
    let m = parse_plain(pos, &cleaned, text)?;
    if promotes && !pos.rules().goal(pos.side_to_move()).has(m.to) {
        return Err(MoveError::Illegal(format!(
            "{text} names a promotion, but {m} does not reach the last rank"
        )));
    }
    Ok(m)
}

/// `cleaned` without a promotion suffix (`q`, `=q`, any piece letter after
/// a square), and whether it had one.
fn strip_promotion(cleaned: &str) -> (String, bool) {
    let chars: Vec<char> = cleaned.chars().collect();
    match chars.as_slice() {
        [rest @ .., r, '=', 'q' | 'r' | 'b' | 'n'] | [rest @ .., r, 'q' | 'r' | 'b' | 'n']
            if r.is_ascii_digit() && !rest.is_empty() =>
        {
            let mut s: String = rest.iter().collect();
            s.push(*r);
            (s, true)
        }
        _ => (cleaned.to_string(), false),
    }
}

fn parse_plain(pos: &Position, cleaned: &str, text: &str) -> Result<Move, MoveError> {
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

    /// UCI writes a move to the last rank with a promotion letter; every
    /// form of it reads back, and a letter on any other move is refused.
    #[test]
    fn promotions_the_uci_way() {
        let p = pos("8/P6p/8/8/8/8/7P/8 w -");
        let a8 = Move::new("a7".parse().unwrap(), "a8".parse().unwrap());
        let h3 = Move::new("h2".parse().unwrap(), "h3".parse().unwrap());
        assert_eq!(uci(&p, a8), "a7a8q");
        assert_eq!(uci(&p, h3), "h2h3");
        for text in [
            "a7a8q", "A7A8Q", "a7a8", "a8", "a8=Q", "a8q", "a7a8n", "a7-a8q",
        ] {
            assert_eq!(parse_move(&p, text), Ok(a8), "{text}");
        }
        assert!(matches!(
            parse_move(&p, "h2h3q"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!("a7a8q".parse::<Move>(), Ok(a8));
        assert!("a7a8k".parse::<Move>().is_err());
        // Black's last rank is the first.
        let b = pos("8/7P/8/8/8/8/p7/8 b -");
        let a1 = Move::new("a2".parse().unwrap(), "a1".parse().unwrap());
        assert_eq!(uci(&b, a1), "a2a1q");
        assert_eq!(uci_line(&p, &[h3, a1]), "h2h3");
        let line = uci_line(&pos("8/P7/8/8/8/8/p7/8 b -"), &[a1]);
        assert_eq!(line, "a2a1q");
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
