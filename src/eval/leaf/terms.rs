//! The leaf evaluation's terms by name, their hand-chosen weights, and the
//! terms of a position counted one by one: the reference that
//! [`evaluate_leaf`](super::evaluate_leaf) counts set-wise, and what
//! tuning fits.

use super::{advancement, shape_counts, structure_counts};
use crate::eval::{
    PAWN, RACE_LEAD, RACE_WIN, RACE_WIN_STEP, SCALE, Side, Weights, race_score, side_valued,
};
use crate::rules::{Color, Position};

/// The search's leaves ([`evaluate_leaf`](super::evaluate_leaf)): its picks keep a proven value
/// most often. Against the ordering weights, the search alone (`pawnrace
/// bench keep --search-nodes N`) kept 181/192/197 of the 256 keep-set
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

/// The leaf evaluation's terms, each the side to move's count less the
/// other side's (the tempo is 1): the search's leaf evaluation is their sum
/// weighted by `LEAF_WEIGHTS`, clamped. Tuning fits the weights to
/// positions the solver labelled (`lab::tune`), and may weigh terms the
/// evaluation leaves at nought.
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

/// [`leaf_terms`]' weights by board height: [`evaluate_leaf`](super::evaluate_leaf) is their
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

/// The terms of `pos` ([`LEAF_TERMS`]), as [`evaluate_leaf`](super::evaluate_leaf) weighs them.
pub fn leaf_terms(pos: &Position) -> [i32; LEAF_TERMS] {
    let us = pos.side_to_move();
    let mut t = [0; LEAF_TERMS];
    let mine = side_terms(pos, us, 1, &mut t);
    let theirs = side_terms(pos, !us, -1, &mut t);
    // Each race term's count: the race's score with that term's weight 1.
    for (i, at) in [term::RACE_WINS, term::RACE_WIN_MOVES, term::RACE_LEADS]
        .into_iter()
        .enumerate()
    {
        let mut unit = [0; 3];
        unit[i] = 1;
        t[at] = race_score(&mine, &theirs, unit);
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
