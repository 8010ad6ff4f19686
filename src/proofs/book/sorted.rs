//! The compiled-in book, looked up where it lies.
//!
//! The book's entry lines are sorted by the position's text
//! ([`super::Book::to_text`] writes them so), so a lookup is a binary search
//! over the text itself: nothing is read at start, and only the line found
//! is parsed. Parsing every line into a table took some 40 ms for 44,500
//! positions, and the book grew several times over.

use super::{position_text, read_line};
use crate::rules::{Position, RuleSet};
use crate::solver::{Proven, Value};
use std::cmp::Ordering;

/// A book's text, its entry lines sorted by position text.
#[derive(Copy, Clone, Debug)]
pub struct Sorted<'a> {
    /// The entry lines: the text after its `#` header.
    body: &'a str,
}

impl<'a> Sorted<'a> {
    /// The book `text`, whose entry lines (after its `#` header) are sorted
    /// by position text, with no blank lines among them.
    pub fn new(text: &'a str) -> Sorted<'a> {
        let mut body = text;
        while body.starts_with('#') {
            body = body.find('\n').map_or("", |i| &body[i + 1..]);
        }
        Sorted { body }
    }

    /// The proof of `pos`, or of its file mirror, mirrored back.
    pub fn get(&self, pos: &Position) -> Option<Proven> {
        if let Some(e) = self.entry(&pos.fen()) {
            return Some(e);
        }
        let width = pos.rules().width();
        self.entry(&pos.mirror_files().fen())
            .map(|e| e.mirror_files(width))
    }

    /// The proof on the line whose position text is `key`; `None` where
    /// there is none, or where that line does not read.
    fn entry(&self, key: &str) -> Option<Proven> {
        read_line(self.line(key)?).ok().map(|(_, e)| e)
    }

    /// The line whose position text is `key`: a binary search over the
    /// text's bytes, each probe widened to the line it falls in. `lo` and
    /// `hi` stay at line starts, and each probe leaves out at least its line.
    fn line(&self, key: &str) -> Option<&'a str> {
        let text = self.body.as_bytes();
        let (mut lo, mut hi) = (0, text.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = text[lo..mid]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(lo, |i| lo + i + 1);
            let end = text[start..hi]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(hi, |i| start + i);
            let line = &self.body[start..end];
            match position_text(line).cmp(key) {
                Ordering::Equal => return Some(line),
                Ordering::Greater => hi = start,
                Ordering::Less => lo = end + 1,
            }
        }
        None
    }

    /// Every entry line, in order.
    pub fn lines(&self) -> impl Iterator<Item = &'a str> {
        self.body.lines()
    }

    /// Every entry's position with its value for the side to move and the
    /// distance where it is proven (its file mirror not listed): what the
    /// solver reads during its own proofs (see `proofs::values`). Lines
    /// that do not read are left out, as a lookup leaves them; the line
    /// itself is not read, nor checked.
    pub fn values(&self) -> impl Iterator<Item = (Position, Value, Option<u32>)> + 'a {
        self.body.lines().filter_map(|line| {
            let pos = Position::from_fen(position_text(line), RuleSet::PAWNRACE).ok()?;
            let mut words = line.split_whitespace().skip(3);
            let value = words.next()?.parse().ok()?;
            let plies = words.next()?.parse().ok();
            Some((pos, value, plies))
        })
    }
}

/// A book kept in parts, each sorted on its own, looked up in turn: the
/// book grows by parts (a ply, a kind of run), so that no file grows past
/// what a repository host takes in one piece and a new part leaves the
/// others as they were. A position is in one part at most.
#[derive(Copy, Clone, Debug)]
pub struct Parts<'a> {
    parts: &'a [Sorted<'a>],
}

impl<'a> Parts<'a> {
    pub fn new(parts: &'a [Sorted<'a>]) -> Parts<'a> {
        Parts { parts }
    }

    /// The proof of `pos` (or of its file mirror, mirrored back) from the
    /// first part that holds it.
    pub fn get(&self, pos: &Position) -> Option<Proven> {
        self.parts.iter().find_map(|part| part.get(pos))
    }

    /// Every part's entry lines, part after part.
    pub fn lines(&self) -> impl Iterator<Item = &'a str> + 'a {
        self.parts.iter().flat_map(|part| part.lines())
    }

    /// Every part's [`Sorted::values`], part after part.
    pub fn values(&self) -> impl Iterator<Item = (Position, Value, Option<u32>)> + 'a {
        self.parts.iter().flat_map(|part| part.values())
    }
}

#[cfg(test)]
mod tests {
    use super::super::Book;
    use super::*;
    use crate::rules::RuleSet;

    /// A book of positions from a small race, written and looked up where
    /// it lies: every position and its mirror is found with the book's own
    /// proof, and positions it does not hold are not.
    #[test]
    fn every_position_is_found_where_the_text_lies() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let mut book = Book::default();
        let mut all = vec![root];
        for m in root.legal_moves().iter() {
            let after = root.play_unchecked(*m);
            all.push(after);
            for r in after.legal_moves().iter() {
                all.push(after.play_unchecked(*r));
            }
        }
        // Every other position in, each with a made-up one-move proof.
        for (i, pos) in all.iter().enumerate() {
            if i % 2 == 0
                && let Some(&m) = pos.legal_moves().first()
            {
                book.insert(
                    *pos,
                    Proven {
                        value: crate::solver::Value::Win,
                        plies: None,
                        line: vec![m],
                        source: crate::solver::Source::Solver,
                    },
                );
            }
        }
        assert!(book.len() > 10);
        for header in ["", "made by hand\nin two lines"] {
            let text = book.to_text(header);
            let sorted = Sorted::new(&text);
            assert_eq!(sorted.lines().count(), book.len());
            for pos in &all {
                assert_eq!(sorted.get(pos), book.get(pos), "{}", pos.fen());
                let mirror = pos.mirror_files();
                assert_eq!(sorted.get(&mirror), book.get(&mirror), "{}", mirror.fen());
            }
        }
        let empty = Sorted::new("# nothing\n");
        assert_eq!(empty.get(&root), None);
    }

    /// A book in parts finds each part's positions (their mirrors too), the
    /// first part's proof where two hold a position, and lists every line.
    #[test]
    fn parts_are_looked_up_in_turn() {
        let first =
            "# one\n8/p7/8/8/8/8/4P3/8 w - win 9 pv e2e4 a7a5 e4e5 a5a4 e5e6 a4a3 e6e7 a3a2 e7e8\n";
        let second =
            "# two\n8/p7/8/8/8/8/4P3/8 w - win ? pv e2e3\n8/p7/8/8/8/8/5P2/8 w - win ? pv f2f4\n";
        let sorted = [Sorted::new(first), Sorted::new(second)];
        let parts = Parts::new(&sorted);
        let pos = |fen| Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
        let e = pos("8/p7/8/8/8/8/4P3/8 w -");
        assert_eq!(parts.get(&e).and_then(|p| p.plies), Some(9));
        let f = parts.get(&pos("8/p7/8/8/8/8/5P2/8 w -")).unwrap();
        assert_eq!(f.line[0].to_string(), "f2f4");
        let mirror = parts.get(&pos("8/7p/8/8/8/8/2P5/8 w -")).unwrap();
        assert_eq!(mirror.line[0].to_string(), "c2c4");
        assert_eq!(parts.get(&pos("8/p7/8/8/8/8/6P1/8 w -")), None);
        assert_eq!(parts.lines().count(), 3);
        assert_eq!(parts.values().count(), 3);
    }
}
