//! The search's static evaluation: the race evaluation's terms weighted for
//! picking moves that keep a proven value, with two pawn-structure terms
//! the solver's ordering does without.

use super::{
    EVAL_LIMIT, PAWN, RACE_LEAD, RACE_WIN, RACE_WIN_STEP, SCALE, Side, Weights, rank_counts,
    side_valued,
};
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
/// Per candidate passer ([`structure_counts`]).
const CANDIDATE: i32 = 20;

/// The score of `pos` for the side to move at the search's leaves: its
/// [`leaf_terms`] weighted by [`LEAF_WEIGHTS`], clamped, counted set-wise
/// rather than pawn by pawn (the search evaluates every leaf). Only
/// meaningful for positions still being played.
pub fn evaluate_leaf(pos: &Position) -> i32 {
    let w = &LEAF_WEIGHTS[pos.rules().height() as usize];
    let us = pos.side_to_move();
    let (mine, theirs) = (leaf_side(pos, us, w), leaf_side(pos, !us, w));
    let mut score = mine.value - theirs.value + w[term::TEMPO];
    // As in `combine`: the side to move promotes a passer needing d moves
    // on ply 2d-1, the other side on ply 2d, so the side to move wins ties.
    if let Some(d) = mine.passer {
        if d <= theirs.fastest {
            score += w[term::RACE_WINS] + w[term::RACE_WIN_MOVES] * d as i32;
        } else if theirs.passer.is_none_or(|t| d <= t) {
            score += w[term::RACE_LEADS];
        }
    }
    if let Some(d) = theirs.passer {
        if d < mine.fastest {
            score -= w[term::RACE_WINS] + w[term::RACE_WIN_MOVES] * d as i32;
        } else if mine.passer.is_none_or(|m| d < m) {
            score -= w[term::RACE_LEADS];
        }
    }
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
    let behind = match color {
        Color::White => pawns.shift_ranks(-1),
        Color::Black => pawns.shift_ranks(1),
    };
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

/// The leaf evaluation's terms, each the side to move's count less the
/// other side's (the tempo is 1): [`evaluate_leaf`] is their sum weighted
/// by [`LEAF_WEIGHTS`], clamped. Tuning fits the weights to positions the
/// solver labelled (`engine::tune`), and may weigh terms the evaluation
/// leaves at nought.
pub const LEAF_TERMS: usize = 21;

/// Where each term sits in [`leaf_terms`].
pub mod term {
    /// Pawns by advancement from the home rank, 0 to 5 (the 8x8 board's;
    /// a shorter board uses the first few).
    pub const PAWN_AT: usize = 0;
    /// Advancements counted apart: the 8x8 board's six ranks a pawn
    /// stands on before its goal.
    pub const ADVANCEMENTS: usize = 6;
    /// Passed pawns by advancement, on top of their [`PAWN_AT`].
    pub const PASSED_AT: usize = 6;
    pub const GUARDS: usize = 12;
    pub const CANDIDATES: usize = 13;
    /// Pawns with a pawn of their own ahead on their file.
    pub const DOUBLED: usize = 14;
    /// Pawns with no pawn of their own on the files beside.
    pub const ISOLATED: usize = 15;
    /// Single pushes onto a square no enemy pawn attacks. (Rammed pawns
    /// were tried first: a ram is always mutual, so their difference is
    /// nought.)
    pub const SAFE_PUSHES: usize = 16;
    /// A passer that promotes before any enemy pawn can (the race's win).
    pub const RACE_WINS: usize = 17;
    /// The moves that winning passer still needs.
    pub const RACE_WIN_MOVES: usize = 18;
    /// A passer ahead of every enemy passer, though not surely winning.
    pub const RACE_LEADS: usize = 19;
    pub const TEMPO: usize = 20;

    /// Each term's name, as `pawnrace tune fit` prints and selects them.
    pub const NAMES: [&str; super::LEAF_TERMS] = [
        "pawn0",
        "pawn1",
        "pawn2",
        "pawn3",
        "pawn4",
        "pawn5",
        "passed0",
        "passed1",
        "passed2",
        "passed3",
        "passed4",
        "passed5",
        "guards",
        "candidates",
        "doubled",
        "isolated",
        "safe-pushes",
        "race-wins",
        "race-win-moves",
        "race-leads",
        "tempo",
    ];
}

/// [`leaf_terms`]' weights by board height: [`evaluate_leaf`] is their
/// weighted sum, clamped.
pub const LEAF_WEIGHTS: [[i32; LEAF_TERMS]; 9] = {
    let mut all = [[0; LEAF_TERMS]; 9];
    let mut height = 0;
    while height < 9 {
        let w = &mut all[height];
        let scale = SCALE[height];
        let mut adv = 0;
        while adv < term::ADVANCEMENTS {
            let adv2 = (adv * adv) as i32;
            w[term::PAWN_AT + adv] = PAWN + scale * adv2 * LEAF.advance / 8;
            w[term::PASSED_AT + adv] = 10 + scale * adv2 / 2;
            adv += 1;
        }
        w[term::GUARDS] = GUARD;
        w[term::CANDIDATES] = CANDIDATE;
        w[term::RACE_WINS] = RACE_WIN;
        w[term::RACE_WIN_MOVES] = -RACE_WIN_STEP;
        w[term::RACE_LEADS] = RACE_LEAD;
        w[term::TEMPO] = LEAF.tempo;
        height += 1;
    }
    all
};

/// The terms of `pos` ([`LEAF_TERMS`]), as [`evaluate_leaf`] weighs them.
pub fn leaf_terms(pos: &Position) -> [i32; LEAF_TERMS] {
    let us = pos.side_to_move();
    let mut t = [0; LEAF_TERMS];
    let mine = side_terms(pos, us, 1, &mut t);
    let theirs = side_terms(pos, !us, -1, &mut t);
    if let Some(d) = mine.passer {
        if d <= theirs.fastest {
            t[term::RACE_WINS] += 1;
            t[term::RACE_WIN_MOVES] += d as i32;
        } else if theirs.passer.is_none_or(|t| d <= t) {
            t[term::RACE_LEADS] += 1;
        }
    }
    if let Some(d) = theirs.passer {
        if d < mine.fastest {
            t[term::RACE_WINS] -= 1;
            t[term::RACE_WIN_MOVES] -= d as i32;
        } else if mine.passer.is_none_or(|m| d < m) {
            t[term::RACE_LEADS] -= 1;
        }
    }
    t[term::TEMPO] = 1;
    t
}

/// Adds `color`'s pawn terms to `t` with `sign`; its race distances.
fn side_terms(pos: &Position, color: Color, sign: i32, t: &mut [i32; LEAF_TERMS]) -> Side {
    let pawns = pos.pawns(color);
    let enemy = pos.pawns(!color);
    let blocked_files = enemy.front_span(!color);
    let passed = pawns & !blocked_files.widen();
    let home = i32::from(pos.rules().home_rank(color));
    for sq in pawns {
        let adv = advancement(i32::from(sq.rank()), home);
        t[term::PAWN_AT + adv] += sign;
        if !(passed & sq.bb()).is_empty() {
            t[term::PASSED_AT + adv] += sign;
        }
    }
    let (guards, candidates) = structure_counts(pos, color, pawns, passed, blocked_files);
    t[term::GUARDS] += sign * guards;
    t[term::CANDIDATES] += sign * candidates;
    let (doubled, isolated, pushes) = shape_counts(pos, color, pawns, enemy);
    t[term::DOUBLED] += sign * doubled;
    t[term::ISOLATED] += sign * isolated;
    t[term::SAFE_PUSHES] += sign * pushes;
    side_valued(pos, color, pawns, passed, 0)
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
mod tests {
    use super::*;
    use crate::eval::EVAL_LIMIT;
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
    fn the_leaf_evaluation_is_its_weighted_terms() {
        let mut next = xorshift(0x0F1E_2D3C_4B5A_6978);
        let mut checked = 0;
        for rules in [RuleSet::PAWNRACE, RuleSet::MINI4] {
            for _ in 0..3000 {
                let (white, black) = random_pawns(&mut next, rules);
                for side in Color::BOTH {
                    let Ok(p) = Position::new(rules, white, black, side, None) else {
                        continue;
                    };
                    let weights = &LEAF_WEIGHTS[rules.height() as usize];
                    let sum: i32 = leaf_terms(&p).iter().zip(weights).map(|(t, w)| t * w).sum();
                    assert_eq!(
                        evaluate_leaf(&p),
                        sum.clamp(-EVAL_LIMIT, EVAL_LIMIT),
                        "{}",
                        p.fen()
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    #[test]
    fn the_terms_count_doubled_isolated_pawns_and_safe_pushes() {
        // White's c3 stands ahead of c2 (doubled); h2 is isolated. Black's
        // b6 and h3 are isolated. White may push b4 and c3 safely (c2 and
        // h2 are blocked); black b6 (b4 attacks a5 and c5, not b5).
        let p = fen("8/8/1p6/8/1P6/2P4p/2P4P/8 w -");
        let t = leaf_terms(&p);
        assert_eq!(t[term::DOUBLED], 1);
        assert_eq!(t[term::ISOLATED], 1 - 2);
        assert_eq!(t[term::SAFE_PUSHES], 2 - 1);
        assert_eq!(t[term::TEMPO], 1);
        assert_eq!(
            t[term::PAWN_AT..term::PAWN_AT + 6].iter().sum::<i32>(),
            4 - 2
        );
    }

    #[test]
    fn the_structure_counts_guards_and_candidates() {
        // c4 is a candidate: its file is free ahead, and b3 may trade
        // itself for b6. b3 guards c4. Black's b6 faces b3 on its file.
        let p = fen("8/8/1p6/8/2P5/1P6/8/8 w -");
        let structure_of = |p: &Position, c: Color| {
            let pawns = p.pawns(c);
            let blocked_files = p.pawns(!c).front_span(!c);
            structure_counts(p, c, pawns, pawns & !blocked_files.widen(), blocked_files)
        };
        assert_eq!(structure_of(&p, Color::White), (1, 1));
        assert_eq!(structure_of(&p, Color::Black), (0, 0));
        // Two sentries and no helper: c4 is no candidate.
        let q = fen("8/8/1p1p4/8/2P5/8/8/8 w -");
        assert_eq!(structure_of(&q, Color::White), (0, 0));
        // A passed pawn is not a candidate, and guards no one alone.
        let r = fen("8/7p/8/8/2P5/8/8/8 w -");
        assert_eq!(structure_of(&r, Color::White), (0, 0));
    }
}
