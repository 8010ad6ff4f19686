//! A variant: board size, the piece kinds with their letters, and the start
//! position. Everything a game needs to know that is not the moves themselves.

use super::board::{Board, Piece};
use super::piece::PieceKind;
use super::square::{ChessSquare, MAX_HEIGHT, MAX_WIDTH};
use crate::rules::Color;
use std::fmt;

/// The index of a kind in its variant's list.
pub type KindId = u8;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessVariant {
    width: u8,
    height: u8,
    kinds: Vec<PieceKind>,
    start: Board,
}

/// Why a variant cannot be built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChessVariantError(pub String);

impl fmt::Display for ChessVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ChessVariantError {}

/// The chess start, in the layout form [`ChessVariant::new`] reads.
pub const CHESS_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

impl ChessVariant {
    /// A variant from its parts. `layout` is the start position as in FEN's
    /// first field: rows from the top, separated by `/`; a kind's letter in
    /// upper case for white and lower case for black; a number for a run of
    /// empty squares (`10` on a 10-wide board).
    pub fn new(
        width: u8,
        height: u8,
        kinds: Vec<PieceKind>,
        layout: &str,
    ) -> Result<ChessVariant, ChessVariantError> {
        let err = |s: String| Err(ChessVariantError(s));
        if !(1..=MAX_WIDTH).contains(&width) || !(1..=MAX_HEIGHT).contains(&height) {
            return err(format!(
                "a {width}x{height} board: width must be 1..={MAX_WIDTH}, height 1..={MAX_HEIGHT}"
            ));
        }
        if kinds.len() > KindId::MAX as usize {
            return err(format!("{} kinds of piece is too many", kinds.len()));
        }
        for (i, kind) in kinds.iter().enumerate() {
            if !kind.symbol.is_ascii_uppercase() {
                return err(format!(
                    "{}'s symbol '{}' is not a letter",
                    kind.name, kind.symbol
                ));
            }
            if let Some(other) = kinds[..i].iter().find(|k| k.symbol == kind.symbol) {
                return err(format!(
                    "{} and {} are both written '{}'",
                    other.name, kind.name, kind.symbol
                ));
            }
        }
        let start = parse_layout(width, height, &kinds, layout)?;
        Ok(ChessVariant {
            width,
            height,
            kinds,
            start,
        })
    }

    /// Chess as the validator problems play it.
    pub fn chess() -> ChessVariant {
        ChessVariant::new(8, 8, PieceKind::chess_set(), CHESS_START)
            .expect("the chess start is a valid layout")
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    pub fn kinds(&self) -> &[PieceKind] {
        &self.kinds
    }

    pub fn kind(&self, id: KindId) -> &PieceKind {
        &self.kinds[id as usize]
    }

    pub fn kind_by_symbol(&self, symbol: char) -> Option<KindId> {
        let upper = symbol.to_ascii_uppercase();
        self.kinds
            .iter()
            .position(|k| k.symbol == upper)
            .map(|i| i as KindId)
    }

    pub fn contains(&self, sq: ChessSquare) -> bool {
        sq.file < self.width && sq.rank < self.height
    }

    /// Every square, rank by rank from the bottom.
    pub fn squares(&self) -> impl Iterator<Item = ChessSquare> + use<> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |rank| (0..width).map(move |file| ChessSquare::new(file, rank)))
    }

    pub fn start(&self) -> &Board {
        &self.start
    }
}

fn parse_layout(
    width: u8,
    height: u8,
    kinds: &[PieceKind],
    layout: &str,
) -> Result<Board, ChessVariantError> {
    let err = |s: String| Err(ChessVariantError(s));
    let rows: Vec<&str> = layout.trim().split('/').collect();
    if rows.len() != height as usize {
        return err(format!(
            "the layout has {} rows, the board {height}",
            rows.len()
        ));
    }
    let mut board = Board::empty(width, height);
    for (i, row) in rows.iter().enumerate() {
        let rank = height - 1 - i as u8;
        let mut file: usize = 0;
        let mut run: usize = 0;
        let mut place = |file: usize, piece: Option<Piece>| -> Result<(), ChessVariantError> {
            if file >= width as usize {
                return Err(ChessVariantError(format!(
                    "row {} of the layout ('{row}') is wider than {width}",
                    i + 1
                )));
            }
            board.set(ChessSquare::new(file as u8, rank), piece);
            Ok(())
        };
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                run = (run * 10 + d as usize).min(usize::from(u8::MAX) + 1);
                continue;
            }
            for _ in 0..std::mem::take(&mut run) {
                place(file, None)?;
                file += 1;
            }
            let Some(kind) = kinds
                .iter()
                .position(|k| k.symbol == c.to_ascii_uppercase())
            else {
                return err(format!("'{c}' in the layout is no kind's letter"));
            };
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            place(file, Some(Piece::new(kind as KindId, color)))?;
            file += 1;
        }
        for _ in 0..run {
            place(file, None)?;
            file += 1;
        }
        if file != width as usize {
            return err(format!(
                "row {} of the layout ('{row}') has {file} squares, the board is {width} wide",
                i + 1
            ));
        }
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chess_start_has_the_pieces_where_they_belong() {
        let v = ChessVariant::chess();
        let at = |s: &str| v.start().get(s.parse().unwrap());
        let king = v.kind_by_symbol('k').unwrap();
        assert_eq!(at("e1"), Some(Piece::new(king, Color::White)));
        assert_eq!(at("e8"), Some(Piece::new(king, Color::Black)));
        assert_eq!(at("e4"), None);
        assert_eq!(v.squares().count(), 64);
    }

    #[test]
    fn bad_variants_are_refused_with_a_reason() {
        let kinds = PieceKind::chess_set;
        let bad = [
            ChessVariant::new(0, 8, kinds(), CHESS_START),
            ChessVariant::new(27, 8, kinds(), CHESS_START),
            ChessVariant::new(8, 7, kinds(), CHESS_START),
            ChessVariant::new(
                8,
                8,
                kinds(),
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR",
            ),
            ChessVariant::new(8, 8, kinds(), "rnbqkbnr/pppppppp/8/8/8/7/PPPPPPPP/RNBQKBNR"),
            ChessVariant::new(8, 8, kinds(), "rnbqkbnr/pppppppp/8/8/8/9/PPPPPPPP/RNBQKBNR"),
            ChessVariant::new(8, 8, kinds(), "xnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"),
            ChessVariant::new(8, 8, kinds(), "99999999999999999999999/8/8/8/8/8/8/8"),
            ChessVariant::new(
                8,
                8,
                [kinds(), vec![PieceKind::pawn()]].concat(),
                "8/8/8/8/8/8/8/8",
            ),
        ];
        for (i, result) in bad.into_iter().enumerate() {
            assert!(result.is_err(), "case {i}");
        }
    }
}
