//! A game in progress: a start position and the moves played from it.

use super::moves::Move;
use super::outcome::Outcome;
use super::position::Position;
use super::ruleset::{Gaps, RuleSet};

#[derive(Clone, Debug)]
pub struct Game {
    gaps: Option<Gaps>,
    /// The start first; one more after every move.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    pub fn new(start: Position, gaps: Option<Gaps>) -> Game {
        Game {
            gaps,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    pub fn rules(&self) -> &RuleSet {
        self.start().rules()
    }

    pub fn gaps(&self) -> Option<Gaps> {
        self.gaps
    }

    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.position().outcome()
    }

    /// Plays `m`, which the caller has checked is legal.
    pub fn play(&mut self, m: Move) {
        let next = self.position().play_unchecked(m);
        self.positions.push(next);
        self.moves.push(m);
    }

    /// Takes back the last move, if there is one.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }
}
