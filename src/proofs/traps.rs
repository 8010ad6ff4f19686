//! Traps chosen ahead of time: for positions near the openings' start that
//! are proven lost (or drawn at best) for the side to move, the move that
//! gives a fallible opponent the best chance to go wrong, as
//! `pawnrace traps` chose it with a model opponent searching far longer
//! than a move's time allows (`data/traps.txt`, compiled in).
//!
//! Near the start, the proofs a trap needs take seconds each, so in play
//! the engine could only follow the tables' line there; yet that is where
//! engines err: against Fairy-Stockfish at 1 s a move, every proven result
//! it threw away it threw away in the first five plies.
//!
//! One line per position, its text, then its proven value for the side to
//! move, the trap, the model's reply to it that throws the opponent's
//! result away, and the model's levels that chose that error: the engine's
//! own search depths, or, after `by` and another engine's name, that
//! engine's node counts:
//!
//! ```text
//! 8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a5 reply b2b3 fools 9 10 11 12
//! 8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss trap a7a5 reply b2b3 fools 500000 1000000 by fairy-stockfish
//! ```
//!
//! What a reviewer re-proves: the position has the value written; for a
//! draw, the trap keeps it; the position after the reply is worth at least
//! a draw (after a loss) or a win (after a draw) to the side that set the
//! trap. A position stands for its file mirror too, where the mirror has no
//! line of its own: an engine's search is not the same in a mirrored
//! position (its moves are generated and ordered file by file), so a trap
//! chosen for the engine in one is written under that one, beside its
//! mirror's.
//!
//! A position where a model was asked and no move fooled it says so, with
//! `none` for the trap, so that a walk resumed from the table does not ask
//! again (an assessment takes minutes). Play reads only the traps; a trap
//! another model chose there stands, as does the model's own where it was
//! asked again in more tries (`traps --again-below`) and fooled nowhere:
//!
//! ```text
//! 8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss none by fairy-stockfish-in-game
//! ```
//!
//! Where no move fools a model at once, a move can still lead to a trap:
//! the model's reply to it (not an error) reaches a position where the
//! same model's trap is written. Such a lead-in says `lead` for `trap`,
//! the reply the model played, and the levels the trap after it fools
//! (`traps --lead-ins`); play reads it as a trap, its move to play. Leads
//! are set in lost positions only, where every move keeps the value:
//!
//! ```text
//! 8/pp1ppppp/8/8/2P5/8/1P1PPPPP/8 b - loss lead a7a5 reply b2b3 fools 1 2 by fairy-stockfish-in-game
//! ```
//!
//! A trap can also be learned from the opponent's recorded games rather
//! than chosen with a model of it: the move that turned clearly more of
//! them than the table's (`clients/analysis/record.py`). Its model is
//! `<opponent>-record`, its reply the one the opponent erred with most
//! often there, its levels the meetings in the record it erred at; a walk
//! never replaces it:
//!
//! ```text
//! 8/1ppppppp/8/8/P7/8/1PPPPP1P/8 b - loss trap d7d5 reply f2f4 fools 1 2 3 by fairy-stockfish-1s-record
//! ```

use crate::rules::{Move, Position, RuleSet};
use crate::solver::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The table as committed; see the file's header for how it was made.
const BUILTIN: &str = include_str!("../../data/traps.txt");

/// A trap set in one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trap {
    /// The position's proven value for the side to move: a loss or a draw.
    pub value: Value,
    /// The move to play.
    pub mv: Move,
    /// The model opponent's reply to it, proven to throw its result away
    /// (for a lead-in, the reply it played, into a position with its trap).
    pub reply: Move,
    /// The model's levels that chose that reply: its search depths, or
    /// node counts for another engine (for a lead-in, the levels the trap
    /// after the reply fools).
    pub fools: Vec<u32>,
    /// The model: `pawnrace` (the engine's own search), or the engine named.
    pub by: String,
    /// A lead-in: the move leads to the model's trap a move later rather
    /// than fooling it at once.
    pub lead: bool,
}

/// The model named when a line names none: the engine's own search.
pub const OWN_MODEL: &str = "pawnrace";

/// How a trap learned from an opponent's recorded games names its model:
/// `<opponent>-record` (`clients/analysis/record.py`).
pub const RECORD_SUFFIX: &str = "-record";

impl Trap {
    /// Whether the opponent's own recorded games chose this trap, not a
    /// model of it: a walk keeps it (the record outweighs any model).
    pub fn learned(&self) -> bool {
        self.by.ends_with(RECORD_SUFFIX)
    }

    fn mirror_files(&self, width: u8) -> Trap {
        Trap {
            mv: self.mv.mirror_files(width),
            reply: self.reply.mirror_files(width),
            ..self.clone()
        }
    }
}

/// The traps, keyed by position (each also standing for its mirror where
/// the mirror has no trap of its own).
#[derive(Clone, Debug, Default)]
pub struct Traps {
    /// The positions in the order they were added.
    written: Vec<Position>,
    index: HashMap<Position, Trap>,
    /// The positions where a model fooled at no move: its value there, and
    /// the models.
    nothing: HashMap<Position, (Value, Vec<String>)>,
}

impl Traps {
    /// The compiled-in table. A table that does not read counts as empty
    /// (a test reads it): the engine then plays as it would without it.
    pub fn builtin() -> &'static Traps {
        static TABLE: OnceLock<Traps> = OnceLock::new();
        TABLE.get_or_init(|| Traps::parse(BUILTIN).unwrap_or_default())
    }

    /// The trap written for `pos`, else its file mirror's, mirrored back.
    pub fn get(&self, pos: &Position) -> Option<Trap> {
        if let Some(trap) = self.index.get(pos) {
            return Some(trap.clone());
        }
        let mirrored = self.index.get(&pos.mirror_files())?;
        Some(mirrored.mirror_files(pos.rules().width()))
    }

    /// The trap written under `pos` itself (not its mirror's).
    pub fn written_for(&self, pos: &Position) -> Option<&Trap> {
        self.index.get(pos)
    }

    /// Adds `pos`'s trap unless the table has one written under `pos`.
    pub fn insert(&mut self, pos: Position, trap: Trap) {
        if !self.index.contains_key(&pos) {
            self.written.push(pos);
            self.index.insert(pos, trap);
        }
    }

    /// Sets `pos`'s trap, replacing the one written under `pos`; a trap
    /// its mirror has stays, for the mirror.
    pub fn replace(&mut self, pos: Position, trap: Trap) {
        if self.index.insert(pos, trap).is_none() {
            self.written.push(pos);
        }
    }

    /// Sets `pos`'s trap as [`Traps::replace`] does, but first writes the
    /// trap it replaces under the file mirror where the mirror read it (had
    /// no line of its own): a lead-in hangs on the model's reply in this
    /// position, which a mirror does not promise, so the mirror goes on
    /// reading what it read.
    pub fn replace_here(&mut self, pos: Position, trap: Trap) {
        let mirror = pos.mirror_files();
        let kept = self
            .index
            .get(&pos)
            .map(|old| old.mirror_files(pos.rules().width()));
        if let Some(kept) = kept
            && mirror != pos
        {
            self.insert(mirror, kept);
        }
        self.replace(pos, trap);
    }

    /// Whether `model` was asked in `pos` and no move fooled it.
    pub fn found_nothing(&self, pos: &Position, model: &str) -> bool {
        self.nothing
            .get(pos)
            .is_some_and(|(_, models)| models.iter().any(|m| m == model))
    }

    /// Notes that no move in `pos` (worth `value` to the side to move)
    /// fooled `model`.
    pub fn note_nothing(&mut self, pos: Position, value: Value, model: &str) {
        if self.found_nothing(&pos, model) {
            return;
        }
        self.nothing
            .entry(pos)
            .or_insert_with(|| (value, Vec::new()))
            .1
            .push(model.to_string());
    }

    /// Takes in what `shards` (walks resumed from this table, each a copy
    /// of it grown apart) changed: a trap a shard set or replaced replaces
    /// this table's, and every `none` note is kept. Two shards that set
    /// different traps in one position are an error, naming it, and leave
    /// the table as it was. Returns the traps set.
    pub fn merge(&mut self, shards: &[Traps]) -> Result<usize, String> {
        // The table itself is not touched until every shard has been read:
        // on an error it is as it was.
        let mut set: HashMap<Position, Trap> = HashMap::new();
        for shard in shards {
            for (pos, trap) in shard.entries() {
                if self.written_for(pos) == Some(trap) {
                    continue;
                }
                match set.get(pos) {
                    Some(other) if other != trap => {
                        return Err(format!("shards set different traps in {}", pos.fen()));
                    }
                    Some(_) => {}
                    None => {
                        set.insert(*pos, trap.clone());
                    }
                }
            }
        }
        for shard in shards {
            for (pos, (value, models)) in &shard.nothing {
                for model in models {
                    self.note_nothing(*pos, *value, model);
                }
            }
        }
        let count = set.len();
        for (pos, trap) in set {
            self.replace(pos, trap);
        }
        Ok(count)
    }

    /// The traps' count (positions noted `none` are not counted).
    pub fn len(&self) -> usize {
        self.written.len()
    }

    pub fn is_empty(&self) -> bool {
        self.written.is_empty()
    }

    /// The positions written and their traps, in the order they were added.
    pub fn entries(&self) -> impl Iterator<Item = (&Position, &Trap)> {
        self.written.iter().map(|p| (p, &self.index[p]))
    }

    /// Reads the text form; errors name the line.
    pub fn parse(text: &str) -> Result<Traps, String> {
        let mut traps = Traps::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match read_line(line).map_err(|e| format!("line {}: {e}", n + 1))? {
                Line::Trap(pos, trap) => traps.insert(pos, trap),
                Line::Nothing(pos, value, model) => traps.note_nothing(pos, value, &model),
            }
        }
        Ok(traps)
    }

    /// The text form: `header`'s lines as comments, then one line per
    /// position, sorted by its text.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let mut lines: Vec<String> = self.entries().map(|(p, t)| write_line(p, t)).collect();
        for (pos, (value, models)) in &self.nothing {
            for model in models {
                let mut line = format!("{} {value} none", pos.fen());
                if model != OWN_MODEL {
                    let _ = write!(line, " by {model}");
                }
                lines.push(line);
            }
        }
        lines.sort_unstable();
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }
}

fn write_line(pos: &Position, trap: &Trap) -> String {
    let mut line = format!(
        "{} {} {} {} reply {} fools",
        pos.fen(),
        trap.value,
        if trap.lead { "lead" } else { "trap" },
        trap.mv,
        trap.reply
    );
    for d in &trap.fools {
        let _ = write!(line, " {d}");
    }
    if trap.by != OWN_MODEL {
        let _ = write!(line, " by {}", trap.by);
    }
    line
}

const WANT: &str = "want: <position text> loss|draw trap <move> reply <move> fools <levels> [by <engine>], \
     <position text> loss lead <move> reply <move> fools <levels> [by <engine>], \
     or <position text> loss|draw none [by <engine>]";

/// One line of the table: a trap, or a model no move fooled.
enum Line {
    Trap(Position, Trap),
    Nothing(Position, Value, String),
}

fn read_line(line: &str) -> Result<Line, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let nothing = words.len() >= 5 && words[4] == "none";
    let lead = words.len() > 4 && words[4] == "lead";
    let trap = words.len() >= 10
        && (words[4] == "trap" || lead)
        && words[6] == "reply"
        && words[8] == "fools";
    if !nothing && !trap {
        return Err(WANT.into());
    }
    let pos =
        Position::from_fen(&words[..3].join(" "), RuleSet::PAWNRACE).map_err(|e| e.to_string())?;
    let value: Value = words[3].parse()?;
    if value == Value::Win {
        return Err("a won position sets no trap".into());
    }
    if lead && value != Value::Loss {
        return Err("a lead-in is set in a lost position only".into());
    }
    if nothing {
        let model = match &words[5..] {
            [] => OWN_MODEL,
            ["by", name] => name,
            _ => return Err(WANT.into()),
        };
        return Ok(Line::Nothing(pos, value, model.to_string()));
    }
    let mv: Move = words[5].parse()?;
    if !pos.is_legal(mv) {
        return Err(format!("{mv} is not legal in {}", pos.fen()));
    }
    let after = pos.play_unchecked(mv);
    let reply: Move = words[7].parse()?;
    if !after.is_legal(reply) {
        return Err(format!("{reply} is not legal after {mv}"));
    }
    let (levels, by) = match words[9..].iter().position(|&w| w == "by") {
        Some(i) => match &words[9 + i + 1..] {
            [name] => (&words[9..9 + i], name.to_string()),
            _ => return Err("'by' takes one engine name".into()),
        },
        None => (&words[9..], OWN_MODEL.to_string()),
    };
    let fools = levels
        .iter()
        .map(|w| match w.parse::<u32>() {
            Ok(d) if d > 0 => Ok(d),
            _ => Err(format!("'{w}' is not a search depth or node count")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let trap = Trap {
        value,
        mv,
        reply,
        fools,
        by,
        lead,
    };
    Ok(Line::Trap(pos, trap))
}

#[cfg(test)]
mod tests;
