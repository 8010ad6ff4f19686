//! perft: the number of move sequences of a given length, the standard check
//! of a move generator. A finished game has no continuations.
//!
//! The counting loop works on bare bitboards with the side to move as a type,
//! so that no position is copied and every shift direction is known at
//! compile time; `tests/reference_movegen.rs` and the perft tests hold it to
//! the same answers as [`Position::legal_moves`].

use super::moves::Move;
use super::position::Position;
use super::ruleset::RuleSet;
use super::square::{Bitboard, Color};
use crate::stop::Stop;

/// Leaf count at `depth` plies, counting the last ply in bulk.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_counting::<true>(pos, depth)
}

/// The same count, making every last-ply move instead of counting the last
/// ply in bulk: the figure that measures making moves, for benchmarks.
pub fn perft_every_leaf(pos: &Position, depth: u32) -> u64 {
    perft_counting::<false>(pos, depth)
}

fn perft_counting<const BULK: bool>(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_decided() {
        return 0;
    }
    let masks = Masks::of(pos.rules());
    let white = pos.pawns(Color::White).0;
    let black = pos.pawns(Color::Black).0;
    let ep = pos.en_passant().map_or(0, |sq| sq.bb().0);
    match pos.side_to_move() {
        Color::White => count::<White, BULK>(&masks, white, black, ep, depth),
        Color::Black => count::<Black, BULK>(&masks, black, white, ep, depth),
    }
}

/// The count below each root move, in move generation order; `None` if
/// `stop` was raised before it finished. The flag is read once per root move
/// and inside the deeper subtrees, so a stop is honoured promptly without
/// slowing the leaves.
pub fn perft_divide(pos: &Position, depth: u32, stop: &Stop) -> Option<Vec<(Move, u64)>> {
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
const STOP_CHECK_DEPTH: u32 = 6;

fn perft_stoppable(pos: &Position, depth: u32, stop: &Stop) -> Option<u64> {
    if depth < STOP_CHECK_DEPTH {
        return Some(perft(pos, depth));
    }
    if stop.poll() {
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

/// What the counting loop needs of the rules, as bare words.
struct Masks {
    board: u64,
    goal: [u64; 2],
    double_from: [u64; 2],
    en_passant: bool,
}

impl Masks {
    fn of(rules: &RuleSet) -> Masks {
        Masks {
            board: rules.board().0,
            goal: [rules.goal(Color::White).0, rules.goal(Color::Black).0],
            double_from: [
                rules.double_from(Color::White).0,
                rules.double_from(Color::Black).0,
            ],
            en_passant: rules.en_passant(),
        }
    }
}

/// The side to move, as a type: its shifts are constants.
trait Side {
    type Other: Side;
    const INDEX: usize;
    /// One rank forward.
    fn up(b: u64) -> u64;
    /// One rank back.
    fn down(b: u64) -> u64;
    /// Forward and towards the a-file.
    fn up_left(b: u64) -> u64;
    /// Forward and towards the h-file.
    fn up_right(b: u64) -> u64;
}

struct White;
struct Black;

const NOT_A: u64 = !Bitboard::FILE_A.0;
const NOT_H: u64 = !Bitboard::FILE_H.0;

impl Side for White {
    type Other = Black;
    const INDEX: usize = 0;
    fn up(b: u64) -> u64 {
        b << 8
    }
    fn down(b: u64) -> u64 {
        b >> 8
    }
    fn up_left(b: u64) -> u64 {
        (b & NOT_A) << 7
    }
    fn up_right(b: u64) -> u64 {
        (b & NOT_H) << 9
    }
}

impl Side for Black {
    type Other = White;
    const INDEX: usize = 1;
    fn up(b: u64) -> u64 {
        b >> 8
    }
    fn down(b: u64) -> u64 {
        b << 8
    }
    fn up_left(b: u64) -> u64 {
        (b & NOT_A) >> 9
    }
    fn up_right(b: u64) -> u64 {
        (b & NOT_H) >> 7
    }
}

/// Isolates each set bit in turn.
fn bits(mut b: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        let low = b & b.wrapping_neg();
        b ^= low;
        (low != 0).then_some(low)
    })
}

/// Leaves below a live position (`us` to move, neither side has won yet).
/// Moves that end the game lead to positions with no continuation, so above
/// the last ply they add nothing and are skipped before recursing. With
/// `BULK` the last ply is counted from the target sets; without it every
/// leaf is made and reached.
fn count<S: Side, const BULK: bool>(m: &Masks, us: u64, them: u64, ep: u64, depth: u32) -> u64 {
    if !BULK && depth == 0 {
        // Keeps the made position alive, or the compiler would drop the
        // making and this would be bulk counting in disguise.
        std::hint::black_box((us, them, ep));
        return 1;
    }
    let empty = m.board & !(us | them);
    let single = S::up(us) & empty;
    let double = S::up(single & m.double_from[S::INDEX]) & empty;
    let targets = them | ep;
    let left = S::up_left(us) & targets;
    let right = S::up_right(us) & targets;
    if BULK && depth == 1 {
        return (single.count_ones() + double.count_ones() + left.count_ones() + right.count_ones())
            as u64;
    }
    let next = depth - 1;
    // On the last ply a game-ending move is a leaf like any other.
    let goal = if next == 0 { 0 } else { m.goal[S::INDEX] };
    let mut total = 0;
    for to in bits(single & !goal) {
        total += count::<S::Other, BULK>(m, them, us ^ to ^ S::down(to), 0, next);
    }
    for to in bits(double) {
        let from = S::down(S::down(to));
        // Record the passed square only when an enemy pawn stands beside the
        // landing square, as `Position::play_unchecked` does.
        let beside = ((to & NOT_A) >> 1 | (to & NOT_H) << 1) & them;
        let child_ep = if m.en_passant && beside != 0 {
            S::down(to)
        } else {
            0
        };
        total += count::<S::Other, BULK>(m, them, us ^ to ^ from, child_ep, next);
    }
    // A capture towards the a-file came from one file to the right, and the
    // other way round; an en passant victim stands just behind `to`.
    for (set, file_back) in [(left, 1i32), (right, -1)] {
        for to in bits(set & !goal) {
            let behind = S::down(to);
            let from = if file_back > 0 {
                behind << 1
            } else {
                behind >> 1
            };
            let victim = if to & them != 0 { to } else { behind };
            let them_after = them ^ victim;
            if them_after != 0 || next == 0 {
                total += count::<S::Other, BULK>(m, them_after, us ^ to ^ from, 0, next);
            }
        }
    }
    total
}
