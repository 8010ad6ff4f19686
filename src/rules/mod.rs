//! The rules of pawn games: squares, bitboards, rule sets, positions, moves,
//! notation, position text, outcomes and perft. No I/O.

mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod outcome;
mod perft;
mod position;
mod ruleset;
mod square;

pub use game::Game;
pub use movegen::Targets;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use notation::{MoveError, parse_move, san, uci, uci_line};
pub use outcome::{Outcome, Reason};
pub use perft::{perft, perft_divide, perft_every_leaf};
pub use position::{Position, PositionError};
pub use ruleset::{Gaps, NoMoves, RuleSet, RuleSetError, Variant};
pub use square::{Bitboard, Color, ParseColorError, ParseSquareError, Square};
