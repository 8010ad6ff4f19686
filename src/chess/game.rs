//! A game in progress: a variant, its board, the side to move, and the
//! policy saying which moves are checked. What a session offers a user.

use super::board::{Board, Piece};
use super::square::{ChessMove, ParseError};
use super::validate::{self, Invalid, Policy};
use super::variant::ChessVariant;
use crate::rules::Color;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    variant: ChessVariant,
    board: Board,
    side: Color,
    policy: Policy,
}

/// Why a move given as text was not made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The text is not a move.
    Parse(ParseError),
    /// It is a move, but not one that may be made.
    Invalid(ChessMove, Invalid),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Parse(e) => e.fmt(f),
            PlayError::Invalid(m, reason) => write!(f, "{m}: {reason}"),
        }
    }
}

impl std::error::Error for PlayError {}

impl Game {
    /// The variant's start, white to move, every move checked.
    pub fn new(variant: ChessVariant) -> Game {
        Game::with_policy(variant, Policy::All)
    }

    pub fn with_policy(variant: ChessVariant, policy: Policy) -> Game {
        Game {
            board: variant.start().clone(),
            variant,
            side: Color::White,
            policy,
        }
    }

    /// The same game with `side` to move: for positions set up by hand,
    /// where black may be the one to move.
    pub fn with_side_to_move(mut self, side: Color) -> Game {
        self.side = side;
        self
    }

    /// Standard chess as the chess validator plays it.
    pub fn chess() -> Game {
        Game::new(ChessVariant::chess())
    }

    pub fn variant(&self) -> &ChessVariant {
        &self.variant
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    /// Whether the side to move may make `m`, and why not.
    pub fn check(&self, m: ChessMove) -> Result<(), Invalid> {
        validate::check(&self.variant, &self.board, self.side, self.policy, m)
    }

    /// Makes `m` if it may be made, and passes the turn; returns the piece it
    /// took. A refused move leaves the game as it was, the same side to move.
    pub fn play(&mut self, m: ChessMove) -> Result<Option<Piece>, Invalid> {
        self.check(m)?;
        let taken = self.board.make_move(m);
        self.side = !self.side;
        Ok(taken)
    }

    /// [`Game::play`] for a move as text, `e2e4` or `e2 e4`.
    pub fn play_text(&mut self, text: &str) -> Result<ChessMove, PlayError> {
        let m: ChessMove = text.parse().map_err(PlayError::Parse)?;
        self.play(m)
            .map_err(|reason| PlayError::Invalid(m, reason))?;
        Ok(m)
    }

    /// The moves the side to move may make, by origin square then target,
    /// each from the bottom rank up.
    pub fn valid_moves(&self) -> Vec<ChessMove> {
        validate::valid_moves(&self.variant, &self.board, self.side, self.policy)
    }

    /// The board in the chess validator's form (see [`Board::render`]).
    pub fn render(&self) -> String {
        self.board.render(&self.variant)
    }
}
