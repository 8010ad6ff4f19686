//! Values proven ahead of time (the proof tables above the solver), as the
//! proof search reads them: a position's value, and its distance where that
//! is known, as bounds on its score.
//!
//! The solver sits below the tables, so it takes them as plain data: the
//! caller (`proofs::values`) hands over positions with their values, and
//! the search asks this index wherever its own table knows nothing of a
//! position, as it asks the race rules. A value alone (most of the book)
//! bounds the score on one side of the draw, which settles any question
//! asked on the other side: in a proof that white wins within so many
//! plies, a black reply reaching a position the book proves white does not
//! win refutes the line at once. A distance settles the score outright.
//!
//! The positions are near the start, so nearly every node of a deep proof
//! lies beyond them; a few cheap counts (the pawns on the board, how far
//! each side's have come) keep those nodes from looking at all.

use super::Value;
use crate::eval::score::SOLVER_WIN;
use crate::eval::{rank_counts, steps_to_goal};
use crate::rules::{Color, Position, RuleSet, Square};

/// The longest distance kept as such; longer ones are kept as values alone.
const MAX_PLIES: u32 = 120;
/// A win, or a loss, of unknown distance.
const WIN: i8 = 127;
/// The key bits that pick a bucket: some five keys a bucket for the
/// compiled-in tables.
const BUCKET_BITS: u32 = 17;

/// Proven values of positions of one rule set, by the positions' keys.
#[derive(Clone, Debug)]
pub struct Known {
    rules: RuleSet,
    /// Sorted, each once.
    keys: Vec<u64>,
    /// Where the keys of each bucket (their top [`BUCKET_BITS`] bits)
    /// start in `keys`, and after the last, where they end: a lookup reads
    /// one bucket's few keys, where a binary search over all of them
    /// waited on memory at every step (the solver ran at a third of its
    /// speed).
    starts: Vec<u32>,
    /// Beside each key: its value for the side to move, as a win in `k`
    /// plies (`k`), a loss in `k` (`-k`), a draw (0), or a win or loss of
    /// unknown distance (`±WIN`).
    values: Vec<i8>,
    /// The [`shape`]s of the positions held, as a bit set.
    shapes: Vec<u64>,
}

impl Known {
    /// The index of `proven`: positions of `rules`, each with its value for
    /// the side to move and the distance where it is known. Each position's
    /// file mirror is held too (it has the same value). Positions of other
    /// rules are left out.
    pub fn new(
        rules: RuleSet,
        proven: impl IntoIterator<Item = (Position, Value, Option<u32>)>,
    ) -> Known {
        let mut entries: Vec<(u64, i8)> = Vec::new();
        let mut shapes = vec![0u64; SHAPES / 64];
        for (pos, value, plies) in proven {
            if *pos.rules() != rules {
                continue;
            }
            let code = encode(value, plies);
            // A mirror has the same shape.
            let shape = shape(&pos);
            shapes[shape / 64] |= 1 << (shape % 64);
            for p in [pos, pos.mirror_files()] {
                entries.push((p.hash(), code));
            }
        }
        entries.sort_unstable_by_key(|&(key, _)| key);
        entries.dedup_by_key(|&mut (key, _)| key);
        let mut starts = Vec::with_capacity((1 << BUCKET_BITS) + 1);
        let mut at = 0;
        for bucket in 0..=(1u64 << BUCKET_BITS) {
            while at < entries.len() && self::bucket(entries[at].0) < bucket {
                at += 1;
            }
            starts.push(at as u32);
        }
        Known {
            rules,
            starts,
            keys: entries.iter().map(|&(key, _)| key).collect(),
            values: entries.iter().map(|&(_, code)| code).collect(),
            shapes,
        }
    }

    /// Positions held, their mirrors counted.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The value of `pos` for the side to move, with its distance where
    /// it is held; `None` where the position is not held.
    pub fn get(&self, pos: &Position) -> Option<(Value, Option<u32>)> {
        self.code(pos, pos.hash()).map(decode)
    }

    /// Bounds on the score of `pos` (whose key is `key`) for the side to
    /// move, in the solver's node-relative units: `(lo, hi)`.
    pub(super) fn bounds(&self, pos: &Position, key: u64) -> Option<(i32, i32)> {
        self.code(pos, key)
            .map(|code| score_bounds(decode(code), pos))
    }

    /// The value code held for `pos`, whose key is `key`.
    fn code(&self, pos: &Position, key: u64) -> Option<i8> {
        let shape = shape(pos);
        if self.shapes[shape / 64] & (1 << (shape % 64)) == 0 || *pos.rules() != self.rules {
            return None;
        }
        let b = bucket(key) as usize;
        let (from, to) = (self.starts[b] as usize, self.starts[b + 1] as usize);
        let i = from + self.keys[from..to].iter().position(|&k| k == key)?;
        Some(self.values[i])
    }
}

fn bucket(key: u64) -> u64 {
    key >> (64 - BUCKET_BITS)
}

fn encode(value: Value, plies: Option<u32>) -> i8 {
    let distance = plies.filter(|&k| (1..=MAX_PLIES).contains(&k));
    match (value, distance) {
        (Value::Draw, _) => 0,
        (Value::Win, Some(k)) => k as i8,
        (Value::Win, None) => WIN,
        (Value::Loss, Some(k)) => -(k as i8),
        (Value::Loss, None) => -WIN,
    }
}

/// The value and distance a code stands for ([`encode`]'s inverse).
fn decode(code: i8) -> (Value, Option<u32>) {
    let distance = (code.unsigned_abs() != WIN as u8).then(|| u32::from(code.unsigned_abs()));
    match code {
        0 => (Value::Draw, None),
        c if c > 0 => (Value::Win, distance),
        _ => (Value::Loss, distance),
    }
}

/// The score bounds a value stands for in `pos`: a win or loss of unknown
/// distance comes within the most plies the game can still last.
fn score_bounds((value, distance): (Value, Option<u32>), pos: &Position) -> (i32, i32) {
    match (value, distance) {
        (Value::Draw, _) => (0, 0),
        (Value::Win, Some(k)) => (SOLVER_WIN - k as i32, SOLVER_WIN - k as i32),
        (Value::Win, None) => (SOLVER_WIN - longest(pos), SOLVER_WIN - 1),
        (Value::Loss, Some(k)) => (-(SOLVER_WIN - k as i32), -(SOLVER_WIN - k as i32)),
        (Value::Loss, None) => (-SOLVER_WIN, -(SOLVER_WIN - longest(pos))),
    }
}

/// The most plies the game from `pos` can last: every move takes a pawn a
/// rank nearer its goal, and the game ends once one is there.
fn longest(pos: &Position) -> i32 {
    let steps = |color: Color| -> u32 {
        pos.pawns(color)
            .map(|sq: Square| steps_to_goal(pos, color, sq))
            .sum()
    };
    (steps(Color::White) + steps(Color::Black)) as i32
}

/// How many shapes [`shape`] tells apart.
const SHAPES: usize = 64 * 64 * 64;

/// A position's shape: how many pawns each side has and how far they have
/// come (the sum of the white pawns' ranks, and of the black pawns' from
/// the top rank, counted from 0), each folded into 0..64. A move changes
/// it, so the positions held, near the start, have few shapes, and a
/// position of another shape, as nearly every node deep in a proof is, is
/// not looked up at all.
fn shape(pos: &Position) -> usize {
    // Per rank, the pawns on it; then the ranks weighted by those counts
    // in one multiplication, whose top byte is the weighted sum (exact
    // while a side has at most 36 pawns; past that the shape is only less
    // telling, the same for the same position).
    let weighted = |b: u64| (rank_counts(b).wrapping_mul(0x0001_0203_0405_0607) >> 56) as usize;
    let (white, black) = (pos.pawns(Color::White), pos.pawns(Color::Black));
    let ahead = weighted(white.0);
    let behind = 7 * black.count() as usize - weighted(black.0);
    let count = (white.count() + black.count()) as usize;
    (count % 64) << 12 | (ahead % 64) << 6 | (behind % 64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::pawnrace as pos;

    #[test]
    fn a_shape_counts_pawns_and_ranks_from_each_side_s_own_edge() {
        let shape = |count: usize, ahead: usize, behind: usize| count << 12 | ahead << 6 | behind;
        // White on rank 2 (1 each), black on rank 7 (1 each).
        assert_eq!(
            shape_of("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -"),
            shape(14, 7, 7)
        );
        // e4 (3) and d5 for black (3).
        assert_eq!(shape_of("8/8/8/3p4/4P3/8/8/8 w -"), shape(2, 3, 3));
        // Several pawns on one rank.
        assert_eq!(shape_of("8/PPPPPPP1/8/8/8/8/8/8 b -"), shape(7, 42, 0));
        assert_eq!(shape_of("8/8/8/8/8/8/ppppppp1/8 w -"), shape(7, 0, 42));
    }

    fn shape_of(fen: &str) -> usize {
        shape(&pos(fen))
    }

    #[test]
    fn values_and_distances_read_back_as_bounds_mirrors_too() {
        let win = pos("8/1p6/8/8/8/8/P7/8 w -");
        let draw = pos("8/p7/8/8/8/8/7P/8 b -");
        let known = Known::new(
            RuleSet::PAWNRACE,
            [
                (win, Value::Win, None),
                (draw, Value::Draw, Some(12)),
                (pos("8/1p6/8/8/8/8/1P6/8 w -"), Value::Loss, Some(9)),
            ],
        );
        assert_eq!(known.len(), 6);
        // A win of unknown distance: within the 12 plies the two pawns
        // can still move.
        let within = Some((SOLVER_WIN - 12, SOLVER_WIN - 1));
        assert_eq!(known.bounds(&win, win.hash()), within);
        let mirror = win.mirror_files();
        assert_eq!(known.bounds(&mirror, mirror.hash()), within);
        assert_eq!(known.bounds(&draw, draw.hash()), Some((0, 0)));
        let lost = pos("8/6p1/8/8/8/8/6P1/8 w -");
        let exact = -(SOLVER_WIN - 9);
        assert_eq!(known.bounds(&lost, lost.hash()), Some((exact, exact)));
        let other = pos("8/2p5/8/8/8/8/P7/8 w -");
        assert_eq!(known.bounds(&other, other.hash()), None);
        assert_eq!(known.get(&mirror), Some((Value::Win, None)));
        assert_eq!(known.get(&draw), Some((Value::Draw, None)));
        assert_eq!(known.get(&lost), Some((Value::Loss, Some(9))));
        assert_eq!(known.get(&other), None);
    }

    #[test]
    fn positions_of_shapes_none_held_has_are_not_looked_up() {
        let start = pos("8/1p6/8/8/8/8/P6P/8 w -");
        let known = Known::new(RuleSet::PAWNRACE, [(start, Value::Win, None)]);
        // Further on: not held, and not searched for, even under its key.
        let on = pos("8/8/1p6/8/8/P7/7P/8 w -");
        assert_ne!(shape(&on), shape(&start));
        assert_eq!(known.bounds(&on, start.hash()), None);
        // Fewer pawns than any held.
        let fewer = pos("8/1p6/8/8/8/8/P7/8 w -");
        assert_eq!(known.bounds(&fewer, start.hash()), None);
        assert_eq!(
            known.bounds(&start, start.hash()),
            Some((SOLVER_WIN - 18, SOLVER_WIN - 1))
        );
    }
}
