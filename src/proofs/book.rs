//! A book of proven positions near the start of Pawn Race openings, where
//! a proof takes the solver far longer than a move's time: the openings
//! table covers the proven line itself, the book the opponent's deviations
//! from it. Kept as data (`data/book.txt`, compiled in) and grown by
//! `pawnrace book`.
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
//! 8/1ppp1ppp/p7/8/8/3P4/1PP1PPPP/8 w - win ? pv e2e4
//! ```
//!
//! Each position also stands for its file mirror, which is not written.

pub use super::Entry;

use super::ProofEvent;
use super::lines::{self, LineTable};
use crate::rules::{Color, Position, RuleSet};
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The book as committed; see the file's header for how it was made.
const BUILTIN: &str = include_str!("../../data/book.txt");

#[derive(Clone, Debug, Default)]
pub struct Book {
    /// The positions as written, in the order they were added.
    written: Vec<(Position, Entry)>,
    /// The positions written; their file mirrors are looked up by
    /// mirroring (storing both made reading the book half again as long).
    index: HashMap<Position, Entry>,
}

impl Book {
    /// The compiled-in book. A book that does not parse counts as empty:
    /// the engine then proves or searches as it would without one.
    pub fn builtin() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(BUILTIN).unwrap_or_default())
    }

    /// The proof of `pos`, or of its file mirror, mirrored back.
    pub fn get(&self, pos: &Position) -> Option<Entry> {
        if let Some(e) = self.index.get(pos) {
            return Some(e.clone());
        }
        let width = pos.rules().width();
        self.index
            .get(&pos.mirror_files())
            .map(|e| e.mirror_files(width))
    }

    /// Positions written (their mirrors not counted).
    pub fn len(&self) -> usize {
        self.written.len()
    }

    pub fn is_empty(&self) -> bool {
        self.written.is_empty()
    }

    /// Adds `pos` (standing for its mirror too) unless the book has it
    /// already, or its mirror.
    pub fn insert(&mut self, pos: Position, entry: Entry) {
        if self.index.contains_key(&pos) || self.index.contains_key(&pos.mirror_files()) {
            return;
        }
        self.index.insert(pos, entry.clone());
        self.written.push((pos, entry));
    }

    /// Reads the text form (see [`lines`]).
    pub fn parse(text: &str) -> Result<Book, String> {
        lines::parse(text)
    }

    /// The text form, one line per written position, after `header`.
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
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() < 6 {
            return Err("want: <position text> win|loss|draw <plies> pv <moves>".into());
        }
        // The position's text is the first three words, as written.
        let text_end = words[2].as_ptr() as usize + words[2].len() - line.as_ptr() as usize;
        let pos =
            Position::from_fen(&line[..text_end], RuleSet::PAWNRACE).map_err(|e| e.to_string())?;
        let value = words[3].parse()?;
        let proof = lines::read_proof(&words[4..], &pos, &[])?;
        self.insert(
            pos,
            Entry {
                value,
                plies: proof.plies,
                pv: proof.pv,
            },
        );
        Ok(())
    }

    fn entry_lines(&self) -> Vec<String> {
        self.written
            .iter()
            .map(|(pos, entry)| {
                let mut line = format!("{} {} ", pos.fen(), entry.value);
                lines::write_proof(&mut line, entry.plies, &entry.pv, &[]);
                line
            })
            .collect()
    }
}

/// How much of a position `grow` proves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Proving {
    /// The value, the distance and a line.
    Full,
    /// The value and a move that keeps it.
    Decide,
}

/// Which of the served side's own moves [`grow`] goes on after.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Follow {
    /// Only the move its proof plays: all the engine needs while it plays
    /// from the book.
    Proven,
    /// Every move, losing ones too. A game taken over part-way (a harness's
    /// `position startpos moves ...`) or set up by hand reaches the side's
    /// positions after moves the book would not have played, and the
    /// opponent may throw back what such a move threw away.
    Every,
}

/// What [`grow`] covers from its root.
#[derive(Copy, Clone, Debug)]
pub struct Plan {
    /// How many plies on from the root.
    pub plies: u32,
    /// The side the book serves: its positions are the ones proven.
    pub side: Color,
    pub proving: Proving,
    pub follow: Follow,
}

/// Adds to `book` the proofs of `root` and of the positions after it, up to
/// `plan.plies` plies on: where `plan.side` is to move, only after the move
/// its proof plays (or after every move, with [`Follow::Every`]); where the
/// opponent is, after every move. So `side`, playing from the book, finds
/// every reply of the opponent answered. Positions the book has are not
/// proven again, so an interrupted run resumes where it stopped. `report`
/// hears of every solve's progress and of every position proven
/// ([`ProofEvent::Proven`]), given up ([`ProofEvent::Unknown`]) or decided
/// lost for `side` ([`ProofEvent::Lost`]).
///
/// With [`Proving::Decide`], `side`'s positions get only their value and a
/// move keeping it (no distance: several times cheaper), and the
/// opponent's are not proven at all, only passed through.
pub fn grow(
    book: &mut Book,
    solver: &mut Solver,
    root: &Position,
    plan: &Plan,
    limits: &SolveLimits,
    stop: &Stop,
    report: &mut dyn FnMut(ProofEvent),
) {
    let Plan {
        plies,
        side,
        proving,
        follow,
    } = *plan;
    enum Work {
        Visit(Position, u32),
        Prove(Position),
    }
    let mut todo = vec![Work::Visit(*root, plies)];
    let mut prove = |book: &mut Book, solver: &mut Solver, pos: Position| -> Option<Entry> {
        if let Some(e) = book.get(&pos) {
            return Some(e);
        }
        let mut progress = |p: &_| {
            report(ProofEvent::Progress {
                gaps: None,
                progress: p,
            })
        };
        let proof = match proving {
            Proving::Full => solver.solve(&pos, limits, stop, &mut progress).map(|s| {
                Some(Entry {
                    value: s.value,
                    plies: Some(s.plies),
                    pv: s.pv,
                })
            }),
            // A loss has no move to keep: proven, but nothing to write.
            // (Finished games never get here, so a decision without a move
            // is a loss.)
            Proving::Decide => solver.decide(&pos, limits, stop).map(|d| {
                d.keep.map(|m| Entry {
                    value: d.value,
                    plies: None,
                    pv: vec![m],
                })
            }),
        };
        match proof {
            Some(None) => {
                report(ProofEvent::Lost { pos: &pos });
                None
            }
            Some(Some(entry)) => {
                book.insert(pos, entry.clone());
                report(ProofEvent::Proven {
                    book,
                    pos: &pos,
                    entry: &entry,
                });
                Some(entry)
            }
            None => {
                if !stop.is_raised() {
                    report(ProofEvent::Unknown { book, pos: &pos });
                }
                None
            }
        }
    };
    // Depth first, in move order, so that siblings share the solver's table.
    while let Some(work) = todo.pop() {
        if stop.is_raised() {
            return;
        }
        let (pos, left) = match work {
            Work::Prove(pos) => {
                prove(book, solver, pos);
                continue;
            }
            Work::Visit(pos, left) => (pos, left),
        };
        if pos.outcome().is_some() {
            continue;
        }
        if pos.side_to_move() == side {
            // Our move comes from the proof, so the proof comes first.
            let entry = prove(book, solver, pos);
            if left == 0 {
                continue;
            }
            match follow {
                Follow::Proven => {
                    if let Some(&m) = entry.as_ref().and_then(|e| e.pv.first()) {
                        todo.push(Work::Visit(pos.play_unchecked(m), left - 1));
                    }
                }
                Follow::Every => {
                    for m in pos.legal_moves().iter().rev() {
                        todo.push(Work::Visit(pos.play_unchecked(*m), left - 1));
                    }
                }
            }
        } else {
            // Every reply is covered whatever this position's value; proving
            // it after them is nearly free, their values being in the table.
            if proving == Proving::Full {
                todo.push(Work::Prove(pos));
            }
            if left > 0 {
                for m in pos.legal_moves().iter().rev() {
                    todo.push(Work::Visit(pos.play_unchecked(*m), left - 1));
                }
            }
        }
    }
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
        assert_eq!(mirror.pv[0].to_string(), "d2d4");
        assert_eq!(Book::parse(&book.to_text("made by hand")).unwrap().len(), 1);
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

    /// A small race grown three plies for black: every white move is
    /// answered, black's own moves follow its proofs, and every entry is
    /// what the solver says of the position.
    #[test]
    fn growing_answers_every_reply_of_the_other_side() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let mut book = Book::default();
        let mut solver = Solver::new(1);
        let stop = Stop::new();
        // Grows the book three plies for black; how many positions it proved.
        let mut run = |book: &mut Book| {
            let mut proven = 0;
            let plan = Plan {
                plies: 3,
                side: Color::Black,
                proving: Proving::Full,
                follow: Follow::Proven,
            };
            grow(
                book,
                &mut solver,
                &root,
                &plan,
                &SolveLimits::default(),
                &stop,
                &mut |e| proven += matches!(e, ProofEvent::Proven { .. }) as usize,
            );
            proven
        };
        assert_eq!(run(&mut book), book.len());
        assert!(book.get(&root).is_some());
        let mut fresh = Solver::new(1);
        for (pos, entry) in &book.written {
            let s = fresh
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap();
            assert_eq!(
                (s.value, Some(s.plies)),
                (entry.value, entry.plies),
                "{}",
                pos.fen()
            );
        }
        for m in root.legal_moves().iter() {
            let after = root.play_unchecked(*m);
            if after.outcome().is_some() {
                continue;
            }
            let reply = book.get(&after).expect("every white move answered");
            let next = after.play_unchecked(reply.pv[0]);
            if next.outcome().is_none() {
                assert!(book.get(&next).is_some(), "{}", next.fen());
            }
        }
        // A second run finds everything in the book.
        assert_eq!(run(&mut book), 0);
    }

    /// A fresh book grown from `root` by `plan`, without limits.
    fn grown(root: &Position, plan: &Plan) -> Book {
        let mut book = Book::default();
        grow(
            &mut book,
            &mut Solver::new(1),
            root,
            plan,
            &SolveLimits::default(),
            &Stop::new(),
            &mut |_| {},
        );
        book
    }

    /// Deciding only: white's positions get a move that keeps their value
    /// and no distance, black's none at all, and the text says so with `?`.
    #[test]
    fn deciding_writes_a_keeping_move_without_a_distance() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 b -", RuleSet::PAWNRACE).unwrap();
        let book = grown(
            &root,
            &Plan {
                plies: 2,
                side: Color::White,
                proving: Proving::Decide,
                follow: Follow::Proven,
            },
        );
        let stop = Stop::new();
        assert!(
            book.get(&root).is_none(),
            "black's positions are not proven"
        );
        assert!(!book.is_empty());
        let mut fresh = Solver::new(1);
        let text = book.to_text("");
        for (pos, entry) in &book.written {
            assert_eq!(pos.side_to_move(), Color::White);
            assert_eq!((entry.plies, entry.pv.len()), (None, 1), "{}", pos.fen());
            let s = fresh
                .solve(pos, &SolveLimits::default(), &stop, &mut |_| {})
                .unwrap();
            assert_eq!(s.value, entry.value, "{}", pos.fen());
            let after = pos.play_unchecked(entry.pv[0]);
            let kept = match after.outcome() {
                Some(o) => Value::for_side(o.winner, Color::White),
                None => {
                    let reply = fresh
                        .solve(&after, &SolveLimits::default(), &stop, &mut |_| {})
                        .unwrap();
                    Value::for_side(reply.value.winner(Color::Black), Color::White)
                }
            };
            assert_eq!(kept, entry.value, "{} {}", pos.fen(), entry.pv[0]);
            assert!(text.contains(&format!("{} ? pv {}\n", entry.value, entry.pv[0])));
        }
        let text = book.to_text("decided");
        assert_eq!(Book::parse(&text).unwrap().to_text("decided"), text);
    }

    /// Following every move of its own side: black's positions three
    /// plies in are all covered, whichever first move black made, and
    /// exactly those black wins or draws are written.
    #[test]
    fn following_every_move_covers_the_sides_positions_after_any_move() {
        let root = Position::from_fen("8/1p2p3/8/8/8/8/1P4P1/8 w -", RuleSet::PAWNRACE).unwrap();
        let book = grown(
            &root,
            &Plan {
                plies: 3,
                side: Color::Black,
                proving: Proving::Decide,
                follow: Follow::Every,
            },
        );
        let stop = Stop::new();
        let mut fresh = Solver::new(1);
        let (mut written, mut lost) = (0, 0);
        let after = |pos: &Position| -> Vec<Position> {
            let moves = pos.legal_moves();
            moves.iter().map(|m| pos.play_unchecked(*m)).collect()
        };
        for first in after(&root) {
            for reply in after(&first) {
                for second in after(&reply) {
                    if second.outcome().is_some() {
                        continue;
                    }
                    let value = fresh
                        .solve(&second, &SolveLimits::default(), &stop, &mut |_| {})
                        .unwrap()
                        .value;
                    let entry = book.get(&second);
                    if value == Value::Loss {
                        lost += 1;
                        assert!(entry.is_none(), "{}", second.fen());
                    } else {
                        written += 1;
                        assert_eq!(entry.map(|e| e.value), Some(value), "{}", second.fen());
                    }
                }
            }
        }
        assert!(written > 0 && lost > 0, "{written} {lost}");
    }

    /// The committed book loads and saves back byte for byte.
    #[test]
    fn the_builtin_book_round_trips() {
        let book = Book::parse(BUILTIN).unwrap();
        assert_eq!(book.to_text(&lines::header(BUILTIN)), BUILTIN);
    }

    #[test]
    fn the_builtin_book_parses_and_its_lines_end_as_it_says() {
        let book = Book::parse(BUILTIN).unwrap();
        for (pos, entry) in &book.written {
            if entry.plies.is_none() {
                // Decided: one move, keeping a win or a draw.
                assert_eq!(entry.pv.len(), 1, "{}", pos.fen());
                assert_ne!(entry.value, Value::Loss, "{}", pos.fen());
                continue;
            }
            let mut at = *pos;
            for m in &entry.pv {
                at = at.play_unchecked(*m);
            }
            let outcome = at.outcome().expect("the line ends the game");
            let winner = entry.value.winner(pos.side_to_move());
            assert_eq!(outcome.winner, winner, "{}", pos.fen());
            if entry.value != Value::Draw {
                assert_eq!(Some(entry.pv.len() as u32), entry.plies, "{}", pos.fen());
            }
        }
    }
}
