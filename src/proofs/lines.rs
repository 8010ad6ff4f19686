//! The line-table text format shared by the openings table and the book:
//! `#` comment lines (the header) first, then one line per entry,
//!
//! ```text
//! <key> <result> <plies> pv <moves> [<label> <moves>]...
//! ```
//!
//! The key (gaps, a position's text) and the result word (`white`, `win`,
//! ...) are each table's own; the rest is read and written here: the
//! distance in plies (`?` where only the result and the line's first move
//! are proven, not the distance), the line after `pv` (each move checked legal as it is
//! played from the entry's position) and any labelled lists of moves from
//! that position (the openings' `keep` and `keep?`). A table loads with
//! [`parse`] and saves with [`to_text`]; what was loaded saves back
//! byte for byte, header included ([`header`]).

use crate::rules::{Move, Position};
use std::fmt::Write as _;

/// A table in this format: how one entry line is read and how the entries
/// are written, in order.
pub trait LineTable: Default {
    /// Makes room for `entries` more entries before they are read.
    fn reserve(&mut self, _entries: usize) {}
    /// Adds the entry `line` (trimmed; not blank, not a comment) holds.
    fn read_entry(&mut self, line: &str) -> Result<(), String>;
    /// Each entry's line, without its newline, in the order they are saved.
    fn entry_lines(&self) -> Vec<String>;
}

/// Reads a table; errors name the line they are on.
pub fn parse<T: LineTable>(text: &str) -> Result<T, String> {
    let mut table = T::default();
    let entry_lines = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .count();
    table.reserve(entry_lines);
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        table
            .read_entry(line)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
    }
    Ok(table)
}

/// The text form: `header`'s lines as comments, then one line per entry.
pub fn to_text<T: LineTable>(table: &T, header: &str) -> String {
    let mut out = String::new();
    for line in header.lines() {
        let _ = writeln!(out, "# {line}");
    }
    for line in table.entry_lines() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The header `text` was written with: its comment lines without `# `.
pub fn header(text: &str) -> String {
    text.lines()
        .filter_map(|l| l.strip_prefix("# ").or_else(|| l.strip_prefix('#')))
        .collect::<Vec<_>>()
        .join("\n")
}

/// What follows an entry's result word, as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofWords {
    /// `None` for `?`: the distance was not proven.
    pub plies: Option<u32>,
    pub pv: Vec<Move>,
    /// One list per label asked for, empty when the line has none.
    pub lists: Vec<Vec<Move>>,
}

/// Reads `<plies> pv <moves> [<label> <moves>]...` from `words`: the line is
/// played from `from`, every listed move must be legal in `from`, and only
/// the labels in `labels` may appear.
pub fn read_proof(words: &[&str], from: &Position, labels: &[&str]) -> Result<ProofWords, String> {
    let plies_word = words.first().ok_or("no distance in plies")?;
    let plies = match *plies_word {
        "?" => None,
        word => Some(
            word.parse()
                .map_err(|_| format!("'{word}' is not a distance in plies"))?,
        ),
    };
    match words.get(1) {
        Some(&"pv") => {}
        Some(other) => return Err(format!("'{other}' where pv belongs")),
        None => return Err("no pv".into()),
    }
    let mut pv = Vec::new();
    let mut lists = vec![Vec::new(); labels.len()];
    let mut list: Option<usize> = None;
    for &word in &words[2..] {
        if let Some(i) = labels.iter().position(|l| *l == word) {
            list = Some(i);
            continue;
        }
        let m: Move = word.parse()?;
        match list {
            None => pv.push(m),
            Some(i) => {
                if !from.is_legal(m) {
                    return Err(format!("{m} is not legal in {}", from.fen()));
                }
                lists[i].push(m);
            }
        }
    }
    if pv.is_empty() {
        return Err("an empty line".into());
    }
    from.play_line(&pv).map_err(|e| e.to_string())?;
    Ok(ProofWords { plies, pv, lists })
}

/// Writes `<plies> pv <moves>` and each non-empty labelled list after it.
pub fn write_proof(out: &mut String, plies: Option<u32>, pv: &[Move], lists: &[(&str, &[Move])]) {
    match plies {
        Some(plies) => {
            let _ = write!(out, "{plies} pv");
        }
        None => out.push_str("? pv"),
    }
    write_moves(out, pv);
    for (label, moves) in lists {
        if !moves.is_empty() {
            let _ = write!(out, " {label}");
            write_moves(out, moves);
        }
    }
}

fn write_moves(out: &mut String, moves: &[Move]) {
    for m in moves {
        let _ = write!(out, " {m}");
    }
}
