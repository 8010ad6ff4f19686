//! The proof search's move order: which of a node's moves it tries first,
//! and the frames that hold a node's moves while it searches them.
//!
//! A proof is mostly refutations of the moves tried before the one that
//! proves (see "Solver speed" in the README: with the known cutting move
//! tried first everywhere, the same proofs took a sixth of the nodes), so
//! the order is where node counts are won or lost. Moves the table already
//! bounds are ordered by those bounds in the search itself; this file
//! orders the rest.

use super::relative::up;
use super::table::Table;
use crate::eval::score::SOLVER_WIN;
use crate::eval::{EVAL_LIMIT, Shares, Siblings, rank_counts, threatens_win};
use crate::rules::{MAX_MOVES, Move, MoveList, Position, Square};

/// Ordering weight of each reply the opponent has: fewer replies, smaller proofs.
const MOBILITY: i32 = 10;

/// Ordering bonus of a double step. The evaluation counts a pawn's ranks,
/// and a double step from home comes out only a few points above a single
/// one, though in the race it is a whole move gained; tried first among
/// their near-equals, double steps shrank the proofs by a sixth to three
/// fifths (16 keep-set decisions: 42.1 M nodes against 64.2 M; their
/// losing sides 56.2 M against 92.1 M; `solve --gaps AB` 27.8 M against
/// 72.4 M; AC 47.4 M against 87.3 M; AF 99.1 M against 118.5 M). 10 and
/// 20 did nearly as well, 60 and more worse, and any penalty was ruinous
/// (20 against: 298 M, 7 of the 16 not decided within 30 M nodes each).
const DOUBLE_STEP: i32 = 15;

/// Ordering bonus of a move by a pawn with no enemy pawn ahead on its file
/// once it has moved (a push of a free pawn, or a capture onto a free
/// file): the races the proofs turn on. With the double-step bonus, 64
/// keep-set decisions took 121.2 M nodes against 162.3 M (16 of them 36.1 M
/// against 42.1 M; their losing sides 47.3 M against 56.2 M); 6 to 12 did
/// about as well, 25 and more worse (25: 67.9 M on the 16). The pushes
/// carry it: the captures' share of the bonus at 0, -10 or 20 moved the 16
/// by under 0.1 M, the pushes' at 0 gave 42.1 M.
const FREE_FILE: i32 = 10;

/// The order key (highest first) of a move the table knows nothing of:
/// the race evaluation of the position after it (`eval`, for the side to
/// move there) less the opponent's replies there (fewer replies, smaller
/// proofs), with double steps and moves onto free files first among
/// near-equals. Ties keep the moves' order:
/// breaking them by history (moves that cut off elsewhere first) cost 5%
/// more nodes. The key is below [`KEY_LIMIT`], so that the search can rank
/// whole classes of moves above it.
pub(super) fn quiet_key(mv: Move, child: &Position, eval: i32) -> u32 {
    let us = !child.side_to_move();
    let mobility = MOBILITY * replies(child) as i32;
    let mut bonus = 0;
    if mv.is_double_step() {
        bonus += DOUBLE_STEP;
    }
    if (mv.to.bb().front_span(us) & child.pawns(!us)).is_empty() {
        bonus += FREE_FILE;
    }
    (EVAL_LIMIT - eval - mobility + bonus).max(0) as u32
}

/// Every [`quiet_key`] is below this: the evaluation is within
/// `±EVAL_LIMIT`, and the bonuses are a few points.
pub(super) const KEY_LIMIT: u32 = 1 << 28;
const _: () = assert!(((2 * EVAL_LIMIT + DOUBLE_STEP + FREE_FILE) as u32) < KEY_LIMIT);

/// `pos.targets().count()` with one software popcount for the four sets
/// rather than four: the build has no popcount instruction, and this runs
/// for nearly every child. No rank holds more than 32 targets.
fn replies(pos: &Position) -> u32 {
    let t = pos.targets();
    let bytes = rank_counts(t.single.0)
        + rank_counts(t.double.0)
        + rank_counts(t.left.0)
        + rank_counts(t.right.0);
    (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

/// The best score a node has found so far, and the move that gave it.
#[derive(Copy, Clone)]
pub(super) struct Best {
    pub(super) score: i32,
    pub(super) mv: Option<Move>,
}

/// One of a node's moves, with what ordering it needs.
#[derive(Copy, Clone)]
pub(super) struct Child {
    pub(super) mv: Move,
    /// The position after the move.
    pub(super) pos: Position,
    /// The child position's key.
    pub(super) key: u64,
    /// The most this move can score, from the child's table entry.
    pub(super) cap: i32,
    /// The ordering key, highest first; the race evaluation and mobility
    /// until the table's bounds are folded in.
    pub(super) order: u32,
    /// Whether the opponent threatens to win at once after the move.
    pub(super) threat: bool,
    /// The child's evaluation shares, when it was evaluated.
    pub(super) shares: Option<Shares>,
}

/// A node's moves, in a fixed array: nodes are too many to allocate.
pub(super) struct Children {
    list: [Child; MAX_MOVES],
    len: usize,
    /// After [`Children::sort`]: each move's order key above its index
    /// (the index inverted, so that equal keys keep the moves' order).
    ranked: [u64; MAX_MOVES],
}

impl Children {
    /// Room for a node's moves; `filler` stands in for the positions until
    /// they are written.
    pub(super) fn new(filler: Position) -> Children {
        let nothing = Child {
            mv: Move::new(Square::new(0, 0), Square::new(0, 0)),
            pos: filler,
            key: 0,
            cap: 0,
            order: 0,
            threat: false,
            shares: None,
        };
        Children {
            list: [nothing; MAX_MOVES],
            len: 0,
            ranked: [0; MAX_MOVES],
        }
    }

    /// Empties the frame for a new node.
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    pub(super) fn push(&mut self, mv: Move, pos: Position, key: u64, threat: bool) {
        let c = &mut self.list[self.len];
        c.mv = mv;
        c.pos = pos;
        c.key = key;
        c.threat = threat;
        c.shares = None;
        self.len += 1;
    }

    /// The `k`th move, highest order key first, once sorted.
    pub(super) fn sorted(&self, k: usize) -> &Child {
        &self.list[MAX_MOVES - 1 - (self.ranked[k] & 0xFF) as usize]
    }

    pub(super) fn iter_mut(&mut self) -> std::slice::IterMut<'_, Child> {
        self.list[..self.len].iter_mut()
    }

    /// Fills the frame with `pos`'s moves but `skip` (the table's move,
    /// searched already), each ordered by [`quiet_key`], or last where the
    /// opponent then wins at once. Each child's bucket is fetched first,
    /// and its ordering score worked out while the fetches are under way:
    /// the probes in [`Children::fold_table`] waited on memory for much of
    /// the search's time. (Ordering only the children the table leaves
    /// open, after the probes, ran fewer instructions but took 18% longer
    /// a node.)
    #[inline(always)]
    pub(super) fn fill(
        &mut self,
        table: &Table,
        pos: &Position,
        moves: &MoveList,
        skip: Option<Move>,
        shares: Option<Shares>,
    ) {
        let us = pos.side_to_move();
        self.clear();
        for &m in moves.iter().filter(|&&m| Some(m) != skip) {
            let child = pos.play_unchecked(m);
            let key = child.hash();
            table.prefetch(key);
            self.push(m, child, key, threatens_win(&child, !us));
        }
        let mut siblings: Option<Siblings> = None;
        for c in self.iter_mut() {
            if c.threat {
                // The opponent wins at once: last of all.
                c.order = 0;
                continue;
            }
            let (eval, child_shares) = siblings
                .get_or_insert_with(|| Siblings::new(pos, shares))
                .evaluate(&c.pos);
            c.shares = Some(child_shares);
            c.order = quiet_key(c.mv, &c.pos, eval);
        }
    }

    /// Folds what the table knows of the children into their order and
    /// caps: a cut-off without searching (enhanced transposition cut-off:
    /// the score at or above `beta`, returned, with `best` raised to it),
    /// moves that cannot raise alpha, and the order of the rest. `best`
    /// rises to the best score a child is sure to give.
    #[inline(always)]
    pub(super) fn fold_table(&mut self, table: &Table, beta: i32, best: &mut Best) -> Option<i32> {
        for c in self.iter_mut() {
            let (mut child_lo, mut child_hi) = (-SOLVER_WIN, SOLVER_WIN);
            if c.threat {
                child_lo = SOLVER_WIN - 1;
                child_hi = SOLVER_WIN - 1;
            } else if let Some(hit) = table.probe(c.key) {
                child_lo = hit.lo;
                child_hi = hit.hi;
            }
            let surely = up(child_hi);
            if surely > best.score {
                *best = Best {
                    score: surely,
                    mv: Some(c.mv),
                };
                if surely >= beta {
                    return Some(surely);
                }
            }
            let at_most = up(child_lo);
            c.cap = at_most;
            c.order = if child_hi < 0 {
                // A proven win: the shortest first.
                (3 * KEY_LIMIT) | (surely + SOLVER_WIN) as u32
            } else if child_lo > 0 {
                // A proven loss: last (below every quiet key's class), in
                // the order of the moves the table knows nothing of. Where
                // every move loses (the losing side's nodes of a distance
                // proof), one that holds out long enough is all the proof
                // needs, and the evaluation finds it sooner than the moves'
                // own order (16 full solves: 121.7 M nodes against
                // 127.7 M; ordered by the table's bound on the loss
                // instead, the same as the moves' order).
                c.order
            } else {
                KEY_LIMIT | c.order
            };
        }
        None
    }

    /// Highest order key first, ties in the moves' order: an insertion
    /// sort of keys, which are smaller to move about than the moves.
    pub(super) fn sort(&mut self) {
        for i in 0..self.len {
            let key = u64::from(self.list[i].order) << 8 | (MAX_MOVES - 1 - i) as u64;
            let mut j = i;
            while j > 0 && self.ranked[j - 1] < key {
                self.ranked[j] = self.ranked[j - 1];
                j -= 1;
            }
            self.ranked[j] = key;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RuleSet, parse_move};

    /// The key of `mv` with the evaluation held at level, so that only the
    /// opponent's replies and the bonuses tell moves apart.
    fn key(fen: &str, mv: &str) -> i64 {
        let pos = Position::from_fen(fen, RuleSet::PAWNRACE).unwrap();
        let m = parse_move(&pos, mv).unwrap();
        i64::from(quiet_key(m, &pos.play_unchecked(m), 0))
    }

    #[test]
    fn double_steps_and_free_files_come_first_among_equals() {
        // Black has the same four replies after each of these moves.
        let fen = "8/2p4p/8/8/8/8/P1P5/8 w -";
        assert_eq!(key(fen, "a2a4") - key(fen, "a2a3"), DOUBLE_STEP as i64);
        assert_eq!(key(fen, "a2a3") - key(fen, "c2c3"), FREE_FILE as i64);
        assert_eq!(key(fen, "a2a4") - key(fen, "c2c4"), FREE_FILE as i64);
        // A reply taken from the opponent weighs as much as a free file:
        // h5 leaves black one move (h6), a3 two (h6, h5).
        let fen = "8/7p/8/8/7P/8/P7/8 w -";
        assert_eq!(
            key(fen, "h4h5") - key(fen, "a2a3"),
            (MOBILITY - FREE_FILE) as i64
        );
    }
}
