//! Tuning the search's leaf evaluation on positions whose value the solver
//! proved (Texel's method): positions from seeded walks into every opening
//! are labelled win, draw or loss for the side to move (`make`), and the
//! evaluation's weights are fitted so that a logistic curve of the score
//! predicts the label (`fit`).
//!
//! One line per labelled position, the walk's number first so that a
//! resumed run knows what it has:
//!
//! ```text
//! 17 win 8/1pp1ppp1/8/p2p4/2P5/5P2/PP1PP2P/8 w -
//! ```

mod fit;
mod make;

pub use fit::{FitOptions, FitReport, fit};
pub use make::{MakeOptions, make_sample, walk};

/// How many terms the evaluation weighs.
pub use crate::eval::LEAF_TERMS;
/// The evaluation's terms by name, in [`fit`]'s order.
pub use crate::eval::term::NAMES as TERM_NAMES;

use crate::rules::{Position, RuleSet};
use crate::solver::Value;
use std::fmt;

/// A position with its proven value for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// The walk it came from.
    pub index: u64,
    pub value: Value,
    pub pos: Position,
}

impl fmt::Display for Sample {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.index, self.value, self.pos.fen())
    }
}

/// What a line of the file holds: a sample, or a walk that gave none (so
/// that a resumed run does not walk it again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    Sample(Sample),
    None(u64),
}

impl Line {
    pub fn index(&self) -> u64 {
        match self {
            Line::Sample(s) => s.index,
            Line::None(i) => *i,
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Sample(s) => s.fmt(f),
            Line::None(i) => write!(f, "{i} none"),
        }
    }
}

/// The comment a new file of samples starts with: what made it, so that a
/// resumed run can check it walks and labels the same way
/// ([`made_with`]).
pub fn header(walks: u64, o: &MakeOptions) -> String {
    format!(
        "# Positions labelled for tuning the leaf evaluation (see src/lab/tune/mod.rs).\n\
         # Made by: pawnrace tune make --walks {walks} --seed {} --nodes {} --out FILE\n\
         # (it resumes from this file; --shard I/N splits the work)\n",
        o.seed,
        o.limits.nodes.unwrap_or(0)
    )
}

/// The seed and node budget a file's [`header`] names, if it has one.
pub fn made_with(text: &str) -> Option<(u64, u64)> {
    let line = text.lines().find(|l| l.starts_with("# Made by:"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |flag: &str| -> Option<u64> {
        let i = words.iter().position(|w| *w == flag)?;
        words.get(i + 1)?.parse().ok()
    };
    Some((after("--seed")?, after("--nodes")?))
}

/// Reads a file of samples; `#` starts a comment line. The error names the
/// line.
pub fn parse(text: &str) -> Result<Vec<Line>, String> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(parse_line(line).map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

fn parse_line(line: &str) -> Result<Line, String> {
    let mut words = line.splitn(3, ' ');
    let index = words.next().unwrap_or_default();
    let index: u64 = index
        .parse()
        .map_err(|_| format!("'{index}' is not a walk number"))?;
    let value = words.next().ok_or("no value")?;
    if value == "none" {
        return Ok(Line::None(index));
    }
    let value: Value = value.parse()?;
    let fen = words.next().ok_or("no position")?;
    let pos = Position::from_fen(fen, RuleSet::PAWNRACE).map_err(|e| e.to_string())?;
    Ok(Line::Sample(Sample { index, value, pos }))
}

#[cfg(test)]
mod tests;
