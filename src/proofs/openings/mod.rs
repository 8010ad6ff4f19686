//! The value of every Pawn Race gap opening, proven by the solver and kept
//! as data (`data/openings.txt`, compiled in), with the driver that proves
//! them (`pawnrace solve --all-gaps`).
//!
//! One line per gap pair, white to move from the start:
//!
//! ```text
//! AH white 31 pv b2b4 g7g5 ... keep b2b4 c2c4
//! BC unknown not proven within the budget
//! ```
//!
//! `white`, `black` or `draw` is the proven result, then its distance in
//! plies (the winner's shortest win, the loser's longest loss; for a draw the
//! length of the line given), the line itself, and after `keep` white's first
//! moves that keep the result (winning or drawing moves; none are listed when
//! black wins). A move missing from `keep` was shown not to keep the result,
//! or could not be shown to within the budget: `keep?` lists those. All but
//! the gaps and the result word is read and written by [`super::lines`],
//! the book's format too; every move is checked legal from the opening.

mod prove;

pub use prove::{ProveLimits, Proved, Workers, canonical_gaps, prove, prove_all, settle};

use super::lines::{self, LineTable};
use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::{Proven, Source, Standing, Value};
use std::collections::BTreeMap;
use std::sync::OnceLock;

/// The table as committed; see the file's header for how it was made.
const BUILTIN: &str = include_str!("../../../data/openings.txt");

/// What is known of one opening: its proof, or a note on why there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opening {
    Proven(ProvenOpening),
    Unknown(String),
}

/// An opening's proof: its result, distance and optimal line for white (to
/// move at the start; the distance always proven), and which of white's
/// first moves keep that result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProvenOpening {
    pub proven: Proven,
    /// White's first moves that keep the result.
    pub keep: Vec<Move>,
    /// First moves whose effect was not settled within the budget.
    pub unsettled: Vec<Move>,
}

impl ProvenOpening {
    /// `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.proven.winner(Color::White)
    }

    /// The distance in plies, always proven for an opening.
    pub fn plies(&self) -> u32 {
        self.proven.plies.unwrap_or(self.proven.line.len() as u32)
    }

    /// The same proof on the board seen in a mirror between the first and
    /// last files: the same result, every move's files flipped.
    fn mirror_files(&self, width: u8) -> ProvenOpening {
        let flip = |moves: &[Move]| moves.iter().map(|m| m.mirror_files(width)).collect();
        ProvenOpening {
            proven: self.proven.mirror_files(width),
            keep: flip(&self.keep),
            unsettled: flip(&self.unsettled),
        }
    }
}

/// Every opening's proof, keyed by its gaps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Openings {
    entries: BTreeMap<(u8, u8), Opening>,
}

impl Openings {
    /// The compiled-in table. A table that does not parse counts as empty:
    /// the engine then just searches.
    pub fn builtin() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| Openings::parse(BUILTIN).unwrap_or_default())
    }

    pub fn get(&self, gaps: Gaps) -> Option<&Opening> {
        self.entries.get(&(gaps.white, gaps.black))
    }

    pub fn insert(&mut self, gaps: Gaps, proof: Opening) {
        self.entries.insert((gaps.white, gaps.black), proof);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Gaps, &Opening)> {
        self.entries
            .iter()
            .map(|(&(white, black), p)| (Gaps { white, black }, p))
    }

    /// Gaps that are best for black by the table: the fastest proven black
    /// win; failing that, once every pair is proven, a draw or else the
    /// slowest white win. `None` while the table cannot say.
    pub fn best_for_black(&self, width: u8) -> Option<Gaps> {
        let mut complete = true;
        let best = Gaps::all(width)
            .filter_map(|gaps| match self.get(gaps) {
                Some(Opening::Proven(p)) => {
                    let for_black = Value::for_side(p.winner(), Color::Black);
                    Some((Standing::new(for_black, Some(p.plies())), gaps))
                }
                _ => {
                    complete = false;
                    None
                }
            })
            // The first pair in text order wins a tie.
            .fold(
                None,
                |best: Option<(Standing, Gaps)>, (s, gaps)| match best {
                    Some((b, _)) if b >= s => best,
                    _ => Some((s, gaps)),
                },
            )?;
        (best.0.value == Value::Win || complete).then_some(best.1)
    }

    /// The proof of `pos` when it lies on the optimal line of a proven
    /// Pawn Race opening (its start, or any position the line passes
    /// through): the value for the side to move, the distance left and the
    /// rest of the line. Off the lines the table knows nothing.
    pub fn along_line(&self, pos: &Position) -> Option<Proven> {
        if *pos.rules() != RuleSet::PAWNRACE {
            return None;
        }
        self.iter().find_map(|(gaps, proof)| {
            let Opening::Proven(p) = proof else {
                return None;
            };
            let mut at = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
            let line = &p.proven.line;
            for (k, m) in line.iter().enumerate() {
                if at == *pos {
                    return Some(Proven {
                        value: Value::for_side(p.winner(), pos.side_to_move()),
                        plies: Some(p.plies().saturating_sub(k as u32)),
                        line: line[k..].to_vec(),
                        source: Source::Openings,
                    });
                }
                if !at.is_legal(*m) {
                    return None;
                }
                at = at.play_unchecked(*m);
            }
            None
        })
    }

    /// Reads the text form (see [`lines`]).
    pub fn parse(text: &str) -> Result<Openings, String> {
        lines::parse(text)
    }

    /// The text form, one line per opening in gap order, after `header`.
    pub fn to_text(&self, header: &str) -> String {
        lines::to_text(self, header)
    }
}

impl LineTable for Openings {
    fn read_entry(&mut self, line: &str) -> Result<(), String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let gaps: Gaps = words.first().ok_or("empty line")?.parse()?;
        let winner = match *words.get(1).ok_or("no result")? {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            "draw" => None,
            "unknown" => {
                self.insert(gaps, Opening::Unknown(words[2..].join(" ")));
                return Ok(());
            }
            other => return Err(format!("'{other}' is not a result")),
        };
        let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).map_err(|e| e.to_string())?;
        let proof = lines::read_proof(&words[2..], &start, &["keep", "keep?"])?;
        let [keep, unsettled]: [Vec<Move>; 2] = proof.lists.try_into().expect("two lists");
        let proven = ProvenOpening {
            proven: Proven {
                value: Value::for_side(winner, Color::White),
                plies: Some(
                    proof
                        .plies
                        .ok_or("an opening's distance is always proven")?,
                ),
                line: proof.pv,
                source: Source::Openings,
            },
            keep,
            unsettled,
        };
        self.insert(gaps, Opening::Proven(proven));
        Ok(())
    }

    fn entry_lines(&self) -> Vec<String> {
        self.iter()
            .map(|(gaps, proof)| match proof {
                Opening::Unknown(note) => format!("{gaps} unknown {note}"),
                Opening::Proven(p) => {
                    let mut line = format!("{gaps} {} ", p.winner().map_or("draw", Color::name));
                    let lists: [(&str, &[Move]); 2] = [("keep", &p.keep), ("keep?", &p.unsettled)];
                    lines::write_proof(&mut line, Some(p.plies()), &p.proven.line, &lists);
                    line
                }
            })
            .collect()
    }
}

fn mirror_proof(proof: &Opening, width: u8) -> Opening {
    match proof {
        Opening::Unknown(note) => Opening::Unknown(note.clone()),
        Opening::Proven(p) => Opening::Proven(p.mirror_files(width)),
    }
}

#[cfg(test)]
mod tests;
