//! Move generation, making moves, and how a game ends.

use super::moves::{Move, MoveList};
use super::notation::MoveError;
use super::outcome::{Outcome, Reason};
use super::position::Position;
use super::ruleset::NoMoves;
use super::square::{Bitboard, Color, Square};

/// Where the side to move's pawns can go, as destination sets. Captures are
/// split by direction so that each destination names its origin.
#[derive(Copy, Clone, Debug)]
pub struct Targets {
    pub single: Bitboard,
    pub double: Bitboard,
    /// Captures towards the a-file.
    pub left: Bitboard,
    /// Captures towards the h-file.
    pub right: Bitboard,
}

impl Targets {
    pub const fn count(&self) -> u32 {
        self.single.count() + self.double.count() + self.left.count() + self.right.count()
    }

    /// No move at all: one test of the four sets together, where
    /// `count() == 0` would take four population counts (the build has no
    /// popcount instruction) at every node of the solver and the search.
    pub const fn is_empty(&self) -> bool {
        (self.single.0 | self.double.0 | self.left.0 | self.right.0) == 0
    }
}

impl Position {
    /// Destinations of the side to move's pawns, ignoring whether the game is
    /// over. The search and perft use this directly.
    #[inline]
    pub fn targets(&self) -> Targets {
        let us = self.pawns[self.side.index()];
        let them = self.pawns[(!self.side).index()];
        let empty = self.rules.board() & !(us | them);
        let mut capturable = them;
        if let Some(ep) = self.ep {
            capturable |= ep.bb();
        }
        let (up, left, right) = match self.side {
            Color::White => (8, 7, 9),
            Color::Black => (-8, -9, -7),
        };
        let shift = |b: Bitboard, n: i8| {
            if n > 0 {
                Bitboard(b.0 << n)
            } else {
                Bitboard(b.0 >> -n)
            }
        };
        let single = shift(us, up) & empty;
        let double = shift(single & self.rules.double_from(self.side), up) & empty;
        Targets {
            single,
            double,
            left: shift(us & !Bitboard::FILE_A, left) & capturable,
            right: shift(us & !Bitboard::FILE_H, right) & capturable,
        }
    }

    /// The origin offsets (destination minus origin, in bit indices) of the
    /// four target sets, in the order single, double, left, right.
    #[inline]
    pub const fn target_offsets(side: Color) -> [i8; 4] {
        match side {
            Color::White => [8, 16, 7, 9],
            Color::Black => [-8, -16, -9, -7],
        }
    }

    /// The legal moves; none once the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.is_decided() {
            return list;
        }
        let t = self.targets();
        let offsets = Position::target_offsets(self.side);
        for (set, off) in [t.single, t.double, t.left, t.right]
            .into_iter()
            .zip(offsets)
        {
            for to in set {
                let from = Square::from_index((to.index() as i8 - off) as u8)
                    .expect("origin is on the layout");
                list.push(Move::new(from, to));
            }
        }
        list
    }

    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(&m)
    }

    /// Whether the side that just moved has won (promotion or last capture).
    /// Such a position has no moves; only stalemate is left to detect.
    #[inline]
    pub fn is_decided(&self) -> bool {
        !(self.pawns[(!self.side).index()] & self.rules.goal(!self.side)).is_empty()
            || self.pawns[self.side.index()].is_empty()
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        let mover = !self.side;
        if let Some(sq) = (self.pawns(mover) & self.rules.goal(mover)).first() {
            return Some(Outcome {
                winner: Some(mover),
                reason: Reason::Promotion(sq),
            });
        }
        if self.pawns(self.side).is_empty() {
            return Some(Outcome {
                winner: Some(mover),
                reason: Reason::LastCapture,
            });
        }
        if self.targets().is_empty() {
            return Some(match self.rules.no_moves() {
                NoMoves::Draw => Outcome {
                    winner: None,
                    reason: Reason::Stalemate,
                },
                NoMoves::Loss => Outcome {
                    winner: Some(mover),
                    reason: Reason::NoMoves,
                },
            });
        }
        None
    }

    /// The position after `moves`, each checked legal where it comes.
    pub fn play_line(&self, moves: &[Move]) -> Result<Position, MoveError> {
        let mut at = *self;
        for &m in moves {
            if !at.is_legal(m) {
                return Err(MoveError::Illegal(format!(
                    "{m} is not legal in {}",
                    at.fen()
                )));
            }
            at = at.play_unchecked(m);
        }
        Ok(at)
    }

    /// The position after `m`, which must be legal here; the game-ending
    /// checks are left to [`Position::outcome`].
    #[inline]
    pub fn play_unchecked(&self, m: Move) -> Position {
        let us = self.side.index();
        let them = 1 - us;
        let mut next = *self;
        next.pawns[us] ^= m.from.bb() | m.to.bb();
        if m.is_capture() {
            let victim = if self.pawns[them].has(m.to) {
                m.to
            } else {
                Square::new(m.to.file(), m.from.rank())
            };
            next.pawns[them] ^= victim.bb();
        }
        next.ep = None;
        if m.is_double_step() && self.rules.en_passant() {
            // Only record the square when a pawn can use it, so that equal
            // positions compare and hash equal.
            let beside = m.to.bb().widen() & self.pawns[them];
            if !beside.is_empty() {
                let mid = Square::new(m.to.file(), (m.from.rank() + m.to.rank()) / 2);
                next.ep = Some(mid);
            }
        }
        next.side = !self.side;
        next
    }
}
