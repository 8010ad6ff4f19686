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

use super::solver::{SolveLimits, SolveProgress, Solver, Value};
use crate::rules::{Color, Gaps, Move, Position, RuleSet, Square};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The table as committed; see the file's header for how it was made.
const BUILTIN: &str = include_str!("../../data/openings.txt");

/// What is known of one opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proof {
    Proven {
        /// `None` for a draw.
        winner: Option<Color>,
        plies: u32,
        line: Vec<Move>,
        /// White's first moves that keep the result.
        keep: Vec<Move>,
        /// First moves whose effect was not settled within the budget.
        unsettled: Vec<Move>,
    },
    Unknown(String),
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
                Some(Proof::Proven { winner, plies, .. }) => {
                    let rank = match winner {
                        Some(Color::Black) => (2, -(*plies as i64)),
                        None => (1, 0),
                        Some(Color::White) => (0, *plies as i64),
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
        Proof::Proven {
            winner,
            plies,
            line,
            keep,
            unsettled,
        } => {
            let result = winner.map_or("draw", Color::name);
            let mut s = format!("{result} {plies} pv {}", moves_text(line));
            if !keep.is_empty() {
                s.push_str(&format!(" keep {}", moves_text(keep)));
            }
            if !unsettled.is_empty() {
                s.push_str(&format!(" keep? {}", moves_text(unsettled)));
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
                let m = parse_coordinates(text).ok_or_else(|| format!("'{text}' is not a move"))?;
                list.as_mut().ok_or("a move before pv")?.push(m);
            }
        }
    }
    Ok((
        gaps,
        Proof::Proven {
            winner,
            plies,
            line,
            keep,
            unsettled,
        },
    ))
}

fn parse_coordinates(text: &str) -> Option<Move> {
    let from: Square = text.get(0..2)?.parse().ok()?;
    let to: Square = text.get(2..4)?.parse().ok()?;
    (text.len() == 4).then_some(Move::new(from, to))
}

/// The board seen in a mirror between the a- and h-files: gaps `AH` become
/// `HA`, and the value of every position stays the same.
pub fn mirror_files(m: Move, width: u8) -> Move {
    let flip = |sq: Square| Square::new(width - 1 - sq.file(), sq.rank());
    Move::new(flip(m.from), flip(m.to))
}

fn mirror_proof(proof: &Proof, width: u8) -> Proof {
    let flip = |moves: &[Move]| moves.iter().map(|m| mirror_files(*m, width)).collect();
    match proof {
        Proof::Unknown(note) => Proof::Unknown(note.clone()),
        Proof::Proven {
            winner,
            plies,
            line,
            keep,
            unsettled,
        } => Proof::Proven {
            winner: *winner,
            plies: *plies,
            line: flip(line),
            keep: flip(keep),
            unsettled: flip(unsettled),
        },
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

/// Budgets of one opening's proof.
#[derive(Copy, Clone, Debug, Default)]
pub struct ProveLimits {
    /// For the opening itself.
    pub opening: SolveLimits,
    /// For each first move when sorting out which keep the result.
    pub first_move: SolveLimits,
}

/// One opening's proof and what it cost.
#[derive(Clone, Debug)]
pub struct Proved {
    pub proof: Proof,
    /// Proving the result, its distance and its line; `None` when they came
    /// from the table and only first moves were tried again.
    pub solving: Option<Duration>,
    /// Sorting out which first moves keep the result.
    pub keeping: Duration,
}

/// Proves one opening: its result, its line, and which first moves keep it.
pub fn prove(
    solver: &mut Solver,
    gaps: Gaps,
    limits: &ProveLimits,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Proved {
    let started = Instant::now();
    let unknown = |note: String| Proved {
        proof: Proof::Unknown(note),
        solving: Some(started.elapsed()),
        keeping: Duration::ZERO,
    };
    let start = match Position::start(RuleSet::PAWNRACE, Some(gaps)) {
        Ok(p) => p,
        Err(e) => return unknown(e.to_string()),
    };
    let Some(solution) = solver.solve(&start, &limits.opening, stop, progress) else {
        return unknown("not proven within the budget".into());
    };
    let solving = started.elapsed();
    let winner = winner_of(solution.value, Color::White);
    let (keep, unsettled) = sort_first_moves(
        solver,
        &start,
        winner,
        start.legal_moves().iter().copied(),
        &limits.first_move,
        stop,
    );
    Proved {
        proof: Proof::Proven {
            winner,
            plies: solution.plies,
            line: solution.pv,
            keep,
            unsettled,
        },
        solving: Some(solving),
        keeping: started.elapsed() - solving,
    }
}

/// Tries again, within `limits.first_move`, the first moves a proven
/// opening left unsettled. `None` when there were none.
pub fn settle(
    solver: &mut Solver,
    gaps: Gaps,
    proof: &Proof,
    limits: &ProveLimits,
    stop: &AtomicBool,
) -> Option<Proved> {
    let Proof::Proven {
        winner,
        plies,
        line,
        keep,
        unsettled,
    } = proof
    else {
        return None;
    };
    if unsettled.is_empty() {
        return None;
    }
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
    let started = Instant::now();
    let (kept, still) = sort_first_moves(
        solver,
        &start,
        *winner,
        unsettled.iter().copied(),
        &limits.first_move,
        stop,
    );
    // In the order the moves are generated, as a fresh proof lists them.
    let mut keep: Vec<Move> = keep.iter().chain(&kept).copied().collect();
    keep.sort_by_key(|m| start.legal_moves().iter().position(|l| l == m));
    Some(Proved {
        proof: Proof::Proven {
            winner: *winner,
            plies: *plies,
            line: line.clone(),
            keep,
            unsettled: still,
        },
        solving: None,
        keeping: started.elapsed(),
    })
}

/// Which of `moves`, white's first moves from `start`, keep the opening's
/// result (`winner`), and which could not be settled within `limits`.
/// Nothing keeps a black win: every move loses.
fn sort_first_moves(
    solver: &mut Solver,
    start: &Position,
    winner: Option<Color>,
    moves: impl Iterator<Item = Move>,
    limits: &SolveLimits,
    stop: &AtomicBool,
) -> (Vec<Move>, Vec<Move>) {
    // What black must not reach after a first move that keeps the result.
    let spoiler = match winner {
        Some(Color::White) => Value::Draw,
        None => Value::Win,
        Some(Color::Black) => return (Vec::new(), Vec::new()),
    };
    let (mut keep, mut unsettled) = (Vec::new(), Vec::new());
    for m in moves {
        let child = start.play_unchecked(m);
        match solver.at_least(&child, spoiler, limits, stop) {
            Some(false) => keep.push(m),
            Some(true) => {}
            None => unsettled.push(m),
        }
    }
    (keep, unsettled)
}

/// The pairs that need proving; their file mirrors share the result.
pub fn canonical_gaps(width: u8) -> impl Iterator<Item = Gaps> {
    Gaps::all(width).filter(move |g| 2 * g.white < width)
}

/// Proves every opening missing from `table` (or not proven there), and
/// tries again the first moves that proven ones left unsettled, storing
/// each result and its mirror as soon as it is known and handing the table
/// (with that opening's proof and costs) to `save` so that a long run can
/// stop and resume.
pub fn prove_all(
    table: &mut Openings,
    solver: &mut Solver,
    limits: &ProveLimits,
    stop: &AtomicBool,
    on_progress: &mut dyn FnMut(Gaps, &SolveProgress),
    save: &mut dyn FnMut(&Openings, Gaps, &Proved),
) {
    let width = RuleSet::PAWNRACE.width();
    for gaps in canonical_gaps(width) {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let proved = match table.get(gaps) {
            Some(proof @ Proof::Proven { .. }) => {
                match settle(solver, gaps, &proof.clone(), limits, stop) {
                    Some(proved) => proved,
                    None => continue,
                }
            }
            _ => prove(solver, gaps, limits, stop, &mut |p| on_progress(gaps, p)),
        };
        let mirror = Gaps {
            white: width - 1 - gaps.white,
            black: width - 1 - gaps.black,
        };
        table.insert(mirror, mirror_proof(&proved.proof, width));
        table.insert(gaps, proved.proof.clone());
        save(table, gaps, &proved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        parse_coordinates(s).unwrap()
    }

    #[test]
    fn lines_round_trip() {
        let text = "AH white 3 pv b2b4 a7a5 b4b5 keep b2b4 keep? c2c4\nBC unknown not proven within the budget\nCD black 2 pv c2c3 d7d5\nDD draw 1 pv a2a3 keep a2a3\n";
        let table = Openings::parse(text).unwrap();
        assert_eq!(table.to_text(""), text);
        let ah = table.get("AH".parse().unwrap()).unwrap();
        assert!(
            matches!(ah, Proof::Proven { winner: Some(Color::White), plies: 3, keep, .. } if keep == &vec![mv("b2b4")])
        );
        assert_eq!(table.best_for_black(8), Some("CD".parse().unwrap()));
        let partial = Openings::parse("AH white 3 pv b2b4 a7a5 b4b5\nDD draw 1 pv a2a3\n").unwrap();
        assert_eq!(
            partial.best_for_black(8),
            None,
            "unproven pairs may hold a black win"
        );
        let mut full = Openings::default();
        for g in Gaps::all(2) {
            full.insert(
                g,
                Proof::Proven {
                    winner: Some(Color::White),
                    plies: 5 + g.black as u32,
                    line: vec![],
                    keep: vec![],
                    unsettled: vec![],
                },
            );
        }
        assert_eq!(full.best_for_black(2), Some("AB".parse().unwrap()));
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, what) in [
            ("AZ white 3", "two file letters"),
            ("AH purple 3", "not a result"),
            ("AH white x", "distance"),
            ("AH white 3 pv e2e9", "not a move"),
            ("AH white 3 e2e4", "before pv"),
        ] {
            let e = Openings::parse(&format!("# header\n{text}\n")).unwrap_err();
            assert!(e.starts_with("line 2: ") && e.contains(what), "{text}: {e}");
        }
    }

    #[test]
    fn settling_keeps_what_is_known_and_what_is_not() {
        let gaps: Gaps = "AH".parse().unwrap();
        let proof = Proof::Proven {
            winner: Some(Color::White),
            plies: 29,
            line: vec![mv("h2h4")],
            keep: vec![mv("h2h4")],
            unsettled: vec![mv("c2c4"), mv("b2b3")],
        };
        let limits = ProveLimits {
            opening: SolveLimits::default(),
            first_move: SolveLimits {
                nodes: Some(1),
                movetime_ms: None,
            },
        };
        let stop = AtomicBool::new(false);
        let mut solver = Solver::new(1);
        let proved = settle(&mut solver, gaps, &proof, &limits, &stop).unwrap();
        assert_eq!(proved.proof, proof, "one node settles nothing");
        assert_eq!(proved.solving, None, "the result came from the table");
        let settled = Proof::Proven {
            winner: Some(Color::White),
            plies: 29,
            line: vec![mv("h2h4")],
            keep: vec![mv("h2h4")],
            unsettled: vec![],
        };
        assert!(settle(&mut solver, gaps, &settled, &limits, &stop).is_none());
    }

    #[test]
    fn mirrors_keep_results_and_flip_files() {
        assert_eq!(mirror_files(mv("b2b4"), 8), mv("g2g4"));
        assert_eq!(mirror_files(mv("e4d5"), 8), mv("d4e5"));
        assert_eq!(canonical_gaps(8).count(), 32);
        let all: Vec<Gaps> = canonical_gaps(8)
            .flat_map(|g| {
                [
                    g,
                    Gaps {
                        white: 7 - g.white,
                        black: 7 - g.black,
                    },
                ]
            })
            .collect();
        let mut sorted = all.clone();
        sorted.sort_by_key(|g| (g.white, g.black));
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
    }

    /// The committed table says what it proves: every pair is there, file
    /// mirrors agree, and every line is legal and ends in its result after
    /// its distance (for a draw, the line's length).
    #[test]
    fn the_builtin_table_is_whole_and_consistent() {
        let table = Openings::parse(BUILTIN).unwrap();
        for (gaps, proof) in table.iter() {
            let mirror = Gaps {
                white: 7 - gaps.white,
                black: 7 - gaps.black,
            };
            let Proof::Proven {
                winner,
                plies,
                line,
                keep,
                ..
            } = proof
            else {
                continue;
            };
            assert_eq!(
                table.get(mirror),
                Some(&mirror_proof(proof, 8)),
                "{gaps} and {mirror}"
            );
            let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
            for m in line {
                assert!(pos.is_legal(*m), "{gaps}: {m} in {}", pos.fen());
                pos = pos.play_unchecked(*m);
            }
            let outcome = pos
                .outcome()
                .unwrap_or_else(|| panic!("{gaps}: the line does not end the game"));
            assert_eq!(outcome.winner, *winner, "{gaps}");
            assert_eq!(line.len() as u32, *plies, "{gaps}");
            assert!(keep.iter().all(|m| {
                Position::start(RuleSet::PAWNRACE, Some(gaps))
                    .unwrap()
                    .is_legal(*m)
            }));
        }
        assert_eq!(table.iter().count(), 64, "every gap pair has a line");
    }
}
