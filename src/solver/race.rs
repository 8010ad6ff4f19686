//! Sound bounds from race arithmetic.
//!
//! A passer no enemy pawn can catch promotes after exactly its
//! distance in moves if its owner pushes nothing else. That is a strategy,
//! so it only proves a bound (the owner may have something faster, or the
//! loser something longer is impossible but a faster loss is not), never an
//! exact value; the search pins exact values.
//!
//! The argument, for the passer's owner P and the other side O, while P
//! pushes only the passer:
//! - P's other pawns stand still, so O pawns can change file only by
//!   capturing them, and none can ever stand on the passer's (empty) path.
//!   O can only take the passer, from a square diagonally ahead of it or en
//!   passant. Flooding O's pawns k times (forwards through anything, a double
//!   step from home, diagonally onto P's other pawns) over-approximates where
//!   they can stand after k moves; if no O pawn can stand where it could take
//!   the passer by the time the passer stands there, it promotes after
//!   exactly its distance in moves ([`outruns`]).
//! - O cannot win first: its fastest pawn needs at least as many moves
//!   (counting its double step, ignoring blocks) as the passer; captures never
//!   gain ranks faster than pushes. Or, where it does not, no O pawn gets
//!   round P's other pawns in time, they standing still ([`fastest_around`]).
//!   O cannot capture P's last pawn: the passer is never taken.
//! - P always has a move (the passer's path is empty and stays empty), so P is
//!   never stalemated. O might be, which under drawing stalemate rules spoils
//!   the win: unless the rules make that a loss, O must surely have a move on
//!   each turn before the passer arrives, however O plays, since O would
//!   stalemate itself on purpose if it could. Either its pawns need more
//!   moves to block themselves in than it has turns
//!   ([`moves_before_stalemate`]), or one pawn has an empty file ahead,
//!   longer than that, and every capture that takes it off lands where the
//!   same holds ([`keeps_moving`]).
//!
//! Where the side to move could take en passant, the bound on its loss is
//! left to the search: the floods know no captures onto empty squares.

use crate::eval::score::SOLVER_WIN;
use crate::eval::{leader, moves_to_goal, steps_to_goal};
use crate::rules::{Bitboard, Color, NoMoves, Position, Square};

/// Lower and upper bounds on `pos`'s score for the side to move, in the
/// solver's node-relative units. `pos` is not decided and has a move.
pub(super) fn bounds(pos: &Position) -> (Option<i32>, Option<i32>) {
    bounds_until(pos, i32::MAX)
}

/// [`bounds`], but with a lower bound of at least `enough` the upper one is
/// left out (`None`): a search node that fails high on the lower bound
/// needs no more, and the loser's side of the count is half the work.
pub(super) fn bounds_until(pos: &Position, enough: i32) -> (Option<i32>, Option<i32>) {
    let us = pos.side_to_move();
    // Both rules below need each side's fastest pawn; this runs at every node.
    let (ours, theirs) = (fastest(pos, us), fastest(pos, !us));
    let (mut lo, mut hi) = horizon_from(pos, ours, theirs);
    // An en passant square is ours to take or leave: nothing below asks
    // whether we capture.
    // We promote on ply 2d-1; they need at least as many moves, so their
    // first promotion is on ply 2d at the earliest. They get d-1 turns first.
    if let Some((passer, d)) = fastest_unstoppable(pos, us, true)
        && (d <= theirs || d <= fastest_around(pos, !us, pos.pawns(us) & !passer.bb(), d))
        && never_stalemated(pos, !us, d - 1, passer)
    {
        // A win: above any bound the horizon gives.
        lo = Some(SOLVER_WIN - (2 * d as i32 - 1));
    }
    if lo.is_some_and(|l| l >= enough) {
        return (lo, None);
    }
    // They promote on ply 2d; our first promotion is on ply 2e-1 > 2d. We get
    // d turns first. Where we could take en passant, that capture is left to
    // the search: the floods below know no captures onto empty squares.
    if pos.en_passant().is_none()
        && let Some((passer, d)) = fastest_unstoppable(pos, !us, false)
        && (ours > d || fastest_around(pos, us, pos.pawns(!us) & !passer.bb(), d + 1) > d)
        && never_stalemated(pos, us, d, passer)
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

/// The passer of `color` needing the fewest moves (and their number) that
/// no enemy pawn can reach in time while `color` pushes only that passer.
/// `color_moves_first` says whose turn it is.
fn fastest_unstoppable(
    pos: &Position,
    color: Color,
    color_moves_first: bool,
) -> Option<(Square, u32)> {
    // A free path (no pawn ahead on the file) is the cheap set-wise test;
    // then the race against the enemy's pawns for the survivors, most
    // advanced first, so the first to pass is the fastest.
    let mut candidates = pos.pawns(color) & !pos.occupied().front_span(!color);
    while let Some(sq) = leader(candidates, color) {
        candidates &= !sq.bb();
        let d = moves_to_goal(pos, color, sq);
        if outruns(pos, color, sq, d, color_moves_first) {
            return Some((sq, d));
        }
    }
    None
}

/// Whether the pawn of `color` on `sq`, with a free path ahead, promotes in
/// its `d` moves however the enemy plays, while its owner pushes only it.
///
/// No enemy pawn can ever stand on the path: it would have to capture onto
/// it, and the only pawn of `color` there is the passer. So the enemy can
/// only take the passer, from a square diagonally ahead of it when the
/// enemy is to move, or en passant beside the square its double step lands
/// on. The passer stands on its i-th square after its i-th move; the enemy
/// has then made i - 1 moves if `color` moved first, i if not. Where its
/// pawns can stand after k moves is over-approximated by flooding them k
/// times: forward through anything (a double step from home), and
/// diagonally onto the other pawns of `color`, which stand still. (Stopping
/// the flood at those pawns, as [`fastest_around`] does, changed no answer
/// on the benchmark's positions.)
fn outruns(pos: &Position, color: Color, sq: Square, d: u32, color_moves_first: bool) -> bool {
    let prey = pos.pawns(color) & !sq.bb();
    let double = d < steps_to_goal(pos, color, sq);
    let lead = u32::from(color_moves_first);
    let (mut reachable, mut flooded) = (pos.pawns(!color), 0);
    let mut at = sq.bb();
    for i in 0..d {
        if i > 0 {
            at = forward(at, color);
            if i == 1 && double {
                at = forward(at, color);
            }
        }
        if i < lead {
            continue;
        }
        while flooded < i - lead {
            reachable = flood_step(pos, !color, prey, reachable);
            flooded += 1;
        }
        let mut threat = beside(forward(at, color));
        if i == 1 && double {
            threat |= beside(at);
        }
        if !(reachable & threat).is_empty() {
            return false;
        }
    }
    true
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
    let mut set = pos.pawns(color);
    loop {
        let next = flood_step(pos, color, prey, set);
        if next == set {
            return set;
        }
        set = next;
    }
}

/// `set` and every square a pawn of `color` there could move to in one
/// move: forward through anything (a double step from home too), and
/// diagonally onto `prey`.
fn flood_step(pos: &Position, color: Color, prey: Bitboard, set: Bitboard) -> Bitboard {
    let board = pos.rules().board();
    let ahead = forward(set, color);
    let launch = pos.rules().double_from(color);
    set | (ahead & board) | (beside(ahead) & prey) | (forward(ahead & launch, color) & board)
}

/// Whether `color` surely has a legal move on each of its next `turns` turns
/// while the enemy pushes only its `passer`: always true when having no
/// move loses (that only ends the game sooner in the enemy's favour).
fn never_stalemated(pos: &Position, color: Color, turns: u32, passer: Square) -> bool {
    if pos.rules().no_moves() == NoMoves::Loss {
        return true;
    }
    moves_before_stalemate(pos, color, passer, turns) >= turns
        || pos
            .pawns(color)
            .any(|sq: Square| keeps_moving(pos, color, sq, turns))
}

/// A lower bound on the moves `color` makes before it can be left without
/// one, while the enemy pushes only its `passer` (which no pawn of `color`
/// can take) and the enemy's other pawns stand still.
///
/// Call a pawn of `color` free when no enemy pawn stands ahead of it on its
/// file. The most advanced pawn on a file holding a free pawn is free too,
/// and can always push: nothing stands ahead of it. So at a stalemate no
/// pawn is free, and every pawn stands right behind another. Nothing makes
/// a free pawn unfree but its own capture off the file (the enemy's pawns
/// that stand still never come ahead of it, and the passer moves away from
/// it), and nothing but its own pushes closes the empty squares ahead of a
/// pawn (no pawn can step in there). So each pawn needs its own
/// [`moves_to_stick`], and the side their sum, counted up to `enough`: the
/// caller asks only whether it reaches that (the full count was about a
/// tenth of the solver's time; stopping there runs 6.8% fewer instructions
/// a node, callgrind).
fn moves_before_stalemate(pos: &Position, color: Color, passer: Square, enough: u32) -> u32 {
    let enemy = pos.pawns(!color);
    let prey = enemy & !passer.bb();
    let unfree = enemy.front_span(!color);
    let mut total = 0u32;
    for sq in pos.pawns(color) {
        total = total.saturating_add(moves_to_stick(pos, color, sq, prey, unfree));
        if total >= enough {
            break;
        }
    }
    total
}

/// The fewest moves the pawn of `color` on `sq` needs before it stands,
/// not free, right behind another pawn (see [`moves_before_stalemate`]):
/// pushes that close the empty squares ahead where it is not free, or
/// pushes to a square diagonally behind an enemy pawn in `prey`, the
/// capture, and as many again from where it lands. A double step from
/// home counts as one move. `u32::MAX` if never.
fn moves_to_stick(
    pos: &Position,
    color: Color,
    sq: Square,
    prey: Bitboard,
    unfree: Bitboard,
) -> u32 {
    let rules = pos.rules();
    let home = rules.double_step() && sq.rank() == rules.home_rank(color);
    let moves = |pushes: u32| {
        if home && pushes >= 2 {
            pushes - 1
        } else {
            pushes
        }
    };
    let ahead = sq.bb().front_span(color);
    let mut best = u32::MAX;
    if unfree.has(sq)
        && let Some(blocker) = leader(ahead & pos.occupied(), !color)
    {
        let gap = u32::from(blocker.rank().abs_diff(sq.rank())) - 1;
        if gap == 0 {
            return 0;
        }
        best = moves(gap);
    }
    for target in (ahead.widen() & !ahead) & prey {
        let capture = moves(u32::from(target.rank().abs_diff(sq.rank())) - 1) + 1;
        if capture < best {
            let then = moves_to_stick(pos, color, target, prey, unfree);
            best = best.min(capture.saturating_add(then));
        }
    }
    best
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
