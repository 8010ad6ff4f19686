use super::*;
use crate::eval::EVAL_LIMIT;
use crate::eval::tests::random_positions;
use crate::rules::RuleSet;

fn fen(text: &str) -> Position {
    Position::from_fen(text, RuleSet::PAWNRACE).unwrap()
}

#[test]
fn the_leaf_evaluation_mirrors_exactly() {
    let positions = random_positions(0x1234_5678_9ABC_DEF1, 3000, &[Color::White]);
    for p in &positions {
        assert_eq!(evaluate_leaf(p), evaluate_leaf(&p.mirror()), "{}", p.fen());
    }
    assert!(positions.len() > 1000, "{}", positions.len());
}

#[test]
fn the_leaf_evaluation_is_its_weighted_terms() {
    let positions = random_positions(0x0F1E_2D3C_4B5A_6978, 3000, &Color::BOTH);
    for p in &positions {
        let weights = &LEAF_WEIGHTS[p.rules().height() as usize];
        let sum: i32 = leaf_terms(p).iter().zip(weights).map(|(t, w)| t * w).sum();
        assert_eq!(
            evaluate_leaf(p),
            sum.clamp(-EVAL_LIMIT, EVAL_LIMIT),
            "{}",
            p.fen()
        );
    }
    assert!(positions.len() > 2000, "{}", positions.len());
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
