//! What a match has counted so far: results by colour and by pair,
//! adjudications, faults and move times.

use super::elo::{Pentanomial, Score};
use super::sprt::Sprt;
use crate::rules::Color;
use crate::tournament::game::{GameRecord, Termination};
use crate::tournament::reply::FaultKind;
use std::collections::BTreeMap;
use std::time::Duration;

/// Thinking times of one engine's moves.
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
pub struct MoveTimes {
    pub moves: usize,
    pub total: Duration,
    pub max: Duration,
}

impl MoveTimes {
    pub fn average(&self) -> Duration {
        self.total / (self.moves.max(1) as u32)
    }
}

/// Everything counted so far, from engine A's point of view where a point
/// of view is needed. Engines are indexed 0 (A) and 1 (B).
#[derive(Clone, Default, PartialEq, Debug)]
pub struct MatchTally {
    pub score: Score,
    /// A's results with white and with black.
    pub by_colour: [Score; 2],
    pub adjudicated: usize,
    /// Faults per engine, in [`FaultKind::ALL`] order.
    pub faults: [[usize; FaultKind::ALL.len()]; 2],
    pub times: [MoveTimes; 2],
    /// Completed pairs (rounds 1-2, 3-4, ...), for the SPRT.
    pub pairs: Pentanomial,
    /// A's points in pairs with one game finished, by pair.
    half_pairs: BTreeMap<usize, u8>,
}

impl MatchTally {
    pub fn games(&self) -> usize {
        self.score.games()
    }

    /// Counts the game of schedule round `round` (from 1), in which engine
    /// `white` had white. Rounds 2k-1 and 2k are a pair: one opening, both
    /// colours.
    pub fn add(&mut self, round: usize, white: usize, record: &GameRecord) {
        let a_colour = if white == 0 {
            Color::White
        } else {
            Color::Black
        };
        // A's points, in half points.
        let halves = match record.winner {
            None => 1,
            Some(w) if w == a_colour => 2,
            Some(_) => 0,
        };
        for score in [&mut self.score, &mut self.by_colour[a_colour.index()]] {
            match halves {
                1 => score.draws += 1,
                2 => score.wins += 1,
                _ => score.losses += 1,
            }
        }
        let pair = round.saturating_sub(1) / 2;
        match self.half_pairs.remove(&pair) {
            Some(first) => self.pairs.counts[usize::from(first + halves)] += 1,
            None => {
                self.half_pairs.insert(pair, halves);
            }
        }
        match &record.termination {
            Termination::Adjudicated { .. } => self.adjudicated += 1,
            Termination::Fault { side, fault } => {
                let engine = engine_of(white, *side);
                let kind = FaultKind::ALL
                    .iter()
                    .position(|k| *k == fault.kind)
                    .expect("every kind is listed");
                self.faults[engine][kind] += 1;
            }
            Termination::Rules(_) => {}
        }
        for colour in Color::BOTH {
            let t = &mut self.times[engine_of(white, colour)];
            for &d in &record.move_times[colour.index()] {
                t.moves += 1;
                t.total += d;
                t.max = t.max.max(d);
            }
        }
    }

    pub fn fault_total(&self, engine: usize) -> usize {
        self.faults[engine].iter().sum()
    }

    /// The SPRT's log-likelihood ratio, from the completed pairs.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        sprt.llr_pairs(&self.pairs)
    }
}

/// The engine that played `colour` when engine `white` had white.
pub fn engine_of(white: usize, colour: Color) -> usize {
    match colour {
        Color::White => white,
        Color::Black => 1 - white,
    }
}
