//! Perfect play: before it searches, the engine looks for a proof of the
//! position's value, first in the proof tables ([`crate::proofs::known`]:
//! the openings table's lines, then the book), then from the exact solver
//! within a share of its time. A move from the tables leaves the move's
//! time to the next move (`ahead`: the position after it proved, where
//! some reply leads out of the tables).
//!
//! The solver first decides the value alone (null-window proofs, far
//! cheaper than the distance) with a move that keeps it, then spends what is left
//! of its share on the distance, so that the winner takes the shortest win
//! and the loser the longest loss when there is time. Keeping the value is
//! what matters: a win kept is a win, however long.
//!
//! When no proof comes in time, what the solver's table proved of single
//! moves on the way is still used: a move proven to win is played, then a
//! move proven to hold at least a draw (the decision asks that first, so
//! that a cut-off win question leaves one), and otherwise moves proven
//! worse than another are left out of the search (`bounds`).
//!
//! Only searches with a clock do this, and pondering (`go ponder`), which
//! proves for as long as the opponent thinks: the table it leaves makes the
//! proof at `ponderhit` quick. `go depth` and `go nodes` stay a plain
//! search, whose node counts are a signature of its behaviour.

use super::report::{Score, SearchInfo, SearchResult, proven_score};
use super::resist::{self, Resistance};
use super::time::{Budget, Clock, Limits};
use crate::proofs;
use crate::proofs::traps::Traps;
use crate::rules::{Move, Position};
use crate::solver::{Proven, SolveLimits, Solver, Standing, Value};
use crate::stop::Stop;
use bounds::{decide_with_the_search_time, from_bounds};
pub(super) use tally::Tally;

/// The search's own time in a move: the solver gets what the move's time
/// has beyond it, but at least half ([`solver_share`]).
///
/// With the search asking the race rules at every node (a stronger search
/// for its nodes), a short move is better spent searching: on the keep set
/// (a fresh engine per position, builds run two at a time) the solver's
/// seven eighths kept 197 and 200 of 256 at 200 ms, four eighths 208, one
/// eighth 216. At 1000 ms the share hardly matters (7/8: 224, 224, 218; 4/8:
/// 222; 1/8: 218), and in games, where the solver's table carries over
/// from move to move, its time pays: against the depth-3 autorunner at 1 s
/// a move, 7/8 spoiled 8 proven results in 128 games where 1/8 spoiled 12
/// (2026-11-24).
///
/// Since 2026-11-26 the solver gets more. The book has since taken the keep
/// set's positions (one to four plies in) off the solver's hands, and
/// five to eight plies in, where games leave the book, proofs come
/// quicker. At 200 ms, half the move rather than an eighth: on the deep
/// set half kept 248, 245, 248 and 246 of 256 where an eighth kept 242
/// twice (all of it, the search left nothing: 249, 248); on the deep hard
/// set, the rare positions no proof reaches within 825 ms, the search's
/// time counts (23 and 26 of 45 at half against 27; all of it: 15), so
/// not all. At 1000 ms, 925 rather than 825: the deep set's one spoil, EE
/// w1 (only the quiet h3h4 wins; the decision takes 1.1 s alone), was
/// kept in 5 runs of 5 where 175 ms of search kept it in 1 of 5, every
/// other deep position either way; the hard set (2026-11-25) kept 79 of 81
/// twice against 76 twice. 75 and 175 ms of search did the same at 200 ms
/// (deep set 246 and 247, deep hard set 26 and 23).
const SEARCH_MS: u64 = 75;

/// The solver's share of a move's `total` ms ([`SEARCH_MS`]).
fn solver_share(total: u64) -> u64 {
    total.saturating_sub(SEARCH_MS).max(total / 2).max(1)
}

/// What the proofs leave to the search: the course it takes.
pub(super) enum Course {
    /// A move that keeps the proven value: play it.
    Play(SearchResult),
    /// No proof of the position: search, leaving out these moves (each
    /// proven worse than another move).
    Search { avoid: Vec<Move> },
}

/// A proven move, or what the search should leave out. The engine's solver
/// is asked for (`solver`, which makes it on first use) when the tables do
/// not know the position, or to think ahead after their move (kept to
/// `go searchmoves`); without a clock nothing is looked up.
/// The solver's progress and the proven move's line go to `tally`, which
/// keeps the nodes spent.
fn proven<'s>(
    solver: impl FnOnce() -> &'s mut Solver,
    pos: &Position,
    budget: &Budget,
    limits: &Limits,
    resistance: Resistance,
    stop: &Stop,
    tally: &mut Tally<'_>,
) -> Course {
    let (ponder, searchmoves) = (limits.ponder, &limits.searchmoves);
    let nothing = Course::Search { avoid: Vec::new() };
    let clock = tally.clock;
    // Pondering proves until stopped; otherwise the clock gives a share.
    let share = match (budget.total_ms(), ponder) {
        (_, true) => None,
        (Some(total), false) => Some(solver_share(total)),
        (None, false) => return nothing,
    };
    // Near the start, where the tables answer, the proofs a trap needs take
    // seconds: the traps there were chosen ahead of time. Elsewhere the
    // tables' losses are played as they are: their line is the longest loss.
    if resistance == Resistance::Practical
        && let Some(t) = Traps::builtin().get(pos)
    {
        let line = &mut |i: &SearchInfo| tally.searched(i);
        let proven = Standing::new(t.value, None);
        if let Some(course) = play(pos, Some(proven), vec![t.mv], 0, clock, line) {
            return course;
        }
    }
    if let Some(e) = proofs::known(pos) {
        if let Some(&mv) = e.line.first()
            && pos.is_legal(mv)
            && (searchmoves.is_empty() || searchmoves.contains(&mv))
        {
            let until = if ponder { None } else { budget.total_ms() };
            let traps = resistance == Resistance::Practical;
            ahead::think(solver(), pos, mv, until, traps, stop, tally);
        }
        let nodes = tally.nodes;
        let line = &mut |i: &SearchInfo| tally.searched(i);
        return play(pos, Some(e.standing()), e.line, nodes, clock, line).unwrap_or(nothing);
    }
    let solver = solver();
    // What is left of the share: the clock may have started before the
    // search did (a command that waited for a search slot).
    let decided =
        solver.decide_reporting(pos, &within(share, clock), stop, &mut |p| tally.proving(p));
    tally.spent(solver);
    let decided = match decided {
        Some(d) => Ok(d),
        None => decide_with_the_search_time(solver, pos, budget, ponder, stop, tally),
    };
    let decided: Proven = match decided {
        Ok(d) => d,
        Err(bounds) => {
            let nodes = tally.nodes;
            let line = &mut |i: &SearchInfo| tally.searched(i);
            return from_bounds(pos, &bounds, nodes, clock, line);
        }
    };
    if resistance == Resistance::Practical && decided.value != Value::Win {
        // Up to three quarters of what is left: should no move set a trap,
        // the longest loss gets the rest of the share.
        let traps = share.map(|t| t - clock.left_ms(t) / 4);
        if let Some(c) = trap(solver, pos, decided.value, traps, stop, tally) {
            return c;
        }
    }
    // The distance, with what is left of the share.
    let solved = solver.solve(pos, &within(share, clock), stop, &mut |p| tally.proving(p));
    tally.spent(solver);
    let nodes = tally.nodes;
    let line = &mut |i: &SearchInfo| tally.searched(i);
    if let Some(s) = solved
        && let Some(r) = play(pos, Some(s.standing()), s.line, nodes, clock, line)
    {
        return r;
    }
    match decided.line.first() {
        Some(&m) => {
            play(pos, Some(decided.standing()), vec![m], nodes, clock, line).unwrap_or(nothing)
        }
        // A loss whose distance is not known: the search holds out as it can.
        None => nothing,
    }
}

/// The practical move in a position proven to have `value` (a loss or a
/// draw), chosen until `until` ms on the go's clock ([`resist::choose`]);
/// none while pondering, which has no deadline to choose by.
fn trap(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    until: Option<u64>,
    stop: &Stop,
    tally: &mut Tally<'_>,
) -> Option<Course> {
    let clock = tally.clock;
    let model = &resist::ModelSettings::IN_PLAY;
    let chosen = resist::choose(solver, pos, value, model, until?, clock, stop)?;
    tally.nodes += chosen.nodes;
    let nodes = tally.nodes;
    let line = &mut |i: &SearchInfo| tally.searched(i);
    play(
        pos,
        Some(Standing::new(value, None)),
        vec![chosen.mv],
        nodes,
        clock,
        line,
    )
}

/// What a `go` plays from its proofs: `go mate`'s ([`mate`]) or the usual
/// ones ([`proven`]), kept to `go searchmoves` ([`within_searchmoves`]).
pub(super) fn course<'s>(
    solver: impl FnOnce() -> &'s mut Solver,
    pos: &Position,
    limits: &Limits,
    budget: &Budget,
    resistance: Resistance,
    stop: &Stop,
    tally: &mut Tally<'_>,
) -> Course {
    let course = match limits.mate {
        Some(_) => {
            let bounds = SolveLimits {
                nodes: limits.nodes,
                movetime_ms: budget.total_ms(),
            };
            mate(solver, pos, bounds, stop, tally).unwrap_or(Course::Search { avoid: Vec::new() })
        }
        None => proven(solver, pos, budget, limits, resistance, stop, tally),
    };
    within_searchmoves(course, pos, &limits.searchmoves)
}

/// `go mate N`: a win within N moves (2N - 1 plies) from the tables
/// or the exact solver, which proves the position's value and distance
/// (so also that there is no such win). The proven move is played either
/// way, announced with its proven value: a win in more moves, a draw or a
/// loss says there is no mate in N. `None` when nothing was proven within
/// `limits` (or `stop` came first): the search plays instead.
fn mate<'s>(
    solver: impl FnOnce() -> &'s mut Solver,
    pos: &Position,
    limits: SolveLimits,
    stop: &Stop,
    tally: &mut Tally<'_>,
) -> Option<Course> {
    let clock = tally.clock;
    let known = proofs::known_in_full(pos);
    let (proof, nodes) = match known {
        Some(e) => (e, 0),
        None => {
            let solver = solver();
            let found = solver.solve(pos, &limits, stop, &mut |p| tally.proving(p));
            tally.spent(solver);
            (found?, tally.nodes)
        }
    };
    let line = &mut |i: &SearchInfo| tally.searched(i);
    play(pos, Some(proof.standing()), proof.line, nodes, clock, line)
}

/// The course kept to `searchmoves` (none: every move): a proven move
/// outside them gives way to a search among them, which also leaves out
/// what the proofs showed worse, unless that is every one of them.
pub(super) fn within_searchmoves(course: Course, pos: &Position, searchmoves: &[Move]) -> Course {
    if searchmoves.is_empty() {
        return course;
    }
    let avoid = match course {
        Course::Play(result) if result.best.is_some_and(|b| searchmoves.contains(&b)) => {
            return Course::Play(result);
        }
        Course::Play(_) => Vec::new(),
        Course::Search { avoid } => avoid,
    };
    let outside = |m: &Move| !searchmoves.contains(m);
    let worse: Vec<Move> = avoid.iter().copied().filter(|m| !outside(m)).collect();
    let kept_worse = worse.len() < searchmoves.len();
    let avoid = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|m| outside(m) || (kept_worse && worse.contains(m)))
        .collect();
    Course::Search { avoid }
}

/// The solver's limits for what is left of `total` ms on `clock` (at
/// least 1 ms), or none where `total` is none. The one place a proof's
/// time left is worked out.
fn within(total: Option<u64>, clock: &Clock) -> SolveLimits {
    SolveLimits {
        nodes: None,
        movetime_ms: total.map(|t| clock.left_ms(t).max(1)),
    }
}

/// Playing `pv`'s first move, announced with its proven result (value,
/// and distance where known), or without a proof (`None`) as an estimate
/// of level; `None` if the line does not start with a legal move.
fn play(
    pos: &Position,
    proven: Option<Standing>,
    pv: Vec<Move>,
    nodes: u64,
    clock: &Clock,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<Course> {
    let best = *pv.first()?;
    if !pos.is_legal(best) {
        return None;
    }
    let score = proven.map_or(Score::Cp(0), proven_score);
    let depth = proven.and_then(|p| p.plies).unwrap_or(pv.len() as u32);
    info(&SearchInfo {
        depth,
        seldepth: pv.len() as u32,
        score,
        nodes,
        time_ms: clock.elapsed_ms(),
        pv: pv.clone(),
        proven,
        multipv: 0,
    });
    Some(Course::Play(SearchResult {
        best: Some(best),
        score,
        depth,
        nodes,
        pv,
    }))
}

mod ahead;
mod bounds;
mod tally;
#[cfg(test)]
mod tests;
