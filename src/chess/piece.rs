//! Piece kinds as data: how a kind moves is a value, so that a new kind or a
//! changed move style is a new value and the validator stays as it is.

use crate::rules::Color;

/// A step on the board: files to the right, ranks up (white's view).
pub type Offset = (i8, i8);

/// One way of moving. A kind may have several (a queen that also leaps like
/// a knight is a slider and a leaper).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Movement {
    /// Jumps straight to `from + offset`, whatever stands between; moves or
    /// captures alike.
    Leaper { offsets: Vec<Offset> },
    /// Steps along a direction over empty squares, at most `range` steps
    /// (`None`: as far as the board goes); moves or captures alike.
    Slider {
        directions: Vec<Offset>,
        range: Option<u8>,
    },
    /// Moves one way and captures another, like a chess pawn.
    Pawn(PawnMoves),
}

/// How a pawn-like piece moves. Directions depend on the colour, so they are
/// given per colour rather than mirrored from white's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnMoves {
    /// The forward step of each colour, indexed by [`Color::index`].
    pub forward: [Offset; 2],
    /// The most steps forward a push may go onto empty squares.
    pub push: u8,
    /// The most steps a push may go on the piece's first move.
    pub first_push: u8,
    /// Captures one step diagonally forward, and only there: straight pushes
    /// never capture and diagonal steps always do.
    pub diagonal_capture: bool,
}

impl PawnMoves {
    /// The chess pawn: white up, black down, one step, two on its first move.
    pub fn chess() -> PawnMoves {
        PawnMoves {
            forward: [(0, 1), (0, -1)],
            push: 1,
            first_push: 2,
            diagonal_capture: true,
        }
    }

    pub fn forward(&self, color: Color) -> Offset {
        self.forward[color.index()]
    }

    /// The forward step plus one step to either side of it.
    pub fn diagonals(&self, color: Color) -> [Offset; 2] {
        let (f, r) = self.forward(color);
        // Sideways is the forward step turned a quarter, so that pawns moving
        // along files and pawns moving along ranks capture alike.
        [(f + r, r - f), (f - r, r + f)]
    }
}

/// A kind of piece: its name, the letter it is written with, how it moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceKind {
    pub name: String,
    /// Upper case; white pieces are printed with it, black ones in lower case
    /// in start layouts. Letters must differ between the kinds of a variant.
    pub symbol: char,
    pub moves: Vec<Movement>,
}

impl PieceKind {
    pub fn new(name: &str, symbol: char, moves: Vec<Movement>) -> PieceKind {
        PieceKind {
            name: name.to_string(),
            symbol: symbol.to_ascii_uppercase(),
            moves,
        }
    }

    pub fn leaper(name: &str, symbol: char, offsets: Vec<Offset>) -> PieceKind {
        PieceKind::new(name, symbol, vec![Movement::Leaper { offsets }])
    }

    pub fn slider(
        name: &str,
        symbol: char,
        directions: Vec<Offset>,
        range: Option<u8>,
    ) -> PieceKind {
        PieceKind::new(name, symbol, vec![Movement::Slider { directions, range }])
    }

    /// Whether the kind moves like a pawn (the pawn validator checks only these).
    pub fn is_pawn_like(&self) -> bool {
        self.moves.iter().any(|m| matches!(m, Movement::Pawn(_)))
    }

    pub fn pawn() -> PieceKind {
        PieceKind::new("pawn", 'P', vec![Movement::Pawn(PawnMoves::chess())])
    }

    pub fn knight() -> PieceKind {
        PieceKind::leaper("knight", 'N', symmetric(1, 2))
    }

    pub fn bishop() -> PieceKind {
        PieceKind::slider("bishop", 'B', DIAGONAL.to_vec(), None)
    }

    pub fn rook() -> PieceKind {
        PieceKind::slider("rook", 'R', ORTHOGONAL.to_vec(), None)
    }

    pub fn queen() -> PieceKind {
        PieceKind::slider("queen", 'Q', [ORTHOGONAL, DIAGONAL].concat(), None)
    }

    pub fn king() -> PieceKind {
        PieceKind::leaper("king", 'K', [ORTHOGONAL, DIAGONAL].concat())
    }

    /// The six chess kinds in the order their letters are usually listed.
    pub fn chess_set() -> Vec<PieceKind> {
        vec![
            PieceKind::pawn(),
            PieceKind::knight(),
            PieceKind::bishop(),
            PieceKind::rook(),
            PieceKind::queen(),
            PieceKind::king(),
        ]
    }
}

pub const ORTHOGONAL: [Offset; 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
pub const DIAGONAL: [Offset; 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The up to eight offsets `(±a, ±b)` and `(±b, ±a)`: every leaper of chess
/// and its fairy relatives (knight 1,2; camel 1,3; zebra 2,3) is one of these.
pub fn symmetric(a: i8, b: i8) -> Vec<Offset> {
    let mut offsets = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let o = (x * sx, y * sy);
            if !offsets.contains(&o) {
                offsets.push(o);
            }
        }
    }
    offsets
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_offsets_have_no_duplicates() {
        assert_eq!(symmetric(1, 2).len(), 8);
        assert_eq!(symmetric(1, 1).len(), 4);
        assert_eq!(symmetric(0, 1).len(), 4);
    }

    #[test]
    fn pawn_diagonals_are_forward_and_to_either_side() {
        let p = PawnMoves::chess();
        let mut white = p.diagonals(Color::White).to_vec();
        white.sort();
        assert_eq!(white, vec![(-1, 1), (1, 1)]);
        let mut black = p.diagonals(Color::Black).to_vec();
        black.sort();
        assert_eq!(black, vec![(-1, -1), (1, -1)]);
    }
}
