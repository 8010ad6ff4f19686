//! The board: which piece stands where, making moves, and the validator's
//! text form.

use super::square::{ChessMove, ChessSquare};
use super::variant::{ChessVariant, KindId};
use crate::rules::Color;

/// A piece on the board. `moved` is all the history the rules need: a pawn's
/// longer first push depends on it.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Piece {
    pub kind: KindId,
    pub color: Color,
    pub moved: bool,
}

impl Piece {
    /// A piece that has not moved yet, as in a start position.
    pub const fn new(kind: KindId, color: Color) -> Piece {
        Piece {
            kind,
            color,
            moved: false,
        }
    }
}

/// Occupancy of a `width` x `height` board, rank by rank from the bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    cells: Vec<Option<Piece>>,
}

impl Board {
    pub fn empty(width: u8, height: u8) -> Board {
        Board {
            width,
            height,
            cells: vec![None; width as usize * height as usize],
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    fn index(&self, sq: ChessSquare) -> Option<usize> {
        (sq.file < self.width && sq.rank < self.height)
            .then(|| sq.rank as usize * self.width as usize + sq.file as usize)
    }

    /// What stands on `sq`; nothing off the board.
    pub fn get(&self, sq: ChessSquare) -> Option<Piece> {
        self.index(sq).and_then(|i| self.cells[i])
    }

    /// Puts `piece` on `sq` (or clears it). Off the board it does nothing:
    /// callers only place pieces on squares they took from the board.
    pub fn set(&mut self, sq: ChessSquare, piece: Option<Piece>) {
        if let Some(i) = self.index(sq) {
            self.cells[i] = piece;
        }
    }

    /// Every piece with its square, rank by rank from the bottom.
    pub fn pieces(&self) -> impl Iterator<Item = (ChessSquare, Piece)> + '_ {
        let width = self.width as usize;
        self.cells.iter().enumerate().filter_map(move |(i, cell)| {
            cell.map(|p| (ChessSquare::new((i % width) as u8, (i / width) as u8), p))
        })
    }

    /// Moves whatever stands on `m.from` to `m.to`, unchecked; returns what
    /// stood on `m.to`, which is taken off. The rules decide beforehand
    /// whether the move may be made; nothing here (a king taken, a pawn on
    /// its last rank) changes the game afterwards.
    pub fn make_move(&mut self, m: ChessMove) -> Option<Piece> {
        let mut piece = self.get(m.from)?;
        self.index(m.to)?;
        let captured = self.get(m.to);
        piece.moved = true;
        self.set(m.from, None);
        self.set(m.to, Some(piece));
        captured
    }

    /// The validator problem's form: one line per rank from the top, squares
    /// separated by single spaces, each `W`/`B` and the kind's letter, `--`
    /// for an empty square. Every line ends in a newline.
    pub fn render(&self, variant: &ChessVariant) -> String {
        let mut text = String::with_capacity(self.cells.len() * 3);
        for rank in (0..self.height).rev() {
            for file in 0..self.width {
                if file > 0 {
                    text.push(' ');
                }
                match self.get(ChessSquare::new(file, rank)) {
                    None => text.push_str("--"),
                    Some(p) => {
                        text.push(match p.color {
                            Color::White => 'W',
                            Color::Black => 'B',
                        });
                        text.push(variant.kind(p.kind).symbol);
                    }
                }
            }
            text.push('\n');
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_carries_the_piece_and_takes_what_was_there() {
        let v = ChessVariant::chess();
        let mut board = v.start().clone();
        let sq = |s: &str| s.parse::<ChessSquare>().unwrap();
        let taken = board.make_move(ChessMove::new(sq("d1"), sq("d7")));
        assert_eq!(taken.map(|p| p.color), Some(Color::Black));
        let queen = board.get(sq("d7")).unwrap();
        assert!(queen.moved);
        assert_eq!(v.kind(queen.kind).name, "queen");
        assert_eq!(board.get(sq("d1")), None);
        assert_eq!(board.pieces().count(), 31);
        // Nothing happens to squares that are not there.
        let before = board.clone();
        assert_eq!(board.make_move(ChessMove::new(sq("e3"), sq("e4"))), None);
        assert_eq!(board.make_move(ChessMove::new(sq("e2"), sq("i9"))), None);
        assert_eq!(board, before);
    }
}
