//! Positions' unit tests: starts, en passant, validation, outcomes, mirrors and keys.

use super::*;
use crate::rules::{Move, Outcome, Reason};

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn ah() -> Position {
    Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap()
}

#[test]
fn the_ah_start_has_fourteen_moves() {
    let p = ah();
    assert_eq!(p.pawns(Color::White).count(), 7);
    assert!(!p.pawns(Color::White).has(sq("a2")));
    assert!(!p.pawns(Color::Black).has(sq("h7")));
    assert_eq!(p.legal_moves().len(), 14);
    assert_eq!(p.outcome(), None);
}

#[test]
fn pawn_race_needs_gaps_and_mini4_refuses_them() {
    assert!(Position::start(RuleSet::PAWNRACE, None).is_err());
    assert!(Position::start(RuleSet::MINI4, Some("AB".parse().unwrap())).is_err());
    let m = Position::start(RuleSet::MINI4, None).unwrap();
    assert_eq!(m.legal_moves().len(), 4); // single steps only
}

#[test]
fn en_passant_square_is_set_only_when_usable() {
    let p = ah();
    let p = p.play_unchecked(Move::new(sq("e2"), sq("e4")));
    assert_eq!(p.en_passant(), None);
    let w = Position::new(
        RuleSet::PAWNRACE,
        sq("e5").bb(),
        sq("d7").bb(),
        Color::Black,
        None,
    )
    .unwrap();
    let after = w.play_unchecked(Move::new(sq("d7"), sq("d5")));
    assert_eq!(after.en_passant(), Some(sq("d6")));
    // The same from position text: a square no pawn can use is dropped.
    let read = Position::from_fen("8/8/8/3pP3/8/8/8/8 w d6", RuleSet::PAWNRACE).unwrap();
    assert_eq!(read, after);
    let idle = Position::from_fen("8/8/8/3p4/8/8/6P1/8 w d6", RuleSet::PAWNRACE).unwrap();
    assert_eq!(idle.en_passant(), None);
    assert_eq!(
        idle.hash(),
        Position::from_fen("8/8/8/3p4/8/8/6P1/8 w -", RuleSet::PAWNRACE)
            .unwrap()
            .hash()
    );
    let ep = Move::new(sq("e5"), sq("d6"));
    assert!(after.is_legal(ep));
    let taken = after.play_unchecked(ep);
    assert!(taken.pawns(Color::Black).is_empty());
    assert_eq!(taken.outcome().unwrap().reason, Reason::LastCapture);
}

#[test]
fn validation_names_the_problem() {
    let r = RuleSet::PAWNRACE;
    let e = Position::new(r, sq("e8").bb(), sq("d7").bb(), Color::Black, None);
    assert_eq!(e, Err(PositionError::OnLastRank(Color::White, sq("e8"))));
    let e = Position::new(r, sq("e1").bb(), sq("d7").bb(), Color::Black, None);
    assert_eq!(e, Err(PositionError::BehindHome(Color::White, sq("e1"))));
    let e = Position::new(r, Bitboard::EMPTY, sq("d7").bb(), Color::Black, None);
    assert_eq!(e, Err(PositionError::MoverHasNoPawns(Color::White)));
    let e = Position::new(
        r,
        sq("e5").bb(),
        sq("d5").bb(),
        Color::White,
        Some(sq("d3")),
    );
    assert!(matches!(e, Err(PositionError::EnPassant(_))));
    let e = Position::new(r, Bitboard::rank(3), sq("d7").bb(), Color::White, None);
    assert!(matches!(
        e,
        Err(PositionError::TooManyPawns {
            count: 8,
            max: 7,
            ..
        })
    ));
}

#[test]
fn outcomes_cover_promotion_and_stalemate() {
    let r = RuleSet::PAWNRACE;
    let p = Position::new(r, sq("e7").bb(), sq("a7").bb(), Color::White, None).unwrap();
    let won = p.play_unchecked(Move::new(sq("e7"), sq("e8")));
    assert_eq!(
        won.outcome(),
        Some(Outcome {
            winner: Some(Color::White),
            reason: Reason::Promotion(sq("e8"))
        })
    );
    assert!(won.legal_moves().is_empty());
    let blocked = Position::new(r, sq("e4").bb(), sq("e5").bb(), Color::White, None).unwrap();
    assert_eq!(
        blocked.outcome(),
        Some(Outcome {
            winner: None,
            reason: Reason::Stalemate
        })
    );
    let mini = Position::new(
        RuleSet::MINI4,
        sq("a2").bb(),
        sq("a3").bb(),
        Color::White,
        None,
    )
    .unwrap();
    assert_eq!(
        mini.outcome(),
        Some(Outcome {
            winner: Some(Color::Black),
            reason: Reason::NoMoves
        })
    );
}

#[test]
fn mirroring_twice_is_the_identity_and_keeps_move_counts() {
    let p = ah().play_unchecked(Move::new(sq("e2"), sq("e4")));
    let m = p.mirror();
    assert_eq!(m.mirror(), p);
    assert_eq!(m.legal_moves().len(), p.legal_moves().len());
    assert_ne!(m.hash(), p.hash());
}

#[test]
fn equal_pawns_under_other_rules_hash_apart() {
    let (w, b) = (sq("b2").bb(), sq("c3").bb());
    let custom = RuleSet::new(4, 4, 1, true, false, true, crate::rules::NoMoves::Draw).unwrap();
    let keys: Vec<u64> = [RuleSet::PAWNRACE, RuleSet::MINI4, custom]
        .into_iter()
        .map(|r| Position::new(r, w, b, Color::White, None).unwrap().hash())
        .collect();
    assert!(
        keys[0] != keys[1] && keys[1] != keys[2] && keys[0] != keys[2],
        "{keys:?}"
    );
}

#[test]
fn file_mirrors_swap_gap_files_and_keep_the_rest() {
    let af = Position::start(RuleSet::PAWNRACE, Some("AF".parse().unwrap())).unwrap();
    let hc = Position::start(RuleSet::PAWNRACE, Some("HC".parse().unwrap())).unwrap();
    assert_eq!(af.mirror_files(), hc);
    assert_eq!(af.mirror_files().mirror_files(), af);
    let m = Move::new(sq("b2"), sq("b4"));
    let flipped = Move::new(sq("g2"), sq("g4"));
    let after = af.play_unchecked(m);
    assert_eq!(after.mirror_files(), hc.play_unchecked(flipped));
    let ep = Position::from_fen("8/8/8/8/1Pp5/8/8/8 b b3", RuleSet::PAWNRACE).unwrap();
    assert_eq!(ep.mirror_files().fen(), "8/8/8/8/5pP1/8/8/8 b g3");
}
