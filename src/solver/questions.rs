//! The questions a solve asks of the proof search, each a null-window
//! proof or a few: the value ([`value_score`], or [`decision_score`] at
//! move time), the distance ([`exact_score`]) and a line that realises it
//! ([`line`]).

use super::relative::{down, up};
use super::search::Ctx;
use super::{SolvePhase, Value};
use crate::eval::score::SOLVER_WIN;
use crate::eval::{evaluate_leaf, threatens_win};
use crate::rules::{Move, NoMoves, Position};

/// The value a node-relative score stands for, with its distance in plies
/// (0 for a draw).
pub(super) fn describe(score: i32) -> (Value, u32) {
    match score {
        s if s > 0 => (Value::Win, (SOLVER_WIN - s) as u32),
        s if s < 0 => (Value::Loss, (SOLVER_WIN + s) as u32),
        _ => (Value::Draw, 0),
    }
}

/// The score of a finished game for the side to move, if it is finished.
pub(super) fn terminal_score(pos: &Position) -> Option<i32> {
    if pos.is_decided() {
        return Some(-SOLVER_WIN);
    }
    if pos.targets().is_empty() {
        return Some(match pos.rules().no_moves() {
            NoMoves::Draw => 0,
            NoMoves::Loss => -SOLVER_WIN,
        });
    }
    None
}

/// The exact score of `pos`, or `None` if the solve was cut short.
pub(super) fn exact_score(ctx: &mut Ctx, pos: &Position) -> Option<i32> {
    if let Some(s) = terminal_score(pos) {
        return Some(s);
    }
    let mut score = value_score(ctx, pos);
    if ctx.aborted {
        return None;
    }
    loop {
        let (value, plies) = describe(score);
        ctx.phase = SolvePhase::Distance { value, plies };
        ctx.report();
        // Each proof either improves the bound or shows it is exact.
        let next = match value {
            Value::Draw => return Some(0),
            Value::Win => ctx.search(pos, score, score + 1),
            Value::Loss => ctx.search(pos, score - 1, score),
        };
        if ctx.aborted {
            return None;
        }
        let improved = match value {
            Value::Win => next > score,
            _ => next < score,
        };
        if !improved {
            return Some(score);
        }
        score = next;
    }
}

/// A score of `pos` with the exact value's sign (win, draw or loss), by
/// null-window proofs, the side the evaluation favours asked first: is it
/// a win (or, where the evaluation is below level, is it a loss), then,
/// only if not, the other question. A window around the draw, (-1, 1),
/// answers in one proof, but when a winning try fails it must prove the
/// try at least draws as well as not winning; one question at a time
/// decides 16 keep-set positions in 9% fewer nodes (5% fewer for the
/// losing side of the same positions). Meaningless once `ctx.aborted` is set.
pub(super) fn value_score(ctx: &mut Ctx, pos: &Position) -> i32 {
    if evaluate_leaf(pos) >= 0 {
        let s = ctx.search(pos, 0, 1);
        if s >= 1 || ctx.aborted {
            return s;
        }
        // Not a win: a draw, or a loss.
        ctx.search(pos, -1, 0)
    } else {
        // Is it a loss; if not, a draw or a win.
        decision_score(ctx, pos)
    }
}

/// [`value_score`] in the order move-time play wants: first whether the
/// side to move holds at least a draw, then, only if so, whether it wins.
/// Whatever the evaluation says: the first proof leaves a move proven to
/// hold the draw, which the engine can play if the win question is cut
/// off, and if the first proof is cut off itself, the moves it refuted are
/// proven losses, which the search leaves out (see `engine::proven`). Cut
/// off in the win question first, the engine would have neither: a move
/// refuted for the win may still draw. Asking the evaluation's likelier
/// side first is cheaper (32 keep-set decisions: 63.3 M nodes against
/// 68.1 M), so a full solve keeps that order. Meaningless once
/// `ctx.aborted` is set.
pub(super) fn decision_score(ctx: &mut Ctx, pos: &Position) -> i32 {
    let s = ctx.search(pos, -1, 0);
    if s <= -1 || ctx.aborted {
        return s;
    }
    ctx.search(pos, 0, 1)
}

/// The legal moves of `pos`, the table's move first: after a proof it is
/// usually the one that settles the question at once.
pub(super) fn table_move_first(ctx: &Ctx, pos: &Position) -> Vec<Move> {
    let hint = ctx.table.probe(pos.hash()).and_then(|h| h.mv);
    let mut moves: Vec<Move> = pos.legal_moves().to_vec();
    if let Some(i) = hint.and_then(|h| moves.iter().position(|m| *m == h)) {
        moves.swap(0, i);
    }
    moves
}

/// Whether `child`, a child of a position whose exact score is
/// `up(want)`, keeps that score. No child scores below `want` (the parent
/// would then score more), so one null-window proof that it scores at
/// most `want` settles it. Asking for the exact score instead proved the
/// other side as well: for the winner's moves, that no faster win exists
/// after them, the costliest proof a distance has. Where the book gave the
/// root's distance and the table knew nothing else, that was nearly all of
/// a line's nodes (`bench solve --plies 1-3 --sample 8 --threads 1
/// --tables`: 11.9 M nodes for a line of 25 plies).
fn keeps(ctx: &mut Ctx, child: &Position, want: i32) -> Option<bool> {
    let s = match terminal_score(child) {
        Some(s) => s,
        None => ctx.search(child, want, want + 1),
    };
    (!ctx.aborted).then_some(s <= want)
}

/// A line from `pos`, whose exact score is `score`, to the end of the game,
/// each move keeping the score: the winner wins as fast as it can, the loser
/// holds out longest, and in a draw neither side leaves the draw. A win's
/// or loss's line is as long as its distance; one that is not (a score or
/// table entry that was wrong) is better missing than wrong.
pub(super) fn line(ctx: &mut Ctx, pos: &Position, score: i32) -> Option<Vec<Move>> {
    let pv = line_keeping(ctx, pos, score)?;
    match describe(score) {
        (Value::Draw, _) => Some(pv),
        (_, plies) => (pv.len() == plies as usize).then_some(pv),
    }
}

/// [`line`], trusting `score`.
fn line_keeping(ctx: &mut Ctx, pos: &Position, mut score: i32) -> Option<Vec<Move>> {
    let mut pv = Vec::new();
    let mut pos = *pos;
    while terminal_score(&pos).is_none() {
        // Where the table has no move for the node (its score came from
        // the book), its moves are proven in the search's own order first,
        // which leaves the one that reaches the score in the table: tried
        // in their listed order, wrong moves were refuted one after
        // another.
        let hint = ctx.table.probe(pos.hash()).and_then(|hit| hit.mv);
        if hint.is_none() && !threatens_win(&pos, pos.side_to_move()) {
            ctx.search_moves(&pos, score - 1, score);
            if ctx.aborted {
                return None;
            }
        }
        let want = down(score);
        let mut found = None;
        for m in table_move_first(ctx, &pos) {
            let child = pos.play_unchecked(m);
            if keeps(ctx, &child, want)? {
                found = Some((m, child));
                break;
            }
        }
        // The score is exact, so some move keeps it; if none is found the
        // table lied, and a line is better missing than wrong.
        let (m, child) = found?;
        debug_assert_eq!(up(want), score);
        pv.push(m);
        pos = child;
        score = want;
    }
    Some(pv)
}
