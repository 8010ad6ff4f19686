//! Verdicts totalled per player: per game (by colour) and over many games
//! (by name).

use super::{GameAnalysis, Verdict};
use crate::rules::Color;

/// The first move that spoiled a player's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spoil {
    /// The game's number in the input (1-based).
    pub game: usize,
    pub ply: usize,
    /// `9. c5` or `9... c5`.
    pub label: String,
}

/// One player's verdicts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerdictCounts {
    pub moves: usize,
    pub kept: usize,
    pub forced: usize,
    pub spoiled: usize,
    pub chances: usize,
    pub unknown: usize,
    pub first_spoil: Option<Spoil>,
}

impl VerdictCounts {
    /// The verdicts of `side`'s moves in game number `game`.
    pub fn of(analysis: &GameAnalysis, side: Color, game: usize) -> VerdictCounts {
        let mut t = VerdictCounts::default();
        for r in analysis.moves.iter().filter(|r| r.side == side) {
            t.moves += 1;
            match r.verdict {
                Verdict::Kept => t.kept += 1,
                Verdict::Forced => t.forced += 1,
                Verdict::Chance => t.chances += 1,
                Verdict::Unknown => t.unknown += 1,
                Verdict::Spoiled => {
                    t.spoiled += 1;
                    if t.first_spoil.is_none() {
                        t.first_spoil = Some(Spoil {
                            game,
                            ply: r.ply,
                            label: r.label(),
                        });
                    }
                }
            }
        }
        t
    }

    /// Adds another tally; the earlier first spoil stays (tallies are added
    /// in game order).
    pub fn add(&mut self, other: &VerdictCounts) {
        self.moves += other.moves;
        self.kept += other.kept;
        self.forced += other.forced;
        self.spoiled += other.spoiled;
        self.chances += other.chances;
        self.unknown += other.unknown;
        if self.first_spoil.is_none() {
            self.first_spoil.clone_from(&other.first_spoil);
        }
    }
}

/// A player's totals over several games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerTotal {
    pub name: String,
    pub games: usize,
    pub tally: VerdictCounts,
}

/// Totals per player name, in the order players first appear.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub players: Vec<PlayerTotal>,
    /// Games analysed.
    pub games: usize,
    /// Games that could not be read.
    pub failed: usize,
}

impl Totals {
    /// Counts one analysed game: each player's tally under its name.
    pub fn add_game(&mut self, white: &str, black: &str, tallies: [&VerdictCounts; 2]) {
        self.games += 1;
        for (name, tally) in [(white, tallies[0]), (black, tallies[1])] {
            let at = match self.players.iter().position(|p| p.name == name) {
                Some(i) => i,
                None => {
                    self.players.push(PlayerTotal {
                        name: name.to_string(),
                        games: 0,
                        tally: VerdictCounts::default(),
                    });
                    self.players.len() - 1
                }
            };
            let p = &mut self.players[at];
            // A player on both sides of one game counts it once.
            if !(white == black && name == black) {
                p.games += 1;
            }
            p.tally.add(tally);
        }
    }
}
