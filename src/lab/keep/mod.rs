//! The keep-rate benchmark: does the engine keep a proven value?
//!
//! A *case* is a Pawn Race position a few plies into an opening, off the
//! openings table's line, where the side to move holds a proven win or
//! draw, with every legal move labelled by the solver: `keep` (the child
//! still gives the mover that value) or `spoil` (it does not). The engine
//! is handed each position with a fresh table and a move time; its move
//! either keeps the value or spoils it. Losing positions are left out:
//! every move keeps a loss.
//!
//! Cases come from seeded random walks (both sides play uniformly random
//! legal moves), so the set samples "any position" rather than the
//! positions the engine's own books lead to. One line per case:
//!
//! ```text
//! GE b0 moves h2h4 win keep d7d5 spoil a7a5 a7a6 ...
//! GE w1 none
//! ```
//!
//! The gaps, the slot (side to move and sample number), the moves from the
//! opening's start, the value for the side to move, then the labelled
//! moves; `unknown` lists moves the budget could not settle. A `none` line
//! records a slot where no sampled walk gave a win or draw to the side to
//! move within the attempts allowed, so a resumed run does not retry it.

mod make;
mod trial;

pub use make::{MakeOptions, label_moves, make_slot, slots, unproven_within};
pub use trial::{KeepRate, Think, Trial, Verdict, trial};

use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::Value;
use std::fmt;

/// One labelled position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    pub gaps: Gaps,
    pub slot: Slot,
    /// The moves from the opening's start to the position.
    pub moves: Vec<Move>,
    /// For the side to move: a win or a draw.
    pub value: Value,
    pub keep: Vec<Move>,
    pub spoil: Vec<Move>,
    /// Moves the labelling budget could not settle.
    pub unknown: Vec<Move>,
}

/// Which sample of an opening a case is: the side to move and a number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slot {
    pub side: Color,
    pub index: u32,
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = if self.side == Color::White { 'w' } else { 'b' };
        write!(f, "{c}{}", self.index)
    }
}

impl std::str::FromStr for Slot {
    type Err = String;
    fn from_str(s: &str) -> Result<Slot, String> {
        let side = match s.as_bytes().first() {
            Some(b'w') => Color::White,
            Some(b'b') => Color::Black,
            _ => return Err(format!("'{s}' is not a slot (w0, b1, ...)")),
        };
        let index = s[1..]
            .parse()
            .map_err(|_| format!("'{s}' is not a slot (w0, b1, ...)"))?;
        Ok(Slot { side, index })
    }
}

impl Case {
    /// The position the case's moves lead to.
    pub fn position(&self) -> Position {
        replay(self.gaps, &self.moves).expect("a parsed case replays")
    }

    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}

/// A line of the set: a labelled case, or a slot that gave none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Case(Case),
    None(Gaps, Slot),
}

impl Entry {
    pub fn key(&self) -> (Gaps, Slot) {
        match self {
            Entry::Case(c) => (c.gaps, c.slot),
            Entry::None(g, s) => (*g, *s),
        }
    }
}

fn replay(gaps: Gaps, moves: &[Move]) -> Result<Position, String> {
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).map_err(|e| e.to_string())?;
    start.play_line(moves).map_err(|e| e.to_string())
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = match self {
            Entry::None(g, s) => return write!(f, "{g} {s} none"),
            Entry::Case(c) => c,
        };
        let mut words = vec![c.gaps.to_string(), c.slot.to_string(), "moves".into()];
        let mut list = |name: &str, moves: &[Move]| {
            if !name.is_empty() {
                words.push(name.to_string());
            }
            words.extend(moves.iter().map(Move::to_string));
        };
        list("", &c.moves);
        list(c.value.word(), &[]);
        list("keep", &c.keep);
        list("spoil", &c.spoil);
        if !c.unknown.is_empty() {
            list("unknown", &c.unknown);
        }
        f.write_str(&words.join(" "))
    }
}

/// Reads a set; `#` starts a comment line.
pub fn parse_set(text: &str) -> Result<Vec<Entry>, String> {
    text.lines()
        .enumerate()
        .map(|(n, l)| (n, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| parse_entry(l).map_err(|e| format!("line {}: {e}", n + 1)))
        .collect()
}

fn parse_entry(line: &str) -> Result<Entry, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [gaps, slot, rest @ ..] = words.as_slice() else {
        return Err("want: <gaps> <slot> moves ... | <gaps> <slot> none".into());
    };
    let gaps: Gaps = gaps.parse().map_err(|e: String| e.to_string())?;
    let slot: Slot = slot.parse()?;
    if rest == ["none"] {
        return Ok(Entry::None(gaps, slot));
    }
    if rest.first() != Some(&"moves") {
        return Err("want 'moves' or 'none' after the slot".into());
    }
    let mut lists: [Vec<Move>; 4] = Default::default();
    let mut current = 0;
    let mut value = None;
    for w in &rest[1..] {
        match *w {
            "win" | "draw" if value.is_none() => {
                value = Some(if *w == "win" { Value::Win } else { Value::Draw });
                current = usize::MAX;
            }
            "keep" if value.is_some() => current = 1,
            "spoil" if value.is_some() => current = 2,
            "unknown" if value.is_some() => current = 3,
            m => {
                let list = lists
                    .get_mut(current)
                    .ok_or_else(|| format!("'{m}' where keep, spoil or unknown belongs"))?;
                list.push(m.parse()?);
            }
        }
    }
    let value = value.ok_or("no value (win or draw)")?;
    let [moves, keep, spoil, unknown] = lists;
    let pos = replay(gaps, &moves)?;
    if pos.side_to_move() != slot.side {
        return Err(format!("slot {slot} but {:?} to move", pos.side_to_move()));
    }
    let mut labelled: Vec<Move> = keep.iter().chain(&spoil).chain(&unknown).copied().collect();
    let mut legal: Vec<Move> = pos.legal_moves().to_vec();
    labelled.sort_by_key(|m| (m.from.index(), m.to.index()));
    legal.sort_by_key(|m| (m.from.index(), m.to.index()));
    if labelled != legal {
        return Err("the labelled moves are not exactly the legal moves".into());
    }
    if keep.is_empty() {
        return Err("no move keeps the value".into());
    }
    Ok(Entry::Case(Case {
        gaps,
        slot,
        moves,
        value,
        keep,
        spoil,
        unknown,
    }))
}

#[cfg(test)]
mod tests;
