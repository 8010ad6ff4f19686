//! Exact game analysis: for every move of a game, the proven value of the
//! position before it and after it, and what the move did to the mover's
//! result.
//!
//! A position's value is its game-theoretic result under perfect play, with
//! its distance in plies (the winner's shortest win, the loser's longest
//! loss), read from, in this order: the rules (a finished game), the
//! compiled-in openings table, the compiled-in book, the exact solver within
//! a per-position budget. A position whose budget runs out (or that the stop
//! flag cuts short) is *unknown*: never a guess. A position with a single
//! legal move takes its value from the position after that move.
//!
//! Positions are valued from the end of the game backwards: a later position
//! is a subtree of an earlier one, so the solver's table, shared by the whole
//! game, already holds much of what the earlier proofs need.
//!
//! Each move gets one verdict, for the side that played it. Only the result
//! (win, draw, loss) counts, not the distance:
//!
//! - `forced`: the mover had a single legal move (no choice, nothing to judge);
//! - `unknown`: the position before or after the move is unknown;
//! - `spoiled`: the mover's result after the move is worse than before it
//!   (a win thrown to a draw or a loss, a draw thrown to a loss);
//! - `chance`: the move keeps the mover's result, and that result is better
//!   than the mover's result before the opponent's previous move: the
//!   opponent has just spoiled, and the mover took what it was handed. Needs
//!   the value of the position before the opponent's move, so a game's first
//!   move is never a chance;
//! - `kept`: the move keeps the mover's result, otherwise.
//!
//! A move can never improve the mover's result (a position's value is the
//! best of its moves), so these cover every case.
//!
//! The analysis is pure and synchronous: [`analyse`] takes a game, a solver,
//! a budget and a stop flag and returns the values and verdicts; [`read`]
//! reads games from text (PGN and a plain form), [`summary`] totals the
//! verdicts per player and [`write`](mod@write) gives the stable text formats.

pub mod read;
pub mod summary;
pub mod write;

use crate::proofs::book;
use crate::proofs::openings::Openings;
use crate::rules::{Color, Move, Position, san};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;

/// The budget per position when a caller gives none, ms: a 60-ply game that
/// the solver cannot prove anywhere takes about two minutes.
pub const DEFAULT_POSITION_MS: u64 = 2000;

/// Where a position's value came from.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Source {
    /// The game is over in this position.
    Rules,
    /// The compiled-in openings table.
    Openings,
    /// The compiled-in book.
    Book,
    /// The exact solver.
    Solver,
    /// The only legal move leads to a position of known value.
    Forced,
}

impl Source {
    pub fn name(self) -> &'static str {
        match self {
            Source::Rules => "rules",
            Source::Openings => "openings",
            Source::Book => "book",
            Source::Solver => "solver",
            Source::Forced => "forced",
        }
    }
}

/// A position's proven value, independent of who is to move.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Known {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// For a win, the fewest plies the winner needs; for a draw the length
    /// of some drawing line (not an optimised number); 0 when the game is
    /// over.
    pub plies: u32,
    pub source: Source,
}

impl Known {
    /// From a value for the side to move in `pos`.
    pub fn new(pos: &Position, value: Value, plies: u32, source: Source) -> Known {
        let side = pos.side_to_move();
        let winner = match value {
            Value::Win => Some(side),
            Value::Loss => Some(!side),
            Value::Draw => None,
        };
        Known {
            winner,
            plies,
            source,
        }
    }

    /// The result for `side`.
    pub fn value_for(&self, side: Color) -> Value {
        match self.winner {
            Some(w) if w == side => Value::Win,
            Some(_) => Value::Loss,
            None => Value::Draw,
        }
    }
}

/// What a move did to its mover's result (see the module's documentation).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    Kept,
    Spoiled,
    Chance,
    Forced,
    Unknown,
}

impl Verdict {
    /// The word the table and the protocol write.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Kept => "kept",
            Verdict::Spoiled => "spoiled",
            Verdict::Chance => "chance",
            Verdict::Forced => "forced",
            Verdict::Unknown => "unknown",
        }
    }
}

/// One analysed move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// 1 for the game's first move.
    pub ply: usize,
    /// The full-move number as PGN counts it (white and black share one).
    pub number: usize,
    pub side: Color,
    pub mv: Move,
    pub san: String,
    /// The value of the position the move was played in.
    pub before: Option<Known>,
    /// The value of the position the move led to.
    pub after: Option<Known>,
    pub verdict: Verdict,
}

impl MoveReport {
    /// `9. c5` or `9... c5`, as PGN writes the move.
    pub fn label(&self) -> String {
        let dots = if self.side == Color::White {
            "."
        } else {
            "..."
        };
        format!("{}{dots} {}", self.number, self.san)
    }
}

/// A game's analysis: the value of every position and a report per move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameAnalysis {
    /// The start first, then the position after every move.
    pub positions: Vec<Option<Known>>,
    pub moves: Vec<MoveReport>,
    /// Whether the stop flag cut the analysis short (the positions it did
    /// not reach are unknown).
    pub stopped: bool,
}

/// Reported after each position is valued, in the order they are valued
/// (the last position first).
#[derive(Copy, Clone, Debug)]
pub struct PositionDone {
    /// 0 for the start, k for the position after the k-th move.
    pub index: usize,
    /// How many positions the game has (moves + 1).
    pub of: usize,
    pub known: Option<Known>,
    /// Solver nodes as the solver last reported them (it reports about once
    /// a second and at the end of each phase, so a solve cut short may show
    /// fewer); 0 when the solver was not asked.
    pub nodes: u64,
    pub time_ms: u64,
}

/// Values every position of the game from `start` through `moves` (which
/// must be legal in turn; see [`read::Game::moves`]) and judges every move.
/// Each solve gets `limits` afresh; `stop` ends the analysis early, leaving
/// what was not valued unknown.
pub fn analyse(
    start: &Position,
    moves: &[Move],
    solver: &mut Solver,
    limits: &SolveLimits,
    stop: &Stop,
    progress: &mut dyn FnMut(&PositionDone),
) -> GameAnalysis {
    let mut line = vec![*start];
    for m in moves {
        let next = line[line.len() - 1].play_unchecked(*m);
        line.push(next);
    }
    let mut values: Vec<Option<Known>> = vec![None; line.len()];
    for i in (0..line.len()).rev() {
        let pos = &line[i];
        let started = std::time::Instant::now();
        let mut nodes = 0;
        let known = instant_value(pos).or_else(|| {
            // Only the next position can be the only move's result.
            let only = single_move(pos)?;
            let next = values.get(i + 1).copied().flatten()?;
            (moves.get(i) == Some(&only)).then_some(Known {
                plies: next.plies + 1,
                source: Source::Forced,
                ..next
            })
        });
        let known = known.or_else(|| {
            if stop.is_raised() {
                return None;
            }
            let solution = solver.solve(pos, limits, stop, &mut |p| nodes = p.nodes)?;
            Some(Known::new(
                pos,
                solution.value,
                solution.plies,
                Source::Solver,
            ))
        });
        values[i] = known;
        progress(&PositionDone {
            index: i,
            of: line.len(),
            known,
            nodes,
            time_ms: started.elapsed().as_millis() as u64,
        });
    }
    let stopped = stop.is_raised();
    let reports = judge(&line, moves, &values);
    GameAnalysis {
        positions: values,
        moves: reports,
        stopped,
    }
}

/// The value that costs no search: a finished game, the openings table, the
/// book (its entries with a distance: the analysis writes one).
pub fn instant_value(pos: &Position) -> Option<Known> {
    if let Some(outcome) = pos.outcome() {
        return Some(Known {
            winner: outcome.winner,
            plies: 0,
            source: Source::Rules,
        });
    }
    if let Some(e) = Openings::builtin().along_line(pos)
        && let Some(plies) = e.plies
    {
        return Some(Known::new(pos, e.value, plies, Source::Openings));
    }
    let e = book::builtin().get(pos)?;
    Some(Known::new(pos, e.value, e.plies?, Source::Book))
}

/// The move, when `pos` has exactly one.
fn single_move(pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    match *moves {
        [m] => Some(m),
        _ => None,
    }
}

/// The verdicts, from the values of every position along the game.
fn judge(line: &[Position], moves: &[Move], values: &[Option<Known>]) -> Vec<MoveReport> {
    let first_side = line[0].side_to_move();
    let rank = |v: Value| match v {
        Value::Loss => 0,
        Value::Draw => 1,
        Value::Win => 2,
    };
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let pos = &line[i];
            let side = pos.side_to_move();
            let (before, after) = (values[i], values[i + 1]);
            let verdict = if single_move(pos).is_some() {
                Verdict::Forced
            } else {
                match (before, after) {
                    (Some(b), Some(a)) => {
                        let now = rank(b.value_for(side));
                        if rank(a.value_for(side)) < now {
                            Verdict::Spoiled
                        } else {
                            let handed = i
                                .checked_sub(1)
                                .and_then(|p| values[p])
                                .is_some_and(|p| rank(p.value_for(side)) < now);
                            if handed {
                                Verdict::Chance
                            } else {
                                Verdict::Kept
                            }
                        }
                    }
                    _ => Verdict::Unknown,
                }
            };
            // Counted from the first move: black opening a game set up with
            // black to move plays 1... .
            let half = i + usize::from(first_side == Color::Black);
            MoveReport {
                ply: i + 1,
                number: half / 2 + 1,
                side,
                mv: *m,
                san: san(*m),
                before,
                after,
                verdict,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
