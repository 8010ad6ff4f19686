//! Sound bounds from race arithmetic.
//!
//! A passer whose path no enemy pawn can ever reach promotes after exactly its
//! distance in moves if its owner pushes nothing else. That is a strategy,
//! so it only proves a bound (the owner may have something faster, or the
//! loser something longer is impossible but a faster loss is not), never an
//! exact value; the search pins exact values.
//!
//! The argument, for the passer's owner P and the other side O, while P
//! pushes only the passer:
//! - P's other pawns stand still, so O pawns can change file only by
//!   capturing them. Flooding O's pawns forwards (through anything) and
//!   diagonally onto those pawns over-approximates every square an O pawn can
//!   ever stand on. If that set misses the passer's path and the squares
//!   beside it, O can neither block nor capture the passer, en passant
//!   included (the square beside a double step's landing is beside the path).
//! - O cannot win first: its fastest pawn needs at least as many moves
//!   (counting its double step, ignoring blocks) as the passer; captures never
//!   gain ranks faster than pushes. Or, where it does not, no O pawn gets
//!   round P's other pawns in time, they standing still ([`fastest_around`]).
//!   O cannot capture P's last pawn: the passer is never taken.
//! - P always has a move (the passer's path is empty and stays empty), so P is
//!   never stalemated. O might be, which under drawing stalemate rules spoils
//!   the win: unless the rules make that a loss, O must own a pawn that
//!   surely has a move on each turn before the passer arrives, however O
//!   plays, since O would stalemate itself on purpose if it could
//!   ([`keeps_moving`]: an empty file ahead, longer than that, and every
//!   capture that takes the pawn off it landing where the same holds).
//!
//! Positions with an en passant square are left to the search, which keeps
//! the argument free of the pawn that just double-stepped.

use crate::eval::score::SOLVER_WIN;
use crate::eval::{leader, moves_to_goal};
use crate::rules::{Bitboard, Color, NoMoves, Position, Square};

/// Lower and upper bounds on `pos`'s score for the side to move, in the
/// solver's node-relative units. `pos` is not decided and has a move.
pub(super) fn bounds(pos: &Position) -> (Option<i32>, Option<i32>) {
    let us = pos.side_to_move();
    // Both rules below need each side's fastest pawn; this runs at every node.
    let (ours, theirs) = (fastest(pos, us), fastest(pos, !us));
    let (mut lo, mut hi) = horizon_from(pos, ours, theirs);
    if pos.en_passant().is_some() {
        return (lo, hi);
    }
    // We promote on ply 2d-1; they need at least as many moves, so their
    // first promotion is on ply 2d at the earliest. They get d-1 turns first.
    if let Some((passer, d)) = fastest_unstoppable(pos, us)
        && (d <= theirs || d <= fastest_around(pos, !us, pos.pawns(us) & !passer.bb(), d))
        && never_stalemated(pos, !us, d - 1)
    {
        // A win: above any bound the horizon gives.
        lo = Some(SOLVER_WIN - (2 * d as i32 - 1));
    }
    // They promote on ply 2d; our first promotion is on ply 2e-1 > 2d. We get
    // d turns first.
    if let Some((passer, d)) = fastest_unstoppable(pos, !us)
        && (ours > d || fastest_around(pos, us, pos.pawns(!us) & !passer.bb(), d + 1) > d)
        && never_stalemated(pos, us, d)
    {
        // A loss: below any bound the horizon gives.
        hi = Some(-(SOLVER_WIN - 2 * d as i32));
    }
    (lo, hi)
}

/// How soon either side could possibly win, whatever the other does: a win
/// takes a promotion (at least the leader's distance in moves) or the capture
/// of every enemy pawn (one per move). Proving a distance asks over and over
/// whether a win fits within so many plies, and this answers no at once
/// wherever no pawn is close enough. Only where having no move draws: where
/// it loses, a win can come from a blockade at any time.
#[cfg(test)]
pub(super) fn horizon(pos: &Position) -> (Option<i32>, Option<i32>) {
    let us = pos.side_to_move();
    horizon_from(pos, fastest(pos, us), fastest(pos, !us))
}

/// [`horizon`] given each side's [`fastest`]: ours (the side to move's),
/// then theirs.
fn horizon_from(pos: &Position, ours: u32, theirs: u32) -> (Option<i32>, Option<i32>) {
    if pos.rules().no_moves() == NoMoves::Loss {
        return (None, None);
    }
    let us = pos.side_to_move();
    // Promotion or taking every enemy pawn, whichever could come first.
    let our_soonest = ours.min(pos.pawns(!us).count()) as i32;
    let their_soonest = theirs.min(pos.pawns(us).count()) as i32;
    // Our k-th move is ply 2k-1 from here, theirs ply 2k.
    let hi = SOLVER_WIN - (2 * our_soonest - 1);
    let lo = -(SOLVER_WIN - 2 * their_soonest);
    (Some(lo), Some(hi))
}

/// A lower bound on the moves `color` needs to promote any pawn.
fn fastest(pos: &Position, color: Color) -> u32 {
    leader(pos.pawns(color), color).map_or(u32::MAX, |sq| moves_to_goal(pos, color, sq))
}

/// The passer of `color` needing the fewest moves (and their number) whose
/// path no enemy pawn can ever reach while `color` pushes only that passer.
fn fastest_unstoppable(pos: &Position, color: Color) -> Option<(Square, u32)> {
    let board = pos.rules().board();
    let own = pos.pawns(color);
    let enemy = pos.pawns(!color);
    // The cheap tests set-wise first (a free path, and the usual passed-pawn
    // test: no enemy pawn beside or on the path), then the flood for the
    // survivors, most advanced first, so the first to pass is the fastest.
    let mut candidates =
        own & !pos.occupied().front_span(!color) & !enemy.front_span(!color).widen();
    while let Some(sq) = leader(candidates, color) {
        candidates &= !sq.bb();
        let zone = (sq.bb().front_span(color) & board).widen() & board;
        if (reach(pos, !color, own & !sq.bb()) & zone).is_empty() {
            return Some((sq, moves_to_goal(pos, color, sq)));
        }
    }
    None
}

/// A lower bound on the moves `color` needs to promote any pawn while the
/// enemy pawns `frozen` stand still (the enemy pushes only a passer none of
/// them can reach), counted up to `enough`: the most it returns. Sharper
/// than [`fastest`], which ignores blocks: a pawn can push only onto a square
/// no frozen pawn holds, unless another pawn of `color` takes that pawn
/// first (a move more), and it can capture only onto frozen pawns. `color`'s
/// own pawns are passed through, which only makes the bound lower.
fn fastest_around(pos: &Position, color: Color, frozen: Bitboard, enough: u32) -> u32 {
    let board = pos.rules().board();
    let goal = pos.rules().goal(color);
    let forward = |b: Bitboard| forward(b, color);
    // Frozen pawns some pawn of `color` could ever take (from a square it
    // could ever stand on): only those can be cleared out of another's way.
    let takeable = beside(forward(reach(pos, color, frozen))) & frozen;
    // A double step's first square, then where it lands: in one move past
    // no frozen pawn, or in two where another pawn takes one first.
    let mid = forward(pos.pawns(color)) & pos.rules().double_from(color);
    let hard = frozen & !takeable;
    let double = [
        forward(mid & !frozen) & !frozen & board,
        forward(mid & !hard) & !hard & board,
    ];
    // Squares a pawn of `color` could stand on after k moves, and after k-1.
    let (mut now, mut before) = (pos.pawns(color), Bitboard::EMPTY);
    for k in 1..enough {
        let ahead = forward(now);
        let next = now
            | (ahead & board & !frozen)
            | (forward(before) & takeable)
            | (beside(ahead) & frozen)
            | double[0]
            | if k >= 2 { double[1] } else { Bitboard::EMPTY };
        if !(next & goal).is_empty() {
            return k;
        }
        (before, now) = (now, next);
    }
    enough
}

/// The set moved one rank towards `color`'s goal.
fn forward(b: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => b.shift_ranks(1),
        Color::Black => b.shift_ranks(-1),
    }
}

/// The squares beside the set's squares on their ranks, theirs left out
/// unless beside another: where pawns one rank behind capture.
fn beside(b: Bitboard) -> Bitboard {
    Bitboard(((b.0 & !Bitboard::FILE_A.0) >> 1) | ((b.0 & !Bitboard::FILE_H.0) << 1))
}

/// Every square a pawn of `color` could ever stand on if the enemy pawns
/// `prey` stand still: forward through anything, diagonally onto prey.
fn reach(pos: &Position, color: Color, prey: Bitboard) -> Bitboard {
    let board = pos.rules().board();
    let forward = |b: Bitboard| forward(b, color);
    let mut set = pos.pawns(color);
    loop {
        let ahead = forward(set);
        let next = set | (ahead & board) | (beside(ahead) & prey);
        if next == set {
            return set;
        }
        set = next;
    }
}

/// Whether `color` surely has a legal move on each of its next `turns` turns
/// while the enemy pushes only a passer elsewhere: always true when having
/// no move loses (that only ends the game sooner in the enemy's favour).
fn never_stalemated(pos: &Position, color: Color, turns: u32) -> bool {
    if pos.rules().no_moves() == NoMoves::Loss {
        return true;
    }
    pos.pawns(color)
        .any(|sq: Square| keeps_moving(pos, color, sq, turns))
}

/// Whether a pawn of `color` on `sq` surely has a move on each of the next
/// `turns` turns, however its side plays (a side facing a loss would
/// stalemate itself on purpose if it could), the enemy's pawns standing
/// still: its file ahead is empty and longer than that, and every capture
/// that takes it off the file lands where the same holds for the turns
/// still to come. No pawn can ever enter such a file ahead of it (the enemy
/// does not capture; its own pawns could only enter by capturing an enemy
/// pawn there, and there is none).
fn keeps_moving(pos: &Position, color: Color, sq: Square, turns: u32) -> bool {
    if turns == 0 {
        return true;
    }
    let board = pos.rules().board();
    let path = sq.bb().front_span(color) & board;
    if !(path & pos.occupied()).is_empty() || path.count() <= turns {
        return false;
    }
    // A capture beside the j-th square ahead comes on its j-th move at the
    // earliest, or its (j-1)-th after a double step: at least turns + 1 - j
    // turns are left after it.
    let mut step = sq.bb();
    (1..=turns).all(|j| {
        step = forward(step, color) & board;
        (beside(step) & pos.pawns(!color)).all(|s| keeps_moving(pos, color, s, turns + 1 - j))
    })
}
