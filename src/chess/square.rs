//! Squares and moves of boards of any size, and their text forms.

use std::fmt;
use std::str::FromStr;

/// The widest board: files are named by one letter, `a` to `z`.
pub const MAX_WIDTH: u8 = 26;
/// The tallest board. Ranks are numbers, so this is a choice, not a limit of
/// the notation; it keeps every board printable and its squares in a `u8`.
pub const MAX_HEIGHT: u8 = 99;

/// A square named by its 0-based file and rank. It need not be on any
/// particular board: `i9` is a square, just not one of an 8x8 board, so that
/// "off the board" is something a move can be told rather than a parse error.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ChessSquare {
    pub file: u8,
    pub rank: u8,
}

impl ChessSquare {
    pub const fn new(file: u8, rank: u8) -> ChessSquare {
        ChessSquare { file, rank }
    }

    /// The square `(files, ranks)` away, if the coordinates stay representable.
    pub fn offset(self, files: i16, ranks: i16) -> Option<ChessSquare> {
        let file = u8::try_from(self.file as i16 + files).ok()?;
        let rank = u8::try_from(self.rank as i16 + ranks).ok()?;
        Some(ChessSquare { file, rank })
    }

    /// Reads a square at the start of `s`; returns it and the rest of `s`.
    fn parse_prefix(s: &str) -> Option<(ChessSquare, &str)> {
        let mut chars = s.char_indices();
        let (_, letter) = chars.next()?;
        if !letter.is_ascii_alphabetic() {
            return None;
        }
        let file = letter.to_ascii_lowercase() as u8 - b'a';
        let digits_end = s[1..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(s.len(), |i| i + 1);
        let digits = &s[1..digits_end];
        // Leading zeros and rank 0 name no square; a cap on the length keeps
        // the number in range before it is parsed.
        if digits.is_empty() || digits.starts_with('0') || digits.len() > 2 {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        Some((ChessSquare::new(file, rank - 1), &s[digits_end..]))
    }
}

impl fmt::Display for ChessSquare {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank as u16 + 1)
    }
}

/// Text that does not name a square or a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// A file letter and a rank number, `e2`, `j10`; either case.
impl FromStr for ChessSquare {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<ChessSquare, ParseError> {
        match ChessSquare::parse_prefix(s) {
            Some((sq, "")) => Ok(sq),
            _ => Err(ParseError(format!(
                "'{s}' is not a square (a file letter and a rank number, e.g. e2)"
            ))),
        }
    }
}

/// A piece goes from one square to another; what it is and what it takes
/// follow from the board.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct ChessMove {
    pub from: ChessSquare,
    pub to: ChessSquare,
}

impl ChessMove {
    pub const fn new(from: ChessSquare, to: ChessSquare) -> ChessMove {
        ChessMove { from, to }
    }
}

/// Coordinate form, `e2e4`, as a move is read.
impl fmt::Display for ChessMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// `e2e4` or `e2 e4` (any whitespace between and around): both problems'
/// forms, so that one parser serves both and a session can take either.
impl FromStr for ChessMove {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<ChessMove, ParseError> {
        let bad = || {
            ParseError(format!(
                "'{}' is not a move (two squares, e.g. e2e4 or e2 e4)",
                s.trim()
            ))
        };
        let words: Vec<&str> = s.split_whitespace().collect();
        match words.as_slice() {
            [from, to] => Ok(ChessMove::new(
                from.parse().map_err(|_| bad())?,
                to.parse().map_err(|_| bad())?,
            )),
            [both] => {
                let (from, rest) = ChessSquare::parse_prefix(both).ok_or_else(bad)?;
                let to = rest.parse().map_err(|_| bad())?;
                Ok(ChessMove::new(from, to))
            }
            _ => Err(bad()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_read_and_print_alike() {
        for text in ["a1", "h8", "i9", "j10", "z99"] {
            let sq: ChessSquare = text.parse().unwrap();
            assert_eq!(sq.to_string(), text);
        }
        assert_eq!("E2".parse::<ChessSquare>(), Ok(ChessSquare::new(4, 1)));
        for bad in ["", "e", "2e", "e0", "e02", "e100", "é2", "e2x", "-1"] {
            assert!(bad.parse::<ChessSquare>().is_err(), "{bad}");
        }
    }

    #[test]
    fn moves_read_in_both_forms() {
        let m = ChessMove::new(ChessSquare::new(4, 1), ChessSquare::new(4, 3));
        assert_eq!("e2e4".parse(), Ok(m));
        assert_eq!(" e2  e4 \r".parse(), Ok(m));
        assert_eq!(m.to_string(), "e2e4");
        let tall: ChessMove = "a10b9".parse().unwrap();
        assert_eq!(
            tall,
            ChessMove::new(ChessSquare::new(0, 9), ChessSquare::new(1, 8))
        );
        for bad in ["", "e2", "e2e", "e2 e4 e5", "e2-e4", "exit", "e2e4e5"] {
            assert!(bad.parse::<ChessMove>().is_err(), "{bad}");
        }
    }

    #[test]
    fn offsets_stop_at_the_edge_of_the_numbers() {
        let a1 = ChessSquare::new(0, 0);
        assert_eq!(a1.offset(-1, 0), None);
        assert_eq!(a1.offset(2, 1), Some(ChessSquare::new(2, 1)));
    }
}
