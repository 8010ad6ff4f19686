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
//! a budget and a stop flag and returns the values and verdicts;
//! [`crate::pgn`] reads games from text (PGN and a plain form), [`summary`] totals the
//! verdicts per player and [`write`](mod@write) gives the stable text formats.

pub mod batch;
pub mod explore;
pub mod summary;
pub mod write;

use crate::proofs;
use crate::rules::{Color, Move, Position, san};
use crate::solver::{Proven, SolveLimits, Solver, Source, Value};
use crate::stop::Stop;

/// The budget per position when a caller gives none, ms: a 60-ply game that
/// the solver cannot prove anywhere takes about two minutes.
pub const DEFAULT_POSITION_MS: u64 = 2000;

/// The distance gets at most this fraction of a position's time budget,
/// after the value: the verdicts need the value alone, and proving a
/// distance may take the solver many times what the value did.
const DISTANCE_SHARE: u64 = 4;

/// The first, short try of the solver at a position (value and distance
/// together) gets this fraction of the budget: enough for most positions
/// late in a game, before the proof tables' children and a decision.
const QUICK_SHARE: u64 = 20;

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
    /// The value of the position the move was played in, for the mover.
    pub before: Option<Proven>,
    /// The value of the position the move led to, for the opponent (to
    /// move there).
    pub after: Option<Proven>,
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
    /// The start first, then the position after every move; each for its
    /// side to move.
    pub positions: Vec<Option<Proven>>,
    pub moves: Vec<MoveReport>,
    /// Whether the stop flag cut the analysis short (the positions it did
    /// not reach are unknown).
    pub stopped: bool,
}

/// Reported after each position is valued, in the order they are valued
/// (the last position first).
#[derive(Copy, Clone, Debug)]
pub struct PositionDone<'a> {
    /// 0 for the start, k for the position after the k-th move.
    pub index: usize,
    /// How many positions the game has (moves + 1).
    pub of: usize,
    /// Who is to move in the position, whom `known` speaks for.
    pub side: Color,
    pub known: Option<&'a Proven>,
    /// Solver nodes as the solver last reported them (it reports about once
    /// a second and at the end of each phase, so a solve cut short may show
    /// fewer); 0 when the solver was not asked.
    pub nodes: u64,
    pub time_ms: u64,
}

/// Values every position of the game from `start` through `moves` (which
/// must be legal in turn; see [`ReadGame::moves`](crate::pgn::ReadGame::moves)) and judges every move.
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
    let line = line_of(start, moves);
    let mut values: Vec<Option<Proven>> = vec![None; line.len()];
    for i in (0..line.len()).rev() {
        let pos = &line[i];
        let started = std::time::Instant::now();
        let mut nodes = 0;
        let known = instant_value(pos)
            .or_else(|| forced(pos, moves.get(i), values.get(i + 1)?.as_ref()?))
            .or_else(|| proofs::known(pos))
            .or_else(|| {
                // Most positions late in a game take the solver a moment,
                // distance and all; the first try is a short one.
                if stop.is_raised() {
                    return None;
                }
                let quick = solver.solve(pos, &scaled(limits, QUICK_SHARE), stop, &mut |_| {});
                nodes += solver.last_nodes();
                quick
            })
            .or_else(|| from_the_tables_children(pos))
            .or_else(|| {
                if stop.is_raised() {
                    return None;
                }
                prove(solver, pos, limits, stop, &mut nodes)
            });
        values[i] = known;
        progress(&PositionDone {
            index: i,
            of: line.len(),
            side: pos.side_to_move(),
            known: values[i].as_ref(),
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

/// `start`, then the position after each of `moves` in turn.
fn line_of(start: &Position, moves: &[Move]) -> Vec<Position> {
    let mut line = vec![*start];
    for m in moves {
        let next = line[line.len() - 1].play_unchecked(*m);
        line.push(next);
    }
    line
}

/// `limits` divided by `by` (at least 1 ms, 1 node).
fn scaled(limits: &SolveLimits, by: u64) -> SolveLimits {
    SolveLimits {
        nodes: limits.nodes.map(|n| (n / by).max(1)),
        movetime_ms: limits.movetime_ms.map(|ms| (ms / by).max(1)),
    }
}

/// The value of `pos` from the solver within `limits`: decided first (the
/// value alone, what the verdicts need, far cheaper), then its distance
/// with what is left; a value whose distance did not come in time is kept
/// without one. `nodes` counts both proofs.
fn prove(
    solver: &mut Solver,
    pos: &Position,
    limits: &SolveLimits,
    stop: &Stop,
    nodes: &mut u64,
) -> Option<Proven> {
    let started = std::time::Instant::now();
    let decided = solver.decide(pos, limits, stop);
    *nodes += solver.last_nodes();
    let decided = decided?;
    let spent = started.elapsed().as_millis() as u64;
    let share = scaled(limits, DISTANCE_SHARE);
    let rest = SolveLimits {
        nodes: limits
            .nodes
            .zip(share.nodes)
            .map(|(n, most)| n.saturating_sub(*nodes).clamp(1, most)),
        movetime_ms: limits
            .movetime_ms
            .zip(share.movetime_ms)
            .map(|(ms, most)| ms.saturating_sub(spent).clamp(1, most)),
    };
    let solved = solver.solve(pos, &rest, stop, &mut |_| {});
    *nodes += solver.last_nodes();
    Some(solved.unwrap_or(decided))
}

/// The value of `pos` from its children's in the proof tables, one ply of
/// exact negamax that costs no search: a win where some move reaches a
/// position the tables prove lost for the opponent, otherwise the best
/// of the children's values where the tables know every one. The tables
/// hold the winner's positions, not the loser's (one move answers for a
/// win, every move must be refuted for a loss), so a lost position's
/// children are often all there when the position is not. No distance.
fn from_the_tables_children(pos: &Position) -> Option<Proven> {
    let side = pos.side_to_move();
    let mut best: Option<(Value, Move)> = None;
    let mut all_known = true;
    for &m in pos.legal_moves().iter() {
        let after = pos.play_unchecked(m);
        let Some(child) = game_over(&after).or_else(|| proofs::known(&after)) else {
            all_known = false;
            continue;
        };
        let mine = Value::for_side(child.winner(!side), side);
        if best.is_none_or(|(b, _)| mine > b) {
            best = Some((mine, m));
        }
    }
    let (value, mv) = best?;
    if value != Value::Win && !all_known {
        return None;
    }
    Some(Proven {
        value,
        plies: None,
        line: if value == Value::Loss {
            Vec::new()
        } else {
            vec![mv]
        },
        source: Source::Book,
    })
}

/// The value that costs no search: a finished game, else the proof tables
/// ([`proofs::known`]; only with a distance, which the analysis writes).
pub fn instant_value(pos: &Position) -> Option<Proven> {
    game_over(pos).or_else(|| proofs::known_in_full(pos))
}

/// The value of a finished game, from the rules.
fn game_over(pos: &Position) -> Option<Proven> {
    let outcome = pos.outcome()?;
    Some(Proven {
        value: Value::for_side(outcome.winner, pos.side_to_move()),
        plies: Some(0),
        line: Vec::new(),
        source: Source::Rules,
    })
}

/// The value of `pos` when `played` is its only move and the position after
/// it is `next`: the opponent's result turned round, one ply further.
fn forced(pos: &Position, played: Option<&Move>, next: &Proven) -> Option<Proven> {
    let only = single_move(pos)?;
    if played != Some(&only) {
        return None;
    }
    let side = pos.side_to_move();
    Some(Proven {
        value: Value::for_side(next.winner(!side), side),
        plies: next.plies.map(|p| p + 1),
        line: std::iter::once(only)
            .chain(next.line.iter().copied())
            .collect(),
        source: Source::Forced,
    })
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
fn judge(line: &[Position], moves: &[Move], values: &[Option<Proven>]) -> Vec<MoveReport> {
    let first_side = line[0].side_to_move();
    // The mover's result in position `k`, whoever is to move there.
    let result_for = |side: Color, k: usize| {
        let known = values[k].as_ref()?;
        Some(Value::for_side(known.winner(line[k].side_to_move()), side))
    };
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let pos = &line[i];
            let side = pos.side_to_move();
            let verdict = if single_move(pos).is_some() {
                Verdict::Forced
            } else {
                match (result_for(side, i), result_for(side, i + 1)) {
                    (Some(now), Some(after)) if after < now => Verdict::Spoiled,
                    (Some(now), Some(_)) => {
                        let handed = i
                            .checked_sub(1)
                            .and_then(|p| result_for(side, p))
                            .is_some_and(|earlier| earlier < now);
                        if handed {
                            Verdict::Chance
                        } else {
                            Verdict::Kept
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
                before: values[i].clone(),
                after: values[i + 1].clone(),
                verdict,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
