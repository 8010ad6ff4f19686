//! Squares, colours and bitboards.
//!
//! Every board, whatever its size, lives in the low corner of one 8x8 layout
//! (bit = rank * 8 + file). Shifts then mean the same thing on every board and
//! a rule set only has to mask off the squares it does not have.

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};
use std::str::FromStr;

/// The two sides. White moves up the board (towards higher ranks).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The one-letter form used in position text.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A colour as people and harnesses write it: `w`, `white`, `b` or
/// `black`, in any case, spaces around it ignored.
impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "w" | "white" => Ok(Color::White),
            "b" | "black" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// Text that names no colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError(String);

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a colour (w or b)", self.0)
    }
}

impl std::error::Error for ParseColorError {}

/// A square of the 8x8 layout. Whether it is on a smaller board is the rule
/// set's business, not the square's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// `file` and `rank` are 0-based and must be below 8.
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// The square seen in a mirror between the first and last files of a
    /// board `width` files wide.
    pub const fn mirror_files(self, width: u8) -> Square {
        Square::new(width - 1 - self.file(), self.rank())
    }

    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    pub const fn bb(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The square `ranks` steps up (negative: down) the same file, if any.
    pub const fn offset_rank(self, ranks: i8) -> Option<Square> {
        let r = self.rank() as i8 + ranks;
        if r >= 0 && r < 8 {
            Some(Square::new(self.file(), r as u8))
        } else {
            None
        }
    }

    pub fn file_char(self) -> char {
        (b'a' + self.file()) as char
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file_char(), self.rank() + 1)
    }
}

/// Why a piece of text is not a square.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError(pub String);

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a square (a1..h8)", self.0)
    }
}

impl std::error::Error for ParseSquareError {}

/// A file letter a..h in either case, as a 0-based index.
pub fn parse_file(c: char) -> Option<u8> {
    let c = c.to_ascii_lowercase();
    ('a'..='h').contains(&c).then(|| c as u8 - b'a')
}

/// A rank digit 1..8, as a 0-based index.
pub fn parse_rank(c: char) -> Option<u8> {
    ('1'..='8').contains(&c).then(|| c as u8 - b'1')
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let mut chars = s.chars();
        match (chars.next(), chars.next(), chars.next()) {
            (Some(f), Some(r), None) => match (parse_file(f), parse_rank(r)) {
                (Some(f), Some(r)) => Ok(Square::new(f, r)),
                _ => Err(ParseSquareError(s.to_string())),
            },
            _ => Err(ParseSquareError(s.to_string())),
        }
    }
}

/// The splitmix64 finaliser: a fast, well-spread bijection of 64-bit words.
pub(crate) const fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

    pub const fn rank(rank: u8) -> Bitboard {
        Bitboard(0xFF << (8 * rank))
    }

    pub const fn file(file: u8) -> Bitboard {
        Bitboard(Bitboard::FILE_A.0 << file)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn has(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The lowest square, if any.
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }

    /// Shifted `n` ranks up (negative: down); what leaves the layout is lost.
    pub const fn shift_ranks(self, n: i8) -> Bitboard {
        if n >= 0 {
            Bitboard(self.0 << (8 * n as u32))
        } else {
            Bitboard(self.0 >> (8 * (-n) as u32))
        }
    }

    /// Every square from the set's squares forwards along their files,
    /// the squares themselves excluded (towards rank 8 for white).
    pub const fn front_span(self, color: Color) -> Bitboard {
        let mut b = self.0;
        match color {
            Color::White => {
                b |= b << 8;
                b |= b << 16;
                b |= b << 32;
                Bitboard(b << 8)
            }
            Color::Black => {
                b |= b >> 8;
                b |= b >> 16;
                b |= b >> 32;
                Bitboard(b >> 8)
            }
        }
    }

    /// The squares of the set and their neighbours on the same rank.
    pub const fn widen(self) -> Bitboard {
        Bitboard(
            self.0 | ((self.0 & !Bitboard::FILE_A.0) >> 1) | ((self.0 & !Bitboard::FILE_H.0) << 1),
        )
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

macro_rules! bit_ops {
    ($($trait:ident $method:ident $assign_trait:ident $assign:ident $op:tt;)*) => {$(
        impl $trait for Bitboard {
            type Output = Bitboard;
            fn $method(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $assign_trait for Bitboard {
            fn $assign(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}

bit_ops! {
    BitAnd bitand BitAndAssign bitand_assign &;
    BitOr bitor BitOrAssign bitor_assign |;
    BitXor bitxor BitXorAssign bitxor_assign ^;
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn colours_in_every_spelling() {
        use super::Color;
        for text in ["W", "w", "white", "White", " W "] {
            assert_eq!(text.parse(), Ok(Color::White), "{text}");
        }
        for text in ["B", "b", "black", "BLACK"] {
            assert_eq!(text.parse(), Ok(Color::Black), "{text}");
        }
        for text in ["", "x", "wb", "whit"] {
            assert!(text.parse::<Color>().is_err(), "{text}");
        }
    }

    use super::*;

    #[test]
    fn squares_round_trip_through_text() {
        for i in 0..64 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("E4".parse::<Square>(), Ok(Square::new(4, 3)));
        for bad in ["", "e", "e9", "i1", "e44", "4e"] {
            assert!(bad.parse::<Square>().is_err(), "{bad}");
        }
    }

    #[test]
    fn front_span_excludes_the_square_itself() {
        let e4 = Square::new(4, 3);
        let up = e4.bb().front_span(Color::White);
        assert_eq!(up.count(), 4);
        assert!(!up.has(e4) && up.has(Square::new(4, 7)));
        let down = e4.bb().front_span(Color::Black);
        assert_eq!(down.count(), 3);
        assert!(down.has(Square::new(4, 0)));
    }

    #[test]
    fn widen_stays_on_the_rank() {
        let a1 = Square::new(0, 0).bb();
        assert_eq!(a1.widen().count(), 2);
        let h1 = Square::new(7, 0).bb();
        assert_eq!(h1.widen().count(), 2);
        assert_eq!(Square::new(3, 3).bb().widen().count(), 3);
    }
}
