//! A book of proven positions near the start of Pawn Race openings, where
//! a proof takes the solver far longer than a move's time: the openings
//! table covers the proven line itself, the book the opponent's deviations
//! from it. Kept as data (`data/book.txt`, compiled in) and grown by
//! `pawnrace book` ([`grow`]).
//!
//! One line per position, its text then its proof for the side to move:
//!
//! ```text
//! 8/1pppp1pp/8/8/8/P7/1PPPPPP1/8 b - win 29 pv g7g5 ...
//! ```
//!
//! `win`, `loss` or `draw` for the side to move, the distance in plies as the
//! solver gives it (the shortest win, the longest loss; for a draw the
//! length of the line), and a line that realises it. Where only the value
//! was decided (`pawnrace book --decide`), the distance is `?` and the line
//! is one move that keeps the value:
//!
//! ```text
//! 8/1ppp1pp1/p6p/8/8/3PP3/1PP2PPP/8 w - win ? pv h2h4
//! ```
//!
//! Each position also stands for its file mirror, which is not written.
//! The lines are written sorted by the position's text, so that the
//! compiled-in book is looked up where it lies ([`Sorted`]).
//!
//! The compiled-in book is kept in parts (`data/book/part-N.txt`, each a
//! book file as above, each position in one part), looked up in turn
//! ([`Parts`]): a run's file is merged into a part (`pawnrace book-merge
//! --out data/book/part-N.txt`), and a new part is a new file in
//! [`PARTS`] (a test holds the list to the folder).

mod grow;
mod sorted;

pub use grow::{Follow, Plan, Proving, grow};
pub use sorted::{Parts, Sorted};

use super::lines::{self, LineTable};
use crate::rules::{Position, RuleSet};
use crate::solver::{Proven, Source};
use std::collections::HashMap;
use std::sync::LazyLock;

/// The parts of the book as committed (`data/book/`), each with its file's
/// name: looked up in this order. Each part's header says what it holds
/// and how it was made.
macro_rules! parts {
    ($($name:literal),* $(,)?) => {
        [$(($name, include_str!(concat!("../../../data/book/", $name)))),*]
    };
}
pub const PARTS: [(&str, &str); 4] = parts!("part-1.txt", "part-2.txt", "part-3.txt", "part-4.txt");

/// Each part past its header, found once.
static BUILTIN: LazyLock<Vec<Sorted<'static>>> =
    LazyLock::new(|| PARTS.iter().map(|(_, text)| Sorted::new(text)).collect());

/// The compiled-in book. Nothing is read before a lookup; a line that
/// does not read counts as missing (the tests read every line), and the
/// engine then proves or searches as it would without the book.
pub fn builtin() -> Parts<'static> {
    Parts::new(&BUILTIN)
}

/// A book in memory, as `pawnrace book` grows it.
#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The positions as written, in the order they were added.
    written: Vec<(Position, Proven)>,
    /// Where each position written stands in `written`; their file mirrors
    /// are looked up by mirroring (storing both made reading the book half
    /// again as long).
    index: HashMap<Position, usize>,
}

impl Book {
    /// Where `pos` is written, or else its file mirror: the index in
    /// `written`, and whether the entry there is the mirror's.
    fn find(&self, pos: &Position) -> Option<(usize, bool)> {
        if let Some(&i) = self.index.get(pos) {
            return Some((i, false));
        }
        self.index.get(&pos.mirror_files()).map(|&i| (i, true))
    }

    /// Whether the book holds `pos` or its file mirror.
    pub fn contains(&self, pos: &Position) -> bool {
        self.find(pos).is_some()
    }

    /// The proof of `pos`, or of its file mirror, mirrored back.
    pub fn get(&self, pos: &Position) -> Option<Proven> {
        let (i, mirrored) = self.find(pos)?;
        let entry = &self.written[i].1;
        Some(if mirrored {
            entry.mirror_files(pos.rules().width())
        } else {
            entry.clone()
        })
    }

    /// Gives the distance and line of `proven` to the entry of `pos` (or of
    /// its mirror) that holds only a decided value: true where it did so,
    /// false where the book has no such entry, and an error where the
    /// entry's value is not `proven`'s (one of the two proofs is wrong).
    pub fn complete(&mut self, pos: &Position, proven: &Proven) -> Result<bool, String> {
        let Some((i, mirrored)) = self.find(pos) else {
            return Ok(false);
        };
        let proven = if mirrored {
            proven.mirror_files(pos.rules().width())
        } else {
            proven.clone()
        };
        let (written, entry) = &mut self.written[i];
        if entry.value != proven.value {
            return Err(format!(
                "{}: the book says {}, the new proof {}",
                written.fen(),
                entry.value,
                proven.value
            ));
        }
        if entry.plies.is_some() || proven.plies.is_none() {
            return Ok(false);
        }
        *entry = Proven {
            source: Source::Book,
            ..proven
        };
        Ok(true)
    }

    /// Positions written (their mirrors not counted).
    pub fn len(&self) -> usize {
        self.written.len()
    }

    pub fn is_empty(&self) -> bool {
        self.written.is_empty()
    }

    /// The positions written, in the order they were added (their mirrors
    /// not listed).
    pub fn entries(&self) -> impl Iterator<Item = &(Position, Proven)> {
        self.written.iter()
    }

    /// Adds `pos` (standing for its mirror too) unless the book has it
    /// already, or its mirror. Whatever proved it, the book is then where
    /// it comes from.
    pub fn insert(&mut self, pos: Position, proven: Proven) {
        if self.contains(&pos) {
            return;
        }
        let entry = Proven {
            source: Source::Book,
            ..proven
        };
        self.index.insert(pos, self.written.len());
        self.written.push((pos, entry));
    }

    /// Reads the text form (see [`lines`]).
    pub fn parse(text: &str) -> Result<Book, String> {
        lines::parse(text)
    }

    /// The text form after `header`: one line per written position, sorted
    /// by the position's text.
    pub fn to_text(&self, header: &str) -> String {
        lines::to_text(self, header)
    }
}

impl LineTable for Book {
    fn reserve(&mut self, entries: usize) {
        self.written.reserve(entries);
        self.index.reserve(entries);
    }

    fn read_entry(&mut self, line: &str) -> Result<(), String> {
        let (pos, entry) = read_line(line)?;
        self.insert(pos, entry);
        Ok(())
    }

    fn entry_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .written
            .iter()
            .map(|(pos, entry)| {
                let mut line = format!("{} {} ", pos.fen(), entry.value);
                lines::write_proof(&mut line, entry.plies, &entry.line, &[]);
                line
            })
            .collect();
        // Each position once, so no two keys are equal.
        out.sort_unstable_by(|a, b| position_text(a).cmp(position_text(b)));
        out
    }
}

/// The position's text at the start of an entry line: its first three
/// words, as written.
fn position_text(line: &str) -> &str {
    let mut words = 0;
    let mut in_word = false;
    for (i, c) in line.char_indices() {
        let space = c.is_whitespace();
        if in_word && space {
            words += 1;
            if words == 3 {
                return &line[..i];
            }
        }
        in_word = !space;
    }
    line
}

/// One entry line's position and proof.
fn read_line(line: &str) -> Result<(Position, Proven), String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 6 {
        return Err("want: <position text> win|loss|draw <plies> pv <moves>".into());
    }
    let pos =
        Position::from_fen(position_text(line), RuleSet::PAWNRACE).map_err(|e| e.to_string())?;
    let value = words[3].parse()?;
    let proof = lines::read_proof(&words[4..], &pos, &[])?;
    let entry = Proven {
        value,
        plies: proof.plies,
        line: proof.pv,
        source: Source::Book,
    };
    Ok((pos, entry))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Value;

    #[test]
    fn lines_round_trip_and_mirrors_answer() {
        let text = "8/p7/8/8/8/8/4P3/8 w - win 9 pv e2e4 a7a5 e4e5 a5a4 e5e6 a4a3 e6e7 a3a2 e7e8\n";
        let book = Book::parse(text).unwrap();
        assert_eq!(book.to_text(""), text);
        assert_eq!(book.len(), 1);
        let pos = Position::from_fen("8/p7/8/8/8/8/4P3/8 w -", RuleSet::PAWNRACE).unwrap();
        assert_eq!(book.get(&pos).map(|e| e.plies), Some(Some(9)));
        let mirror = book.get(&pos.mirror_files()).unwrap();
        assert_eq!(mirror.line[0].to_string(), "d2d4");
        assert_eq!(Book::parse(&book.to_text("made by hand")).unwrap().len(), 1);
    }

    #[test]
    fn a_full_proof_completes_a_decided_entry_of_the_same_value_only() {
        let decided = "8/p7/8/8/8/8/4P3/8 w - win ? pv e2e4\n";
        let full = "8/7p/8/8/8/8/3P4/8 w - win 9 pv d2d4 h7h5 d4d5 h5h4 d5d6 h4h3 d6d7 h3h2 d7d8\n";
        let mut book = Book::parse(decided).unwrap();
        let (mirror, proof) = Book::parse(full)
            .unwrap()
            .entries()
            .next()
            .cloned()
            .unwrap();
        // The same value with no distance completes nothing.
        let bare = Proven {
            plies: None,
            ..proof.clone()
        };
        assert_eq!(book.complete(&mirror, &bare), Ok(false));
        let wrong = Proven {
            value: Value::Loss,
            ..proof.clone()
        };
        assert!(
            book.complete(&mirror, &wrong)
                .unwrap_err()
                .contains("the book says win")
        );
        assert_eq!(book.complete(&mirror, &proof), Ok(true));
        // Written as the book wrote it, the mirror's line mirrored back.
        assert_eq!(
            book.to_text(""),
            "8/p7/8/8/8/8/4P3/8 w - win 9 pv e2e4 a7a5 e4e5 a5a4 e5e6 a4a3 e6e7 a3a2 e7e8\n"
        );
        // Complete already: nothing more to give.
        assert_eq!(book.complete(&mirror, &proof), Ok(false));
        let elsewhere = Position::from_fen("8/p7/8/8/8/8/5P2/8 w -", RuleSet::PAWNRACE).unwrap();
        assert_eq!(book.complete(&elsewhere, &proof), Ok(false));
        assert_eq!(book.len(), 1);
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, what) in [
            ("8/p7/8/8/8/8/4P3/8 w - win 5", "want:"),
            ("8/p7/8/8/8/8/4P3/8 w - maybe 5 pv e2e4", "not win"),
            ("8/p7/8/8/8/8/4P3/8 w - win x pv e2e4", "distance"),
            ("8/p7/8/8/8/8/4P3/8 w - win 5 line e2e4", "where pv"),
            ("8/p7/8/8/8/8/4P3/8 w - win 5 pv e2e5", "not legal"),
            ("8/p7/8/8/8/8/4P3/9 w - win 5 pv e2e4", ""),
        ] {
            let e = Book::parse(&format!("# header\n{text}\n")).unwrap_err();
            assert!(e.starts_with("line 2: ") && e.contains(what), "{text}: {e}");
        }
    }

    /// Each committed part loads and saves back byte for byte (so its lines
    /// are sorted, as lookups where it lies need), and every position is
    /// found in the compiled-in book with its part's proof, and with its
    /// value (and a win's or loss's distance) where the solver reads it,
    /// its mirror too; no position (nor its mirror) is in two parts.
    #[test]
    fn the_builtin_book_round_trips_and_is_found_where_it_lies() {
        let builtin = builtin();
        let values = crate::proofs::values();
        let mut seen = Book::default();
        let mut total = 0;
        for (name, text) in PARTS {
            let book = Book::parse(text).unwrap();
            assert_eq!(book.to_text(&lines::header(text)), text, "{name}");
            total += book.len();
            for (pos, entry) in &book.written {
                assert!(
                    !seen.contains(pos),
                    "{name}: {} is in an earlier part",
                    pos.fen()
                );
                seen.insert(*pos, entry.clone());
                assert_eq!(builtin.get(pos).as_ref(), Some(entry), "{}", pos.fen());
                let distance = entry.plies.filter(|_| entry.value != Value::Draw);
                for p in [*pos, pos.mirror_files()] {
                    assert_eq!(values.get(&p), Some((entry.value, distance)), "{}", p.fen());
                }
            }
        }
        assert_eq!(builtin.lines().count(), total);
    }

    /// Every file in `data/book/` is a part compiled in, and every part
    /// compiled in is there: a part added to the folder but not to
    /// [`PARTS`] would be left out of the engine without a word.
    #[test]
    fn the_parts_are_the_files_in_the_folder() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/book");
        let mut files: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        files.sort();
        let mut parts: Vec<String> = PARTS.iter().map(|(name, _)| name.to_string()).collect();
        parts.sort();
        assert_eq!(files, parts);
    }

    #[test]
    fn the_builtin_book_parses_and_its_lines_end_as_it_says() {
        for (name, text) in PARTS {
            let book = Book::parse(text).unwrap();
            for (pos, entry) in &book.written {
                if entry.plies.is_none() {
                    // Decided: one move, keeping a win or a draw.
                    assert_eq!(entry.line.len(), 1, "{name}: {}", pos.fen());
                    assert_ne!(entry.value, Value::Loss, "{name}: {}", pos.fen());
                    continue;
                }
                let mut at = *pos;
                for m in &entry.line {
                    at = at.play_unchecked(*m);
                }
                let outcome = at.outcome().expect("the line ends the game");
                let winner = entry.value.winner(pos.side_to_move());
                assert_eq!(outcome.winner, winner, "{name}: {}", pos.fen());
                if entry.value != Value::Draw {
                    assert_eq!(Some(entry.line.len() as u32), entry.plies, "{}", pos.fen());
                }
            }
        }
    }
}
