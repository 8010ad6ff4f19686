//! Without a proof of the position in time: what the solver's table proved
//! of single moves on the way, and the search's time for the win question
//! where a draw is already in hand.

use super::{Course, Tally, play, within};
use crate::engine::report::SearchInfo;
use crate::engine::time::{Budget, Clock};
use crate::rules::Position;
use crate::solver::{MoveBounds, Proven, Solver, Standing, Value};
use crate::stop::Stop;

/// After a decision cut off at the end of the solver's share: with a draw
/// in hand and the win still open the search would add nothing
/// ([`held`]), so the win question gets the search's time too. The
/// decision, or what the table then proves of each move.
pub(super) fn decide_with_the_search_time(
    solver: &mut Solver,
    pos: &Position,
    budget: &Budget,
    ponder: bool,
    stop: &Stop,
    tally: &mut Tally<'_>,
) -> Result<Proven, Vec<MoveBounds>> {
    let bounds = solver.move_bounds(pos);
    if ponder || !holds_a_draw(&bounds) {
        return Err(bounds);
    }
    let limits = within(budget.total_ms(), tally.clock);
    let decided = solver.decide_reporting(pos, &limits, stop, &mut |p| tally.proving(p));
    tally.spent(solver);
    decided.ok_or_else(|| solver.move_bounds(pos))
}

/// No proof of the position: a move the table proves winning is played;
/// else a move it proves to hold at least a draw ([`held`]); otherwise the
/// search leaves out every move proven worse than another (below another's
/// proven floor, or a proven loss beside a move that may not lose).
pub(super) fn from_bounds(
    pos: &Position,
    bounds: &[MoveBounds],
    nodes: u64,
    clock: &Clock,
    info: &mut dyn FnMut(&SearchInfo),
) -> Course {
    if let Some(b) = bounds.iter().find(|b| b.at_least == Value::Win)
        && let Some(r) = play(
            pos,
            Some(Standing::new(Value::Win, None)),
            vec![b.mv],
            nodes,
            clock,
            info,
        )
    {
        return r;
    }
    if let Some(r) = held(pos, bounds, nodes, clock, info) {
        return r;
    }
    let floor = bounds
        .iter()
        .map(|b| b.at_least)
        .max()
        .unwrap_or(Value::Loss);
    let hope = bounds
        .iter()
        .map(|b| b.at_most)
        .max()
        .unwrap_or(Value::Loss);
    let avoid = bounds
        .iter()
        .filter(|b| b.at_most < floor || (b.at_most == Value::Loss && hope > Value::Loss))
        .map(|b| b.mv)
        .collect();
    Course::Search { avoid }
}

/// Whether the table proves a move holding at least a draw and none winning.
fn holds_a_draw(bounds: &[MoveBounds]) -> bool {
    bounds.iter().any(|b| b.at_least == Value::Draw)
        && bounds.iter().all(|b| b.at_least != Value::Win)
}

/// Some move is proven to hold at least a draw, as a decision cut off in
/// its win question leaves one (or an earlier proof of the game did): such
/// a move, one the win proof has not refuted first (the proof may be under
/// way on it), else one proven to draw exactly. Played as it is, an
/// estimate of level, not announced as a proof.
///
/// A draw in hand beats the search's guess here: in drawn positions the
/// evaluation looks as level as in the wins, and the search's guess loses
/// half of them. On `data/keep-hard.txt` (positions no proof settles in a
/// 1000 ms move) the engine kept 11 and 12 of the 14 draws this way
/// against 6 and 7, and as many wins (46 of 67 against 45).
fn held(
    pos: &Position,
    bounds: &[MoveBounds],
    nodes: u64,
    clock: &Clock,
    info: &mut dyn FnMut(&SearchInfo),
) -> Option<Course> {
    let holds = || bounds.iter().filter(|b| b.at_least == Value::Draw);
    let b = holds()
        .find(|b| b.at_most == Value::Win)
        .or_else(|| holds().next())?;
    play(pos, None, vec![b.mv], nodes, clock, info)
}
