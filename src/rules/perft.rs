//! perft: the number of move sequences of a given length, the standard check
//! of a move generator. A finished game has no continuations.

use super::moves::Move;
use super::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

/// Leaf count at `depth` plies, counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_decided() {
        return 0;
    }
    if depth == 1 {
        return pos.targets().count() as u64;
    }
    pos.legal_moves()
        .iter()
        .map(|m| perft(&pos.play_unchecked(*m), depth - 1))
        .sum()
}

/// The count below each root move, in move generation order; `None` if
/// `stop` was raised before it finished. The flag is read once per root move
/// and inside the deeper subtrees, so a stop is honoured promptly without
/// slowing the leaves.
pub fn perft_divide(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            Some((
                *m,
                perft_stoppable(&pos.play_unchecked(*m), depth - 1, stop)?,
            ))
        })
        .collect()
}

/// Below this depth a subtree is small enough to finish without looking at
/// the stop flag.
const STOP_CHECK_DEPTH: u32 = 5;

fn perft_stoppable(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if pos.is_decided() {
        return Some(0);
    }
    pos.legal_moves()
        .iter()
        .map(|m| perft_stoppable(&pos.play_unchecked(*m), depth - 1, stop))
        .sum()
}
