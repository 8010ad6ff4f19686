//! Making tuning samples: seeded walks into every opening, each ending
//! position labelled by the solver when it is one the search's evaluation
//! would be asked about.

use super::{Line, Sample};
use crate::eval::{evaluate_leaf, threatens_win};
use crate::rng::Rng;
use crate::rules::{Gaps, Position, RuleSet};
use crate::solver::{SolveLimits, Solver, Value, race_verdict};
use crate::stop::Stop;

/// How samples are walked and labelled.
#[derive(Clone, Debug)]
pub struct MakeOptions {
    pub seed: u64,
    /// The budget of each of the (up to two) proofs of a sample's value.
    pub limits: SolveLimits,
}

/// Plies a walk plays: from the first moves, where the keep set's
/// positions are, to the middle game, where the search's leaves are.
const PLIES: std::ops::RangeInclusive<usize> = 4..=27;

/// One in this many of a walk's moves is uniformly random; the others are
/// the mover's best by the leaf evaluation, with some noise, so that walks
/// look like play rather than like the random walks of the keep set.
const RANDOM_ONE_IN: usize = 4;

/// Noise added to each move's evaluation in a walk, centipawns.
const NOISE: usize = 80;

/// Plies a walk goes on past its length looking for a position the search
/// would evaluate (most middle-game positions have a capture on).
const QUIET_WITHIN: usize = 8;

/// Walk number `index`: its opening (every opening in turn) and the first
/// position from its drawn length on that the search would evaluate, if
/// one comes within a few plies (`QUIET_WITHIN`) and the game is still going.
pub fn walk(index: u64, seed: u64) -> Option<Position> {
    let all: Vec<Gaps> = Gaps::all(RuleSet::PAWNRACE.width()).collect();
    let gaps = all[(index % all.len() as u64) as usize];
    let mut rng = Rng::new(&[seed, index]);
    let plies = PLIES.start() + rng.below(PLIES.end() - PLIES.start() + 1);
    let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
    for ply in 0..plies + QUIET_WITHIN {
        if ply >= plies && evaluated(&pos) {
            return Some(pos);
        }
        let list = pos.legal_moves();
        if list.is_empty() || pos.is_decided() {
            return None;
        }
        let m = if rng.below(RANDOM_ONE_IN) == 0 {
            list[rng.below(list.len())]
        } else {
            *list.iter().max_by_key(|&&m| {
                -evaluate_leaf(&pos.play_unchecked(m)) + rng.below(NOISE) as i32
            })?
        };
        pos = pos.play_unchecked(m);
    }
    None
}

/// Whether the search would evaluate `pos` rather than settle it: the game
/// goes on, neither side wins in one, the race rules prove nothing, and
/// the side to move has no capture (a quiet position, as quiescence leaves
/// them).
fn evaluated(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let list = pos.legal_moves();
    !pos.is_decided()
        && !list.is_empty()
        && !threatens_win(pos, us)
        && !threatens_win(pos, !us)
        && list.iter().all(|m| m.from.file() == m.to.file())
        && race_verdict(pos).is_none()
}

/// Walk number `index`, labelled: a sample, or [`Line::None`] where the
/// walk ended in a position the search would not evaluate or the budget
/// could not prove.
pub fn make_sample(solver: &mut Solver, index: u64, o: &MakeOptions, stop: &Stop) -> Line {
    let Some(pos) = walk(index, o.seed) else {
        return Line::None(index);
    };
    let value = match solver.at_least(&pos, Value::Win, &o.limits, stop) {
        Some(true) => Value::Win,
        Some(false) => match solver.at_least(&pos, Value::Draw, &o.limits, stop) {
            Some(true) => Value::Draw,
            Some(false) => Value::Loss,
            None => return Line::None(index),
        },
        None => return Line::None(index),
    };
    Line::Sample(Sample { index, value, pos })
}
