//! Black's choice of gaps: the openings table's when it can tell, else a
//! search of every pair's start.

use super::report::{SearchResult, from_score};
use super::search::INFINITY;
use super::time::{Budget, Clock, Limits};
use crate::proofs::openings::Openings;
use crate::rules::{Gaps, Position, RuleSet};
use crate::stop::Stop;

/// The depth each pair is searched to when no time is given.
const GAPS_DEPTH: u32 = 6;

/// Black's choice of gaps: the openings table's when it can tell (a proven
/// black win, or every pair proven); otherwise every pair's start is
/// searched by `search` with white to move and the pair worst for white
/// wins; ties go to the first pair. `budget` is the whole choice's, on
/// `clock`.
pub(super) fn choose(
    rules: &RuleSet,
    limits: &Limits,
    budget: &Budget,
    clock: &Clock,
    stop: &Stop,
    search: &mut dyn FnMut(&Position, &Limits) -> SearchResult,
) -> Gaps {
    if let Some(gaps) = from_openings(rules) {
        return gaps;
    }
    let pairs: Vec<(Gaps, Position)> = Gaps::all(rules.width())
        .filter_map(|g| Position::start(*rules, Some(g)).ok().map(|p| (g, p)))
        .collect();
    let Some(&(first, _)) = pairs.first() else {
        return Gaps { white: 0, black: 0 };
    };
    let count = pairs.len() as u64;
    let per_pair = budget.total_ms().map(|ms| (ms / count).max(1));
    let mut sub = Limits {
        depth: if per_pair.is_some() {
            limits.depth
        } else {
            Some(limits.depth.unwrap_or(GAPS_DEPTH))
        },
        nodes: limits.nodes.map(|n| (n / count).max(1)),
        movetime_ms: per_pair,
        ..Limits::default()
    };
    let mut chosen = first;
    let mut worst = INFINITY;
    for (searched, (gaps, pos)) in pairs.into_iter().enumerate() {
        if stop.is_raised() {
            break;
        }
        // Each search runs a little past its share; sharing out what is
        // left, rather than a fixed slice, keeps 64 of them in budget.
        if let Some(total) = budget.total_ms() {
            let left = clock.left_ms(total);
            if left == 0 && searched > 0 {
                break;
            }
            sub.movetime_ms = Some((left / (count - searched as u64)).max(1));
        }
        let result = search(&pos, &sub);
        if stop.is_raised() {
            // An interrupted search's score is not comparable.
            break;
        }
        let value = from_score(result.score);
        if value < worst {
            worst = value;
            chosen = gaps;
        }
    }
    chosen
}

/// Black's choice of gaps by the table (see [`Openings::best_for_black`]).
fn from_openings(rules: &RuleSet) -> Option<Gaps> {
    (*rules == RuleSet::PAWNRACE)
        .then(|| Openings::builtin().best_for_black(rules.width()))
        .flatten()
}
