//! Full chess and its relatives, with pieces as data: the model behind the
//! chess validator and the pawn move validator (see [`crate::problems`]).
//!
//! A [`PieceKind`] is a name, a letter and a list of [`Movement`]s: leapers
//! (offset lists: knight, king), sliders (direction lists with an optional
//! range: rook, bishop, queen) and pawn-like movers ([`PawnMoves`]: forward
//! step per colour, push length, first-move push, capture only diagonally).
//! A [`ChessVariant`] holds the board size (up to 26x99), the kinds and the start
//! layout. A new kind, a changed move style, another board size or another
//! start is a new value; [`check`] reads the data and stays as it is.
//!
//! The rules are the validator problems': white first, turns alternate; a
//! capture takes the piece off; kings can be taken and the game goes on; a
//! pawn on its last rank stays a pawn; no check, castling, en passant or
//! promotion. [`Policy`] says which pieces' moves are checked.
//!
//! # For a protocol session
//!
//! [`Game`] is what a session needs to hold a game of this kind:
//!
//! - [`Game::chess`] (or [`Game::new`] with any [`ChessVariant`]) starts one;
//! - [`Game::play_text`] makes a move given as `e2e4` or `e2 e4`, or says why
//!   not ([`PlayError`]: not a move, or an [`Invalid`] reason) and leaves the
//!   game as it was;
//! - [`Game::valid_moves`] lists the moves of the side to move (in `e2e4`
//!   form through `Display`), [`Game::side_to_move`] says whose turn it is;
//! - [`Game::render`] prints the board in the chess validator's format.
//!
//! No I/O here: the problems' line handling lives in [`crate::problems`].

mod board;
mod game;
mod piece;
mod square;
mod validate;
mod variant;

#[cfg(test)]
mod tests;

pub use board::{Board, Piece};
pub use game::{Game, PlayError};
pub use piece::{DIAGONAL, Movement, ORTHOGONAL, Offset, PawnMoves, PieceKind, symmetric};
pub use square::{ChessMove, ChessSquare, MAX_HEIGHT, MAX_WIDTH, ParseError};
pub use validate::{Invalid, Policy, check, valid_moves};
pub use variant::{CHESS_START, ChessVariant, ChessVariantError, KindId};
