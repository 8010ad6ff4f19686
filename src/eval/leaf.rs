//! The search's static evaluation: the race evaluation's terms weighted for
//! picking moves that keep a proven value, with two pawn-structure terms
//! the solver's ordering does without.

use super::{Side, Weights, combine, ranks_value, side_valued};
use crate::rules::{Bitboard, Color, Position};

/// The search's leaves ([`evaluate_leaf`]): its picks keep a proven value
/// most often. Against the ordering weights, the search alone (`pawnrace
/// bench --keep --search-nodes N`) kept 181/192/197 of the 256 keep-set
/// positions at 100 K/300 K/1 M nodes where it kept 152/167/180. Each term
/// was tried a step up and down on its own, then all together.
const LEAF: Weights = Weights {
    advance: 4,
    tempo: 0,
};
/// Per pawn guarding another of its side (standing diagonally behind it):
/// a pawn held back.
const GUARD: i32 = -10;
/// Per candidate passer ([`structure`]).
const CANDIDATE: i32 = 20;

/// The score of `pos` for the side to move at the search's leaves, on the
/// same scale as the solver's ordering evaluation but weighted for picking
/// moves ([`LEAF`], [`GUARD`], [`CANDIDATE`]). Only meaningful for positions still being played.
pub fn evaluate_leaf(pos: &Position) -> i32 {
    let us = pos.side_to_move();
    combine(leaf_side(pos, us), leaf_side(pos, !us), LEAF.tempo)
}

/// One side's share of the leaf evaluation.
fn leaf_side(pos: &Position, color: Color) -> Side {
    let pawns = pos.pawns(color);
    // The files' squares behind enemy pawns: beside them, a pawn of ours is
    // not passed; on them, its file is not free.
    let blocked_files = pos.pawns(!color).front_span(!color);
    let passed = pawns & !blocked_files.widen();
    let value = ranks_value(pos, color, pawns, passed, LEAF.advance)
        + structure(pos, color, pawns, passed, blocked_files);
    side_valued(pos, color, pawns, passed, value)
}

/// The pawn-structure terms for `color`'s `pawns`, `passed` of them
/// passed: pawns guarding others (standing diagonally behind one of their
/// own: held back), and candidate passers (not passed, but no enemy pawn
/// ahead on their file, and at least as many pawns of their own on the
/// neighbouring files as enemy pawns ahead there: they can force their way
/// through by exchanges).
fn structure(
    pos: &Position,
    color: Color,
    pawns: Bitboard,
    passed: Bitboard,
    blocked_files: Bitboard,
) -> i32 {
    let enemy = pos.pawns(!color);
    let behind = match color {
        Color::White => pawns.shift_ranks(-1),
        Color::Black => pawns.shift_ranks(1),
    };
    let guarding =
        Bitboard(((behind.0 & !Bitboard::FILE_A.0) >> 1) | ((behind.0 & !Bitboard::FILE_H.0) << 1));
    let mut value = GUARD * (pawns & guarding).count() as i32;
    for sq in pawns & !passed & !blocked_files {
        let sentries = Bitboard(AHEAD_BESIDE[color.index()][sq.index()]) & enemy;
        let helpers = Bitboard(BESIDE[sq.file() as usize]) & pawns;
        if helpers.count() >= sentries.count() {
            value += CANDIDATE;
        }
    }
    value
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
mod tests {
    use super::*;
    use crate::eval::tests::{random_pawns, xorshift};
    use crate::rules::RuleSet;

    fn fen(text: &str) -> Position {
        Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
    }

    #[test]
    fn the_leaf_evaluation_mirrors_exactly() {
        let mut next = xorshift(0x1234_5678_9ABC_DEF1);
        let mut checked = 0;
        for rules in [RuleSet::PAWNRACE, RuleSet::MINI4] {
            for _ in 0..3000 {
                let (white, black) = random_pawns(&mut next, rules);
                let Ok(p) = Position::new(rules, white, black, Color::White, None) else {
                    continue;
                };
                assert_eq!(evaluate_leaf(&p), evaluate_leaf(&p.mirror()), "{}", p.fen());
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn the_structure_counts_guards_and_candidates() {
        // c4 is a candidate: its file is free ahead, and b3 may trade
        // itself for b6. b3 guards c4. Black's b6 faces b3 on its file.
        let p = fen("8/8/1p6/8/2P5/1P6/8/8 w -");
        let structure_of = |p: &Position, c: Color| {
            let pawns = p.pawns(c);
            let blocked_files = p.pawns(!c).front_span(!c);
            structure(p, c, pawns, pawns & !blocked_files.widen(), blocked_files)
        };
        assert_eq!(structure_of(&p, Color::White), GUARD + CANDIDATE);
        assert_eq!(structure_of(&p, Color::Black), 0);
        // Two sentries and no helper: c4 is no candidate.
        let q = fen("8/8/1p1p4/8/2P5/8/8/8 w -");
        assert_eq!(structure_of(&q, Color::White), 0);
        // A passed pawn is not a candidate, and guards no one alone.
        let r = fen("8/7p/8/8/2P5/8/8/8 w -");
        assert_eq!(structure_of(&r, Color::White), 0);
    }
}
