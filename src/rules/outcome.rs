//! How a game ended.

use super::square::{Color, Square};
use std::fmt;

/// Why a game is over.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// A pawn reached its last rank, on this square.
    Promotion(Square),
    /// The loser's last pawn was captured.
    LastCapture,
    /// The side to move had no legal move and the rules make that a loss.
    NoMoves,
    /// The side to move had no legal move and the rules make that a draw.
    Stalemate,
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub reason: Reason,
}

impl Outcome {
    /// `white-wins`, `black-wins` or `draw`: the protocol's result word.
    pub fn result_word(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "white-wins",
            Some(Color::Black) => "black-wins",
            None => "draw",
        }
    }

    /// The PGN result: `1-0`, `0-1`, `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The reason as protocol tokens: `promotion e8`, `capture`, `no-moves`,
    /// `stalemate`.
    pub fn reason_tokens(&self) -> String {
        match self.reason {
            Reason::Promotion(sq) => format!("promotion {sq}"),
            Reason::LastCapture => "capture".into(),
            Reason::NoMoves => "no-moves".into(),
            Reason::Stalemate => "stalemate".into(),
        }
    }
}

/// A sentence for people: `white wins by promotion on e8`.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.winner, self.reason) {
            (Some(w), Reason::Promotion(sq)) => write!(f, "{w} wins by promotion on {sq}"),
            (Some(w), Reason::LastCapture) => {
                write!(f, "{w} wins by capturing the last {} pawn", !w)
            }
            (Some(w), Reason::NoMoves) => write!(f, "{w} wins: {} has no legal move", !w),
            (_, _) => write!(f, "draw by stalemate"),
        }
    }
}
