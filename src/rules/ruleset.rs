//! Rule sets: the board size and the rules that differ between pawn games.
//!
//! A rule set is a value. Everything else (move generation, outcomes, position
//! text, the solver) reads it instead of branching on a game's name.

use super::square::{Bitboard, Color, Square, mix};
use std::fmt;
use std::str::FromStr;

/// What happens to the side to move when it has no legal move.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum NoMoves {
    /// Stalemate: the game is drawn (Pawn Race).
    Draw,
    /// The side to move loses (UVa 10838).
    Loss,
}

/// The named rule sets the protocol and the command line offer.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Variant {
    PawnRace,
    Mini4,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::PawnRace, Variant::Mini4];

    pub const fn name(self) -> &'static str {
        match self {
            Variant::PawnRace => "pawnrace",
            Variant::Mini4 => "mini4",
        }
    }

    pub const fn rules(self) -> RuleSet {
        match self {
            Variant::PawnRace => RuleSet::PAWNRACE,
            Variant::Mini4 => RuleSet::MINI4,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown variant '{s}' (known: pawnrace, mini4)"))
    }
}

/// The rules of one pawn game. Construct with [`RuleSet::new`] or use a
/// named one; the masks are derived once so that move generation only ANDs.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct RuleSet {
    variant: Option<Variant>,
    width: u8,
    height: u8,
    home_rank: u8,
    double_step: bool,
    en_passant: bool,
    gaps: bool,
    no_moves: NoMoves,
    board: Bitboard,
    /// Indexed by colour: the rank a pawn of that colour wins on.
    goal: [Bitboard; 2],
    /// Indexed by colour: where a single step from the home rank lands, the
    /// only squares a double step may continue from.
    double_from: [Bitboard; 2],
    /// Mixed into every position key: equal pawns under other rules are
    /// another position.
    key: u64,
}

/// Why a rule set cannot exist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleSetError(pub String);

impl fmt::Display for RuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RuleSetError {}

impl RuleSet {
    /// Imperial College Pawn Race: 8x8, pawns on the second ranks with one gap
    /// file each, double steps, en passant, stalemate draws.
    pub const PAWNRACE: RuleSet = RuleSet::build(
        Some(Variant::PawnRace),
        8,
        8,
        1,
        true,
        true,
        true,
        NoMoves::Draw,
    );

    /// UVa 10838: 4x4, full rows on the edge ranks, single steps only, the side
    /// that cannot move loses.
    pub const MINI4: RuleSet = RuleSet::build(
        Some(Variant::Mini4),
        4,
        4,
        0,
        false,
        false,
        false,
        NoMoves::Loss,
    );

    /// A rule set of one's own. `home_rank` is white's starting rank (0-based);
    /// black's mirrors it.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        width: u8,
        height: u8,
        home_rank: u8,
        double_step: bool,
        en_passant: bool,
        gaps: bool,
        no_moves: NoMoves,
    ) -> Result<RuleSet, RuleSetError> {
        if !(1..=8).contains(&width) || !(3..=8).contains(&height) {
            return Err(RuleSetError(format!(
                "a board is 1..8 files by 3..8 ranks, not {width}x{height}"
            )));
        }
        if 2 * home_rank + 1 >= height {
            return Err(RuleSetError(format!(
                "home rank {} leaves no room between the sides on {height} ranks",
                home_rank + 1
            )));
        }
        if en_passant && !double_step {
            return Err(RuleSetError("en passant needs double steps".into()));
        }
        if gaps && width < 2 {
            return Err(RuleSetError("gaps need at least two files".into()));
        }
        let built = RuleSet::build(
            None,
            width,
            height,
            home_rank,
            double_step,
            en_passant,
            gaps,
            no_moves,
        );
        // A custom value equal to a named one is that one.
        Ok(Variant::ALL
            .into_iter()
            .map(Variant::rules)
            .find(|named| {
                RuleSet {
                    variant: None,
                    ..*named
                } == built
            })
            .unwrap_or(built))
    }

    #[allow(clippy::too_many_arguments)]
    const fn build(
        variant: Option<Variant>,
        width: u8,
        height: u8,
        home_rank: u8,
        double_step: bool,
        en_passant: bool,
        gaps: bool,
        no_moves: NoMoves,
    ) -> RuleSet {
        let row: u64 = if width == 8 {
            0xFF
        } else {
            (1u64 << width) - 1
        };
        let mut board = 0u64;
        let mut r = 0;
        while r < height {
            board |= row << (8 * r);
            r += 1;
        }
        let (white_double, black_double) = if double_step {
            (
                row << (8 * (home_rank + 1)),
                row << (8 * (height - 2 - home_rank)),
            )
        } else {
            (0, 0)
        };
        let flags = double_step as u64 | (en_passant as u64) << 1 | (gaps as u64) << 2;
        let no_moves_loses = matches!(no_moves, NoMoves::Loss) as u64;
        let shape = width as u64 | (height as u64) << 8 | (home_rank as u64) << 16;
        RuleSet {
            key: mix(shape | flags << 24 | no_moves_loses << 32),
            variant,
            width,
            height,
            home_rank,
            double_step,
            en_passant,
            gaps,
            no_moves,
            board: Bitboard(board),
            goal: [Bitboard(row << (8 * (height - 1))), Bitboard(row)],
            double_from: [Bitboard(white_double), Bitboard(black_double)],
        }
    }

    /// The variant's name, or `custom`.
    pub fn name(&self) -> &'static str {
        self.variant.map_or("custom", Variant::name)
    }

    pub const fn variant(&self) -> Option<Variant> {
        self.variant
    }

    pub const fn width(&self) -> u8 {
        self.width
    }

    pub const fn height(&self) -> u8 {
        self.height
    }

    pub const fn double_step(&self) -> bool {
        self.double_step
    }

    pub const fn en_passant(&self) -> bool {
        self.en_passant
    }

    /// Whether the start leaves one file empty per side, chosen by black.
    pub const fn has_gaps(&self) -> bool {
        self.gaps
    }

    pub const fn no_moves(&self) -> NoMoves {
        self.no_moves
    }

    /// What this rule set adds to a position's key.
    pub const fn key(&self) -> u64 {
        self.key
    }

    pub const fn board(&self) -> Bitboard {
        self.board
    }

    pub const fn contains(&self, sq: Square) -> bool {
        self.board.has(sq)
    }

    /// The rank a pawn of `color` wins on.
    pub const fn goal(&self, color: Color) -> Bitboard {
        self.goal[color.index()]
    }

    pub const fn double_from(&self, color: Color) -> Bitboard {
        self.double_from[color.index()]
    }

    /// The 0-based rank the pawns of `color` start on.
    pub const fn home_rank(&self, color: Color) -> u8 {
        match color {
            Color::White => self.home_rank,
            Color::Black => self.height - 1 - self.home_rank,
        }
    }

    /// The squares a pawn of `color` may stand on in a position still being
    /// played: not its goal, not behind its home rank.
    pub fn pawn_area(&self, color: Color) -> Bitboard {
        let mut area = Bitboard::EMPTY;
        for r in 0..self.height {
            let playable = match color {
                Color::White => r >= self.home_rank && r < self.height - 1,
                Color::Black => r <= self.height - 1 - self.home_rank && r > 0,
            };
            if playable {
                area |= Bitboard::rank(r);
            }
        }
        area & self.board
    }

    /// How many pawns a side starts with, the most it can ever have.
    pub const fn max_pawns(&self) -> u32 {
        self.width as u32 - if self.gaps { 1 } else { 0 }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The empty files of the two sides, white's first, as in `AH`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Gaps {
    pub white: u8,
    pub black: u8,
}

impl Gaps {
    /// Every pair on a board `width` files wide, in text order (AA, AB, ...).
    pub fn all(width: u8) -> impl Iterator<Item = Gaps> {
        (0..width).flat_map(move |white| (0..width).map(move |black| Gaps { white, black }))
    }
}

impl fmt::Display for Gaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'A' + self.white) as char,
            (b'A' + self.black) as char
        )
    }
}

impl FromStr for Gaps {
    type Err = String;
    /// Two file letters, either case: `AH`, `ah`.
    fn from_str(s: &str) -> Result<Gaps, String> {
        let mut chars = s.chars();
        let files = (chars.next(), chars.next(), chars.next());
        let file = |c: char| super::square::parse_file(c);
        match files {
            (Some(w), Some(b), None) => match (file(w), file(b)) {
                (Some(white), Some(black)) => Ok(Gaps { white, black }),
                _ => Err(format!(
                    "'{s}' is not two file letters A..H (white's gap first, e.g. AH)"
                )),
            },
            _ => Err(format!(
                "'{s}' is not two file letters A..H (white's gap first, e.g. AH)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_rule_sets_have_their_masks() {
        let r = RuleSet::PAWNRACE;
        assert_eq!(r.board(), Bitboard(u64::MAX));
        assert_eq!(r.goal(Color::White), Bitboard::rank(7));
        assert_eq!(r.double_from(Color::White), Bitboard::rank(2));
        assert_eq!(r.double_from(Color::Black), Bitboard::rank(5));
        assert_eq!(r.max_pawns(), 7);
        let m = RuleSet::MINI4;
        assert_eq!(m.board().count(), 16);
        assert_eq!(m.goal(Color::White), Bitboard(0xF << 24));
        assert!(m.double_from(Color::White).is_empty());
        assert_eq!(m.pawn_area(Color::White).count(), 12);
    }

    #[test]
    fn custom_values_equal_to_named_ones_are_named() {
        let r = RuleSet::new(8, 8, 1, true, true, true, NoMoves::Draw).unwrap();
        assert_eq!(r, RuleSet::PAWNRACE);
        assert_eq!(r.name(), "pawnrace");
        let c = RuleSet::new(6, 6, 1, true, true, true, NoMoves::Draw).unwrap();
        assert_eq!(c.name(), "custom");
        assert!(RuleSet::new(8, 3, 1, true, true, true, NoMoves::Draw).is_err());
        assert!(RuleSet::new(9, 8, 1, true, true, true, NoMoves::Draw).is_err());
        assert!(RuleSet::new(8, 8, 1, false, true, true, NoMoves::Draw).is_err());
    }

    #[test]
    fn gaps_parse_in_either_case() {
        assert_eq!("AH".parse(), Ok(Gaps { white: 0, black: 7 }));
        assert_eq!("ah".parse::<Gaps>().unwrap().to_string(), "AH");
        assert!("A".parse::<Gaps>().is_err());
        assert!("AI".parse::<Gaps>().is_err());
        assert!("AHH".parse::<Gaps>().is_err());
        assert_eq!(Gaps::all(8).count(), 64);
    }
}
