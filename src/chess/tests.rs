//! Every kind's moves and blocks, turn order and every reason a move is
//! refused, on small hand-made positions.

use super::*;
use crate::rules::Color;

/// An 8x8 chess game from a layout, white to move.
fn game(layout: &str) -> Game {
    Game::new(ChessVariant::new(8, 8, PieceKind::chess_set(), layout).unwrap())
}

fn sq(s: &str) -> ChessSquare {
    s.parse().unwrap()
}

fn mv(s: &str) -> ChessMove {
    s.parse().unwrap()
}

/// The squares the piece on `from` may go to, sorted by name.
fn targets(g: &Game, from: &str) -> Vec<String> {
    let mut list: Vec<String> = g
        .valid_moves()
        .into_iter()
        .filter(|m| m.from == sq(from))
        .map(|m| m.to.to_string())
        .collect();
    list.sort();
    list
}

fn names(list: &str) -> Vec<String> {
    let mut v: Vec<String> = list.split_whitespace().map(String::from).collect();
    v.sort();
    v
}

fn reason(g: &Game, m: &str) -> Invalid {
    g.check(mv(m)).unwrap_err()
}

#[test]
fn a_knight_leaps_to_its_eight_squares_over_anything() {
    // Boxed in by pieces of both sides, it still reaches every L square.
    let g = game("8/8/8/2pPp3/2PNP3/2pPp3/8/8");
    assert_eq!(targets(&g, "d4"), names("b3 b5 c2 c6 e2 e6 f3 f5"));
    let g = game("8/8/8/8/8/8/8/N7");
    assert_eq!(targets(&g, "a1"), names("b3 c2"));
    let g = Game::chess();
    assert_eq!(targets(&g, "b1"), names("a3 c3"));
    assert!(matches!(reason(&g, "b1b3"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn a_bishop_slides_diagonally_until_something_stands_in_the_way() {
    let g = game("8/8/8/8/3B4/8/8/8");
    assert_eq!(targets(&g, "d4").len(), 13);
    // Own piece on f6 stops it before f6; the enemy on b2 is taken, a1 is
    // behind it.
    let g = game("8/8/5P2/8/3B4/8/1p6/8");
    assert_eq!(targets(&g, "d4"), names("a7 b6 c5 e5 c3 b2 e3 f2 g1"));
    assert_eq!(reason(&g, "d4g7"), Invalid::PathBlocked(sq("f6")));
    assert_eq!(reason(&g, "d4a1"), Invalid::PathBlocked(sq("b2")));
    assert_eq!(reason(&g, "d4f6"), Invalid::OwnPiece(sq("f6")));
    assert!(matches!(reason(&g, "d4d5"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn a_rook_slides_along_ranks_and_files() {
    let g = game("8/8/8/8/8/8/8/R7");
    assert_eq!(targets(&g, "a1").len(), 14);
    let g = game("8/8/8/p7/8/8/8/R2P4");
    assert_eq!(targets(&g, "a1"), names("a2 a3 a4 a5 b1 c1"));
    assert_eq!(reason(&g, "a1a8"), Invalid::PathBlocked(sq("a5")));
    assert_eq!(reason(&g, "a1h1"), Invalid::PathBlocked(sq("d1")));
    assert!(matches!(reason(&g, "a1b2"), Invalid::NotHowItMoves { .. }));
    // At the start it is boxed in.
    assert!(targets(&Game::chess(), "a1").is_empty());
}

#[test]
fn a_queen_slides_both_ways() {
    let g = game("8/8/8/8/3Q4/8/8/8");
    assert_eq!(targets(&g, "d4").len(), 27);
    let g = game("8/8/8/8/3Q4/2PP4/8/8");
    assert_eq!(reason(&g, "d4d1"), Invalid::PathBlocked(sq("d3")));
    assert_eq!(reason(&g, "d4b2"), Invalid::PathBlocked(sq("c3")));
    assert!(matches!(reason(&g, "d4e6"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn a_king_steps_one_square_any_way() {
    let g = game("8/8/8/8/3K4/8/8/8");
    assert_eq!(targets(&g, "d4"), names("c3 c4 c5 d3 d5 e3 e4 e5"));
    let g = game("8/8/8/8/8/8/3p4/4K3");
    assert_eq!(targets(&g, "e1"), names("d1 d2 e2 f1 f2"));
    assert!(matches!(reason(&g, "e1e3"), Invalid::NotHowItMoves { .. }));
    assert!(matches!(reason(&g, "e1g1"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn a_pawn_pushes_one_or_two_first_and_captures_only_diagonally() {
    let g = Game::chess();
    assert_eq!(targets(&g, "e2"), names("e3 e4"));
    // Blocked on the square in front: no move; on the second: single only.
    let g = game("8/8/8/8/4p3/3n4/3PP3/8");
    assert!(targets(&g, "d2").is_empty());
    assert_eq!(targets(&g, "e2"), names("e3 d3"));
    assert_eq!(reason(&g, "d2d4"), Invalid::PathBlocked(sq("d3")));
    assert_eq!(reason(&g, "d2d3"), Invalid::PushOntoPiece(sq("d3")));
    assert_eq!(reason(&g, "e2e4"), Invalid::PushOntoPiece(sq("e4")));
    assert_eq!(reason(&g, "e2f3"), Invalid::CaptureOntoEmpty(sq("f3")));
    assert!(matches!(reason(&g, "e2e5"), Invalid::NotHowItMoves { .. }));
    assert!(matches!(reason(&g, "e2e1"), Invalid::NotHowItMoves { .. }));
    assert!(matches!(reason(&g, "e2f2"), Invalid::NotHowItMoves { .. }));
    assert!(matches!(reason(&g, "e2c4"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn a_pawn_has_its_long_step_only_on_its_first_move() {
    let mut g = Game::chess();
    for m in ["e2e3", "a7a6", "d2d4", "a6a5"] {
        g.play(mv(m)).unwrap();
    }
    assert_eq!(targets(&g, "e3"), names("e4"));
    assert_eq!(reason(&g, "e3e5"), Invalid::AlreadyMoved(sq("e3")));
    assert_eq!(reason(&g, "d4d6"), Invalid::AlreadyMoved(sq("d4")));
}

#[test]
fn black_pawns_go_down() {
    let g = Game::chess().with_side_to_move(Color::Black);
    assert_eq!(targets(&g, "e7"), names("e6 e5"));
    let g = game("8/8/8/4p3/3P1P2/8/8/8").with_side_to_move(Color::Black);
    // A pawn a layout puts anywhere has not moved yet: its first move may be
    // the long one, as the statement's "first move of that pawn" says.
    assert_eq!(targets(&g, "e5"), names("e4 e3 d4 f4"));
    assert!(matches!(reason(&g, "e5e6"), Invalid::NotHowItMoves { .. }));
}

#[test]
fn sides_take_turns_and_a_refused_move_changes_nothing() {
    let mut g = Game::chess();
    let wrong = Invalid::WrongSide {
        square: sq("e7"),
        owner: Color::Black,
    };
    assert_eq!(g.play(mv("e7e5")), Err(wrong));
    let before = g.clone();
    assert!(g.play(mv("e2e5")).is_err());
    assert_eq!(g, before);
    g.play(mv("e2e4")).unwrap();
    assert_eq!(g.side_to_move(), Color::Black);
    assert!(matches!(g.play(mv("d2d4")), Err(Invalid::WrongSide { .. })));
    g.play(mv("e7e5")).unwrap();
    assert_eq!(g.side_to_move(), Color::White);
}

#[test]
fn every_reason_is_given_and_explained() {
    let g = game("4k3/8/8/8/8/8/3PP3/3RK3");
    let cases = [
        ("i9a1", Invalid::OffBoard(sq("i9"))),
        ("e1e9", Invalid::OffBoard(sq("e9"))),
        ("e1e1", Invalid::NullMove),
        ("a3a4", Invalid::EmptySquare(sq("a3"))),
        (
            "e8e7",
            Invalid::WrongSide {
                square: sq("e8"),
                owner: Color::Black,
            },
        ),
        ("e1e2", Invalid::OwnPiece(sq("e2"))),
        (
            "e1c3",
            Invalid::NotHowItMoves {
                piece: "king".into(),
            },
        ),
        ("d1d8", Invalid::PathBlocked(sq("d2"))),
        (
            "d2f4",
            Invalid::NotHowItMoves {
                piece: "pawn".into(),
            },
        ),
        ("d2e3", Invalid::CaptureOntoEmpty(sq("e3"))),
    ];
    for (m, want) in cases {
        let got = reason(&g, m);
        assert_eq!(got, want, "{m}");
        assert!(!got.to_string().is_empty());
    }
    let mut g = game("8/8/8/8/8/3p4/3P4/8");
    assert_eq!(reason(&g, "d2d3"), Invalid::PushOntoPiece(sq("d3")));
    let mut g2 = game("8/p7/8/8/8/8/3P4/8");
    g2.play(mv("d2d3")).unwrap();
    g2.play(mv("a7a6")).unwrap();
    assert_eq!(reason(&g2, "d3d5"), Invalid::AlreadyMoved(sq("d3")));
    assert!(g.play_text("d2 d3").is_err());
}

#[test]
fn a_king_can_be_taken_and_the_game_goes_on() {
    let mut g = game("4k3/8/8/8/8/8/p7/4Q2K");
    let taken = g.play(mv("e1e8")).unwrap().unwrap();
    assert_eq!(g.variant().kind(taken.kind).name, "king");
    assert_eq!(g.side_to_move(), Color::Black);
    assert!(!g.valid_moves().is_empty());
    g.play(mv("a2a1")).unwrap();
    g.play(mv("h1g2")).unwrap();
}

#[test]
fn a_pawn_on_its_last_rank_stays_a_pawn_and_has_nowhere_to_go() {
    let mut g = game("k7/6P1/8/8/8/8/8/K7");
    g.play(mv("g7g8")).unwrap();
    let pawn = g.board().get(sq("g8")).unwrap();
    assert_eq!(g.variant().kind(pawn.kind).name, "pawn");
    g.play(mv("a8b8")).unwrap();
    assert!(targets(&g, "g8").is_empty());
    assert!(g.render().starts_with("-- BK -- -- -- -- WP --\n"));
}

#[test]
fn moves_are_played_from_text_in_both_forms() {
    let mut g = Game::chess();
    assert_eq!(g.play_text("e2e4"), Ok(mv("e2e4")));
    assert_eq!(g.play_text(" e7  e5 "), Ok(mv("e7e5")));
    assert!(matches!(g.play_text("e2"), Err(PlayError::Parse(_))));
    assert!(matches!(
        g.play_text("e2e4"),
        Err(PlayError::Invalid(_, Invalid::EmptySquare(_)))
    ));
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(g.valid_moves().len(), 29);
}

#[test]
fn the_start_has_twenty_moves_for_each_side() {
    let g = Game::chess();
    assert_eq!(g.valid_moves().len(), 20);
    assert_eq!(g.with_side_to_move(Color::Black).valid_moves().len(), 20);
}

#[test]
fn pawns_only_takes_other_pieces_as_given_but_not_the_turn() {
    let mut g = Game::with_policy(ChessVariant::chess(), Policy::PawnsOnly);
    g.play(mv("b1b5")).unwrap();
    assert!(matches!(g.play(mv("d1d5")), Err(Invalid::WrongSide { .. })));
    assert_eq!(g.play(mv("e6e5")), Err(Invalid::EmptySquare(sq("e6"))));
    g.play(mv("d8d2")).unwrap();
    assert!(matches!(
        g.play(mv("e2e5")),
        Err(Invalid::NotHowItMoves { .. })
    ));
}
