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
//! or could not be shown to within the budget: `keep?` lists those.

mod prove;

pub use prove::{ProveLimits, Proved, canonical_gaps, prove, prove_all, settle};

use super::solver::Value;
use crate::rules::{Color, Gaps, Move};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The table as committed; see the file's header for how it was made.
const BUILTIN: &str = include_str!("../../../data/openings.txt");

/// What is known of one opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Proven(Proven),
    Unknown(String),
}

/// An opening's proven result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proven {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub plies: u32,
    pub line: Vec<Move>,
    /// White's first moves that keep the result.
    pub keep: Vec<Move>,
    /// First moves whose effect was not settled within the budget.
    pub unsettled: Vec<Move>,
}

impl Proven {
    /// The same proof on the board seen in a mirror between the first and
    /// last files: the same result, every move's files flipped.
    fn mirror_files(&self, width: u8) -> Proven {
        let flip = |moves: &[Move]| moves.iter().map(|m| m.mirror_files(width)).collect();
        Proven {
            winner: self.winner,
            plies: self.plies,
            line: flip(&self.line),
            keep: flip(&self.keep),
            unsettled: flip(&self.unsettled),
        }
    }
}

/// Every opening's proof, keyed by its gaps.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Openings {
    entries: BTreeMap<(u8, u8), Proof>,
}

impl Openings {
    /// The compiled-in table. A table that does not parse counts as empty:
    /// the engine then just searches.
    pub fn builtin() -> &'static Openings {
        static TABLE: OnceLock<Openings> = OnceLock::new();
        TABLE.get_or_init(|| Openings::parse(BUILTIN).unwrap_or_default())
    }

    pub fn get(&self, gaps: Gaps) -> Option<&Proof> {
        self.entries.get(&(gaps.white, gaps.black))
    }

    pub fn insert(&mut self, gaps: Gaps, proof: Proof) {
        self.entries.insert((gaps.white, gaps.black), proof);
    }

    pub fn iter(&self) -> impl Iterator<Item = (Gaps, &Proof)> {
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
                Some(Proof::Proven(p)) => {
                    let rank = match p.winner {
                        Some(Color::Black) => (2, -(p.plies as i64)),
                        None => (1, 0),
                        Some(Color::White) => (0, p.plies as i64),
                    };
                    Some((rank, gaps))
                }
                _ => {
                    complete = false;
                    None
                }
            })
            // The first pair in text order wins a tie.
            .fold(
                None,
                |best: Option<((i32, i64), Gaps)>, (rank, gaps)| match best {
                    Some((r, _)) if r >= rank => best,
                    _ => Some((rank, gaps)),
                },
            )?;
        (best.0.0 == 2 || complete).then_some(best.1)
    }

    /// Reads the text form; `#` starts a comment line.
    pub fn parse(text: &str) -> Result<Openings, String> {
        let mut table = Openings::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (gaps, proof) = parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?;
            table.insert(gaps, proof);
        }
        Ok(table)
    }

    /// The text form, one line per opening in gap order, after `header`.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        for (gaps, proof) in self.iter() {
            let _ = writeln!(out, "{gaps} {}", format_proof(proof));
        }
        out
    }
}

fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn format_proof(proof: &Proof) -> String {
    match proof {
        Proof::Unknown(note) => format!("unknown {note}"),
        Proof::Proven(p) => {
            let result = p.winner.map_or("draw", Color::name);
            let mut s = format!("{result} {} pv {}", p.plies, moves_text(&p.line));
            if !p.keep.is_empty() {
                s.push_str(&format!(" keep {}", moves_text(&p.keep)));
            }
            if !p.unsettled.is_empty() {
                s.push_str(&format!(" keep? {}", moves_text(&p.unsettled)));
            }
            s
        }
    }
}

fn parse_line(line: &str) -> Result<(Gaps, Proof), String> {
    let mut words = line.split_whitespace();
    let gaps: Gaps = words.next().ok_or("empty line")?.parse()?;
    let result = words.next().ok_or("no result")?;
    let winner = match result {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        "draw" => None,
        "unknown" => return Ok((gaps, Proof::Unknown(words.collect::<Vec<_>>().join(" ")))),
        other => return Err(format!("'{other}' is not a result")),
    };
    let plies = words
        .next()
        .and_then(|p| p.parse().ok())
        .ok_or("no distance in plies")?;
    let (mut line, mut keep, mut unsettled) = (Vec::new(), Vec::new(), Vec::new());
    let mut list = None;
    for word in words {
        match word {
            "pv" => list = Some(&mut line),
            "keep" => list = Some(&mut keep),
            "keep?" => list = Some(&mut unsettled),
            text => {
                let m: Move = text.parse()?;
                list.as_mut().ok_or("a move before pv")?.push(m);
            }
        }
    }
    Ok((
        gaps,
        Proof::Proven(Proven {
            winner,
            plies,
            line,
            keep,
            unsettled,
        }),
    ))
}

fn mirror_proof(proof: &Proof, width: u8) -> Proof {
    match proof {
        Proof::Unknown(note) => Proof::Unknown(note.clone()),
        Proof::Proven(p) => Proof::Proven(p.mirror_files(width)),
    }
}

/// The winner, seen from white to move at the start.
fn winner_of(value: Value, side: Color) -> Option<Color> {
    match value {
        Value::Win => Some(side),
        Value::Loss => Some(!side),
        Value::Draw => None,
    }
}

#[cfg(test)]
mod tests;
