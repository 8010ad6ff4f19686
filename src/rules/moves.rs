//! Moves and move lists.

use super::square::Square;
use std::fmt;
use std::ops::Deref;

/// A pawn move: where it starts and where it lands. Everything else (capture,
/// double step, en passant) follows from the squares and the position.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
}

impl Move {
    pub const fn new(from: Square, to: Square) -> Move {
        Move { from, to }
    }

    /// Pawns change file only when they capture.
    pub const fn is_capture(self) -> bool {
        self.from.file() != self.to.file()
    }

    pub const fn is_double_step(self) -> bool {
        self.from.rank().abs_diff(self.to.rank()) == 2
    }

    /// The move seen in a mirror between the first and last files of a
    /// board `width` files wide (see [`Position::mirror_files`]).
    ///
    /// [`Position::mirror_files`]: super::Position::mirror_files
    pub const fn mirror_files(self, width: u8) -> Move {
        Move::new(self.from.mirror_files(width), self.to.mirror_files(width))
    }
}

/// Coordinate form, `e2e4`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

/// Coordinate form only, without a position to check it against (data
/// files); moves a person types go through `parse_move`, which knows SAN.
impl std::str::FromStr for Move {
    type Err = String;
    fn from_str(text: &str) -> Result<Move, String> {
        let square = |s: Option<&str>| s.and_then(|s| s.parse::<Square>().ok());
        // A UCI promotion letter is allowed: without a position it cannot
        // be checked, and the pawn wins on the last rank whatever it becomes.
        let promotion = matches!(
            text.get(4..),
            Some("q" | "r" | "b" | "n" | "Q" | "R" | "B" | "N")
        );
        match (square(text.get(0..2)), square(text.get(2..4)), text.len()) {
            (Some(from), Some(to), 4) => Ok(Move::new(from, to)),
            (Some(from), Some(to), 5) if promotion => Ok(Move::new(from, to)),
            _ => Err(format!("'{text}' is not a move")),
        }
    }
}

/// The most moves a side can have: eight pawns, each with a single step, a
/// double step and two captures.
pub const MAX_MOVES: usize = 32;

/// The legal moves of a position, without allocating.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        let filler = Move::new(Square::new(0, 0), Square::new(0, 0));
        MoveList {
            moves: [filler; MAX_MOVES],
            len: 0,
        }
    }

    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}
