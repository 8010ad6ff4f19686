//! The search's static evaluation: the race evaluation's terms weighted for
//! picking moves that keep a proven value, with pawn-structure terms the
//! solver's ordering does without. Each term is named ([`term`]) and
//! counted apart by [`leaf_terms`], so that tuning (`lab::tune`) can
//! fit the weights; [`evaluate_leaf`] counts the same set-wise.

mod terms;

pub use terms::{LEAF_TERMS, LEAF_WEIGHTS, leaf_terms, term};

use super::{EVAL_LIMIT, Side, race_score, rank_counts, side_valued};
use crate::rules::{Bitboard, Color, Position};

/// The score of `pos` for the side to move at the search's leaves: its
/// [`leaf_terms`] weighted by [`LEAF_WEIGHTS`], clamped, counted set-wise
/// rather than pawn by pawn (the search evaluates every leaf). Only
/// meaningful for positions still being played.
pub fn evaluate_leaf(pos: &Position) -> i32 {
    let w = &LEAF_WEIGHTS[pos.rules().height() as usize];
    let us = pos.side_to_move();
    let (mine, theirs) = (leaf_side(pos, us, w), leaf_side(pos, !us, w));
    let race = [term::RACE_WINS, term::RACE_WIN_MOVES, term::RACE_LEADS].map(|t| w[t]);
    let score = mine.value - theirs.value + w[term::TEMPO] + race_score(&mine, &theirs, race);
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

/// One side's share of the leaf evaluation, weighted by `w`.
fn leaf_side(pos: &Position, color: Color, w: &[i32; LEAF_TERMS]) -> Side {
    let pawns = pos.pawns(color);
    let enemy = pos.pawns(!color);
    // The files' squares behind enemy pawns: beside them, a pawn of ours is
    // not passed; on them, its file is not free.
    let blocked_files = enemy.front_span(!color);
    let passed = pawns & !blocked_files.widen();
    // Pawns on a rank share their advancement: each rank's are counted at
    // once (as in `ranks_value`).
    let (counts, passed_counts) = (rank_counts(pawns.0), rank_counts(passed.0));
    let home = i32::from(pos.rules().home_rank(color));
    let mut value = 0;
    let mut left = pawns.0;
    while left != 0 {
        let shift = left.trailing_zeros() & !7;
        let adv = advancement((shift / 8) as i32, home);
        value += (counts >> shift & 0xFF) as i32 * w[term::PAWN_AT + adv]
            + (passed_counts >> shift & 0xFF) as i32 * w[term::PASSED_AT + adv];
        left &= !(0xFF << shift);
    }
    let (guards, candidates) = structure_counts(pos, color, pawns, passed, blocked_files);
    value += w[term::GUARDS] * guards + w[term::CANDIDATES] * candidates;
    // Unweighted on every board today: not worth their 2-3% of a node.
    if w[term::DOUBLED] != 0 || w[term::ISOLATED] != 0 || w[term::SAFE_PUSHES] != 0 {
        let (doubled, isolated, pushes) = shape_counts(pos, color, pawns, enemy);
        value += w[term::DOUBLED] * doubled
            + w[term::ISOLATED] * isolated
            + w[term::SAFE_PUSHES] * pushes;
    }
    side_valued(pos, color, pawns, passed, value)
}

/// The advancement term a pawn on `rank` counts in, `home` being its
/// side's home rank: a pawn on its goal (a finished game) counts as the
/// furthest, so that no board indexes past its terms.
fn advancement(rank: i32, home: i32) -> usize {
    ((rank - home).unsigned_abs() as usize).min(term::ADVANCEMENTS - 1)
}

/// The doubled and isolated pawns among `pawns`, and their safe pushes
/// ([`term`]).
fn shape_counts(pos: &Position, color: Color, pawns: Bitboard, enemy: Bitboard) -> (i32, i32, i32) {
    let ahead = pawns.front_span(color);
    let doubled = (pawns & ahead).count() as i32;
    let files = pawns | ahead | pawns.front_span(!color);
    let isolated = (pawns & !beside(files)).count() as i32;
    let empty = pos.rules().board() & !(pawns | enemy);
    let attacked = beside(forward(!color, enemy));
    let pushes = (forward(color, pawns) & empty & !attacked).count() as i32;
    (doubled, isolated, pushes)
}

/// `b` one rank forward for `color`.
fn forward(color: Color, b: Bitboard) -> Bitboard {
    match color {
        Color::White => b.shift_ranks(1),
        Color::Black => b.shift_ranks(-1),
    }
}

/// The pawn-structure counts for `color`'s `pawns`, `passed` of them
/// passed: pawns guarding others (standing diagonally behind one of their
/// own: held back), and candidate passers (not passed, but no enemy pawn
/// ahead on their file, and at least as many pawns of their own on the
/// neighbouring files as enemy pawns ahead there: they can force their way
/// through by exchanges).
fn structure_counts(
    pos: &Position,
    color: Color,
    pawns: Bitboard,
    passed: Bitboard,
    blocked_files: Bitboard,
) -> (i32, i32) {
    let enemy = pos.pawns(!color);
    let behind = forward(!color, pawns);
    let guards = (pawns & beside(behind)).count() as i32;
    let mut candidates = 0;
    for sq in pawns & !passed & !blocked_files {
        let sentries = Bitboard(AHEAD_BESIDE[color.index()][sq.index()]) & enemy;
        let helpers = Bitboard(BESIDE[sq.file() as usize]) & pawns;
        if helpers.count() >= sentries.count() {
            candidates += 1;
        }
    }
    (guards, candidates)
}

/// The squares one file either side of `b`'s, without wrapping.
fn beside(b: Bitboard) -> Bitboard {
    Bitboard(((b.0 & !Bitboard::FILE_A.0) >> 1) | ((b.0 & !Bitboard::FILE_H.0) << 1))
}

/// The squares of the files beside each file.
const BESIDE: [u64; 8] = {
    let mut t = [0; 8];
    let mut f = 0;
    while f < 8 {
        let file = Bitboard::file(f as u8);
        t[f] = file.widen().0 & !file.0;
        f += 1;
    }
    t
};

/// By colour and square: the squares ahead of a pawn there, on the files
/// beside its own (where the enemy pawns that can stop it stand).
const AHEAD_BESIDE: [[u64; 64]; 2] = {
    let mut t = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let pawn = Bitboard(1 << sq);
        let beside = BESIDE[sq % 8];
        t[0][sq] = pawn.front_span(Color::White).widen().0 & beside;
        t[1][sq] = pawn.front_span(Color::Black).widen().0 & beside;
        sq += 1;
    }
    t
};

#[cfg(test)]
mod tests;
