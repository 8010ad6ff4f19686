//! Positions: validated construction, move generation, making moves, outcomes.

use super::ruleset::{Gaps, RuleSet};
use super::square::{Bitboard, Color, Square, mix};
use std::fmt;

/// A position of a pawn game: both sides' pawns, the side to move, and the
/// square a pawn may be captured on en passant. Small and `Copy`, so that the
/// search makes moves by copying.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Position {
    pub(super) rules: RuleSet,
    pub(super) pawns: [Bitboard; 2],
    pub(super) side: Color,
    pub(super) ep: Option<Square>,
}

/// A hash map's hash is the position's own key ([`Position::hash`]): equal
/// positions have equal keys, and the key mixes every field. Derived, it fed
/// the rule set's every field to the map's hasher, and a fifth of reading
/// the book went there.
impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(Position::hash(self));
    }
}

/// What is wrong with a position, said so that a person can fix it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The text itself does not parse.
    Syntax(String),
    OffBoard(Square),
    TwoPawns(Square),
    OnLastRank(Color, Square),
    BehindHome(Color, Square),
    TooManyPawns {
        color: Color,
        count: u32,
        max: u32,
    },
    NoPawns,
    /// The side that just moved has no pawns: no game reaches that.
    MoverHasNoPawns(Color),
    EnPassant(String),
    Gaps(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::Syntax(s) => f.write_str(s),
            PositionError::OffBoard(sq) => write!(f, "{sq} is not on the board"),
            PositionError::TwoPawns(sq) => write!(f, "two pawns on {sq}"),
            PositionError::OnLastRank(c, sq) => {
                write!(
                    f,
                    "{c} pawn on {sq}, its last rank: the game would already be over"
                )
            }
            PositionError::BehindHome(c, sq) => {
                write!(f, "{c} pawn on {sq}, behind its starting rank")
            }
            PositionError::TooManyPawns { color, count, max } => {
                write!(f, "too many {color} pawns: {count} (at most {max})")
            }
            PositionError::NoPawns => f.write_str("no pawns on the board"),
            PositionError::MoverHasNoPawns(c) => {
                write!(
                    f,
                    "{c} has no pawns yet {} is to move: no game reaches this",
                    !*c
                )
            }
            PositionError::EnPassant(s) => write!(f, "en passant square: {s}"),
            PositionError::Gaps(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The start of a game. Rule sets with gaps need them; others refuse them.
    pub fn start(rules: RuleSet, gaps: Option<Gaps>) -> Result<Position, PositionError> {
        let white_home = Bitboard::rank(rules.home_rank(Color::White)) & rules.board();
        let black_home = Bitboard::rank(rules.home_rank(Color::Black)) & rules.board();
        let (white, black) = match (rules.has_gaps(), gaps) {
            (true, Some(g)) => {
                if g.white >= rules.width() || g.black >= rules.width() {
                    return Err(PositionError::Gaps(format!(
                        "gaps {g} are off a {}-file board",
                        rules.width()
                    )));
                }
                (
                    white_home & !Bitboard::file(g.white),
                    black_home & !Bitboard::file(g.black),
                )
            }
            (true, None) => {
                return Err(PositionError::Gaps(format!(
                    "{} needs gaps (e.g. AH) before it starts",
                    rules.name()
                )));
            }
            (false, None) => (white_home, black_home),
            (false, Some(_)) => {
                return Err(PositionError::Gaps(format!("{} has no gaps", rules.name())));
            }
        };
        Position::new(rules, white, black, Color::White, None)
    }

    /// A position from its parts, checked against the rules: every pawn on a
    /// square it can stand on, counts the start allows, a plausible en passant
    /// square.
    pub fn new(
        rules: RuleSet,
        white: Bitboard,
        black: Bitboard,
        side: Color,
        ep: Option<Square>,
    ) -> Result<Position, PositionError> {
        let pawns = [white, black];
        if let Some(sq) = (white & black).first() {
            return Err(PositionError::TwoPawns(sq));
        }
        for color in Color::BOTH {
            let own = pawns[color.index()];
            if let Some(sq) = (own & !rules.board()).first() {
                return Err(PositionError::OffBoard(sq));
            }
            if let Some(sq) = (own & rules.goal(color)).first() {
                return Err(PositionError::OnLastRank(color, sq));
            }
            if let Some(sq) = (own & !rules.pawn_area(color)).first() {
                return Err(PositionError::BehindHome(color, sq));
            }
            if own.count() > rules.max_pawns() {
                return Err(PositionError::TooManyPawns {
                    color,
                    count: own.count(),
                    max: rules.max_pawns(),
                });
            }
        }
        if (white | black).is_empty() {
            return Err(PositionError::NoPawns);
        }
        if pawns[(!side).index()].is_empty() {
            return Err(PositionError::MoverHasNoPawns(!side));
        }
        let mut pos = Position {
            rules,
            pawns,
            side,
            ep: None,
        };
        if let Some(sq) = ep {
            pos.ep = pos.check_en_passant(sq)?;
        }
        Ok(pos)
    }

    /// An en passant square must be the one a double step of the side that
    /// just moved passed over, with that pawn beyond it and the way clear.
    /// It is kept only when a pawn can take there, as after the double step
    /// itself, so that equal positions compare and hash equal.
    fn check_en_passant(&self, sq: Square) -> Result<Option<Square>, PositionError> {
        let bad = |why: String| Err(PositionError::EnPassant(format!("{sq} {why}")));
        if !self.rules.en_passant() {
            return bad(format!(
                "given, but {} has no en passant",
                self.rules.name()
            ));
        }
        if !self.rules.contains(sq) {
            return bad("is not on the board".into());
        }
        let mover = !self.side;
        let forward: i8 = if mover == Color::White { 1 } else { -1 };
        let passed_rank = self.rules.home_rank(mover) as i8 + forward;
        if sq.rank() as i8 != passed_rank {
            return bad(format!(
                "is not on the rank a {mover} double step passes over"
            ));
        }
        let (Some(landed), Some(home)) = (sq.offset_rank(forward), sq.offset_rank(-forward)) else {
            return bad("is not on the rank a double step passes over".into());
        };
        if !self.pawns[mover.index()].has(landed) {
            return bad(format!(
                "has no {mover} pawn on {landed} that could just have moved"
            ));
        }
        if self.occupied().has(sq) || self.occupied().has(home) {
            return bad(format!("is not empty behind the {mover} pawn on {landed}"));
        }
        let takers = landed.bb().widen() & self.pawns[self.side.index()];
        Ok((!takers.is_empty()).then_some(sq))
    }

    pub const fn rules(&self) -> &RuleSet {
        &self.rules
    }

    pub const fn pawns(&self, color: Color) -> Bitboard {
        self.pawns[color.index()]
    }

    pub const fn side_to_move(&self) -> Color {
        self.side
    }

    pub const fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    pub fn occupied(&self) -> Bitboard {
        self.pawns[0] | self.pawns[1]
    }

    /// What stands on `sq`.
    pub fn pawn_at(&self, sq: Square) -> Option<Color> {
        Color::BOTH.into_iter().find(|c| self.pawns(*c).has(sq))
    }

    /// A 64-bit key for transposition tables, derived from scratch: the state
    /// is two words, so mixing them costs less than keeping keys incrementally.
    /// The rule set is part of it: the same pawns under other rules are
    /// another position, and one table may serve several games.
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut h = mix(self.pawns[0].0)
            ^ mix(self.pawns[1].0 ^ 0x5851_F42D_4C95_7F2D).rotate_left(23)
            ^ self.rules.key();
        if self.side == Color::Black {
            h ^= 0x2545_F491_4F6C_DD1D;
        }
        if let Some(ep) = self.ep {
            h ^= mix(0xA076_1D64_78BD_642F ^ ep.index() as u64);
        }
        h
    }

    /// The same position seen from the other side: ranks reversed, colours
    /// swapped. Its value for the side to move is the same.
    pub fn mirror(&self) -> Position {
        let flip =
            |b: Bitboard| Bitboard(b.0.swap_bytes() >> (8 * (8 - self.rules.height() as u32)));
        Position {
            rules: self.rules,
            pawns: [flip(self.pawns[1]), flip(self.pawns[0])],
            side: !self.side,
            ep: self
                .ep
                .map(|sq| Square::new(sq.file(), self.rules.height() - 1 - sq.rank())),
        }
    }
}

impl Position {
    /// The same position seen in a mirror between the first and last files:
    /// files reversed, colours and side kept. Its value is the same, and a
    /// move's mirror is played by flipping its squares' files.
    pub fn mirror_files(&self) -> Position {
        let width = self.rules.width();
        let flip_sq = |sq: Square| sq.mirror_files(width);
        let flip = |b: Bitboard| b.fold(Bitboard::EMPTY, |acc, sq: Square| acc | flip_sq(sq).bb());
        Position {
            rules: self.rules,
            pawns: [flip(self.pawns[0]), flip(self.pawns[1])],
            side: self.side,
            ep: self.ep.map(flip_sq),
        }
    }
}

#[cfg(test)]
mod tests;
