//! Making the keep set: seeded random walks into every opening, each
//! position's value and every move labelled by the solver.

use super::{Case, Entry, Slot};
use crate::proofs::openings::Openings;
use crate::rng::Rng;
use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::{SolveLimits, Solver, Value};
use crate::stop::Stop;
use std::collections::HashSet;

/// How a set is sampled and labelled.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    pub seed: u64,
    /// Samples per opening and side to move.
    pub per_side: u32,
    /// Walks tried per slot before it is recorded as `none`.
    pub attempts: u32,
    /// The budget of each proof (the value, then each move).
    pub limits: SolveLimits,
    /// Only positions the engine has to play without a proof: neither the
    /// proof tables nor a fresh solver (a new session's table, one thread)
    /// within this many ms decide them. Where no proof comes, the engine's
    /// fallback is all that stands between it and a spoil, which such a
    /// set measures alone.
    pub hard_ms: Option<u64>,
    /// A new session's table size, MiB: the fresh solver of `hard_ms`.
    pub session_mib: usize,
    /// The walks' lengths, fewest and most plies (the committed sets: 1
    /// to 4).
    pub plies: (u32, u32),
}

/// Whether the engine would have to play `pos` without a proof: the tables
/// do not know it and a fresh solver with a table of `mib` MiB does not
/// decide it within `ms`.
pub fn unproven_within(pos: &Position, ms: u64, mib: usize, stop: &Stop) -> bool {
    if crate::proofs::known(pos).is_some() {
        return false;
    }
    let limits = SolveLimits {
        nodes: None,
        movetime_ms: Some(ms),
    };
    Solver::new(mib).decide(pos, &limits, stop).is_none()
}

/// Whether `pos` lies on an opening's line in the openings table (its
/// start included), which the set leaves out: the table answers there.
pub(super) fn on_the_line(pos: &Position) -> bool {
    Openings::builtin().along_line(pos).is_some()
}

/// A random walk for `slot`: `plies.0` to `plies.1` plies, ending with
/// `slot.side` to move, off the table's line and with the game still going.
pub(super) fn walk(
    gaps: Gaps,
    slot: Slot,
    attempt: u32,
    (seed, plies): (u64, (u32, u32)),
) -> Option<(Vec<Move>, Position)> {
    let mut rng = Rng::new(&[
        seed,
        u64::from(gaps.white) << 8 | u64::from(gaps.black),
        slot.side.index() as u64,
        u64::from(slot.index),
        u64::from(attempt),
    ]);
    // White moves first: white is to move after an even number of plies.
    let parity = match slot.side {
        Color::White => 0,
        Color::Black => 1,
    };
    let lengths: Vec<u32> = (plies.0..=plies.1).filter(|p| p % 2 == parity).collect();
    if lengths.is_empty() {
        return None;
    }
    let plies = lengths[rng.below(lengths.len())];
    let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let list = pos.legal_moves();
        if list.is_empty() || pos.is_decided() {
            return None;
        }
        let m = list[rng.below(list.len())];
        pos = pos.play_unchecked(m);
        moves.push(m);
    }
    if pos.is_decided() || pos.legal_moves().is_empty() || on_the_line(&pos) {
        return None;
    }
    Some((moves, pos))
}

/// The value of `pos` for the side to move by one-window proofs, `None` if
/// a budget ran out.
fn decide(solver: &mut Solver, pos: &Position, o: &MakeOptions, stop: &Stop) -> Option<Value> {
    if solver.at_least(pos, Value::Win, &o.limits, stop)? {
        return Some(Value::Win);
    }
    Some(if solver.at_least(pos, Value::Draw, &o.limits, stop)? {
        Value::Draw
    } else {
        Value::Loss
    })
}

/// Labels each legal move of `pos`, whose value for the side to move is
/// `value` (a win or a draw): (keep, spoil, unknown).
pub fn label_moves(
    solver: &mut Solver,
    pos: &Position,
    value: Value,
    limits: &SolveLimits,
    stop: &Stop,
) -> (Vec<Move>, Vec<Move>, Vec<Move>) {
    // The opponent's threshold: a win for us needs every child lost for
    // them; a draw needs every child not won by them.
    let theirs = match value {
        Value::Win => Value::Draw,
        _ => Value::Win,
    };
    let (mut keep, mut spoil, mut unknown) = (Vec::new(), Vec::new(), Vec::new());
    for &m in pos.legal_moves().iter() {
        let child = pos.play_unchecked(m);
        match solver.at_least(&child, theirs, limits, stop) {
            Some(false) => keep.push(m),
            Some(true) => spoil.push(m),
            None => unknown.push(m),
        }
    }
    (keep, spoil, unknown)
}

/// Labels one slot: the first walk whose position gives the side to move a
/// win or draw within the budget, or `None` after `o.attempts` walks. A
/// walk to a position in `taken` (the keys of the set's positions so far)
/// is passed over: the walks' seeds fold a slot's number and its attempt's
/// into one state without hashing them ([`Rng::new`]), so one slot's walk
/// can be another's later attempt, and where the hard filter turns most
/// walks away, slot after slot of an opening settled on the same walk
/// (19 of 42 in a deep hard set made without this check).
pub fn make_slot(
    solver: &mut Solver,
    gaps: Gaps,
    slot: Slot,
    o: &MakeOptions,
    taken: &HashSet<u64>,
    stop: &Stop,
) -> Entry {
    for attempt in 0..o.attempts {
        let Some((moves, pos)) = walk(gaps, slot, attempt, (o.seed, o.plies)) else {
            continue;
        };
        if taken.contains(&pos.hash()) {
            continue;
        }
        if o.hard_ms
            .is_some_and(|ms| !unproven_within(&pos, ms, o.session_mib, stop))
        {
            continue;
        }
        let value = match decide(solver, &pos, o, stop) {
            Some(v @ (Value::Win | Value::Draw)) => v,
            // A loss keeps itself; an unproven value labels nothing.
            _ => continue,
        };
        let (keep, spoil, unknown) = label_moves(solver, &pos, value, &o.limits, stop);
        if keep.is_empty() {
            continue;
        }
        return Entry::Case(Case {
            gaps,
            slot,
            moves,
            value,
            keep,
            spoil,
            unknown,
        });
    }
    Entry::None(gaps, slot)
}

/// Every slot of a set with `per_side` samples per opening and side, in a
/// fixed order (shards take every n-th).
pub fn slots(per_side: u32) -> Vec<(Gaps, Slot)> {
    let mut out = Vec::new();
    for index in 0..per_side {
        for gaps in Gaps::all(RuleSet::PAWNRACE.width()) {
            for side in [Color::White, Color::Black] {
                out.push((gaps, Slot { side, index }));
            }
        }
    }
    out
}
