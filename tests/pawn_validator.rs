//! S2, the pawn move validator: the example, every pawn error, pieces taken
//! as given, input problems, the command line, and the chess model's pawn
//! moves against the bitboard rules core.

use pawnrace::chess::{ChessMove, ChessSquare, ChessVariant, Game, Invalid, PieceKind, PlayError};
use pawnrace::problems::pawn_validator::{self, first_incorrect};
use pawnrace::rules::{Color, Gaps, Position, RuleSet};
use pawnrace::testkit::Rng;
use std::collections::BTreeSet;

mod common;

const EXAMPLE: &str = "3
b2b3 b8c6 c2c4 c7c5
e2e4 g8f6 d1h5 f6h5
d2d4 e7e5 g1f3 e5d4 c2d4 d8e7
";

fn run(input: &str) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    pawn_validator::run(input.as_bytes(), &mut out, &mut err).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

/// The index and reason of a game's first incorrect move.
fn verdict(moves: &str) -> (usize, Invalid) {
    match first_incorrect(moves) {
        Some((i, PlayError::Invalid(_, reason))) => (i, reason),
        other => panic!("{moves}: {other:?}"),
    }
}

fn sq(s: &str) -> ChessSquare {
    s.parse().unwrap()
}

#[test]
fn the_example_answers_4_0_5() {
    assert_eq!(run(EXAMPLE).0, "4 0 5\n");
}

#[test]
fn the_example_reasons_are_the_blocked_push_and_the_long_diagonal() {
    let (_, err) = run(EXAMPLE);
    assert!(
        err.contains("line 2, move 4: c7c5: the way is blocked on c6"),
        "{err}"
    );
    assert!(err.contains("line 4, move 5: c2d4"), "{err}");
}

#[test]
fn the_binary_answers_the_example() {
    let (ok, out, _) = common::run_binary(&["pawn-validator"], EXAMPLE.as_bytes());
    assert!(ok);
    assert_eq!(out, "4 0 5\n");
}

#[test]
fn every_pawn_error_is_caught_at_its_move() {
    let pawn = || Invalid::NotHowItMoves {
        piece: "pawn".into(),
    };
    let cases = [
        // backward and sideways, after a first step
        ("e2e3 a7a6 e3e2", 3, pawn()),
        ("e2e3 a7a6 e3d3", 3, pawn()),
        // too far: three squares ahead, two on the diagonal
        ("e2e5", 1, pawn()),
        ("e2e4 d7d5 e4c6", 3, pawn()),
        // a null move
        ("e2e2", 1, Invalid::NullMove),
        // double step not from the start rank
        ("e2e3 a7a6 e3e5", 3, Invalid::AlreadyMoved(sq("e3"))),
        // double step blocked on the first square, then on the second
        ("g1f3 a7a6 f2f4", 3, Invalid::PathBlocked(sq("f3"))),
        ("e2e4 e7e5 d1h5 h7h5", 4, Invalid::PushOntoPiece(sq("h5"))),
        // straight capture
        ("e2e4 e7e5 e4e5", 3, Invalid::PushOntoPiece(sq("e5"))),
        // diagonal onto an empty square, and onto its own piece
        ("e2f3", 1, Invalid::CaptureOntoEmpty(sq("f3"))),
        ("g1f3 a7a6 e2f3", 3, Invalid::OwnPiece(sq("f3"))),
        // wrong turn: black first, white twice
        (
            "e7e5",
            1,
            Invalid::WrongSide {
                square: sq("e7"),
                owner: Color::Black,
            },
        ),
        (
            "e2e4 d2d4",
            2,
            Invalid::WrongSide {
                square: sq("d2"),
                owner: Color::White,
            },
        ),
        // from an empty square, a pawn's or any other
        ("e3e4", 1, Invalid::EmptySquare(sq("e3"))),
        ("e2e4 e7e5 e2e3", 3, Invalid::EmptySquare(sq("e2"))),
        // off the board
        ("e2e4 e7e9", 2, Invalid::OffBoard(sq("e9"))),
    ];
    for (moves, index, reason) in cases {
        assert_eq!(verdict(moves), (index, reason), "{moves}");
    }
}

#[test]
fn only_the_first_error_counts() {
    assert_eq!(verdict("e2e4 e7e5 e4e5 e7e6 zz").0, 3);
    assert_eq!(run("1\ne2e4 e7e5 e4e5 e7e6 zz\n").0, "3\n");
}

#[test]
fn other_pieces_moves_are_taken_as_given() {
    // A knight three squares up, a queen through its own pawn, a bishop
    // sideways, a rook onto its own piece, a king across the board.
    let game = "b1b4 g8g4 d1d5 c8d8 a1a2 h8h1 e1e7";
    assert_eq!(first_incorrect(game), None);
    assert_eq!(run(&format!("1\n{game}\n")).0, "0\n");
    // Taken as given, they still move: the pawn on e2 is now blocked by the
    // king moved in front of it, and the pawn on d7 can take the queen.
    assert_eq!(verdict("e1e3 a7a6 e2e3").0, 3);
    assert_eq!(first_incorrect("d1c6 d7c6"), None);
}

#[test]
fn a_malformed_move_is_the_incorrect_one_and_is_explained() {
    assert!(matches!(
        first_incorrect("e2e4 e7-e5"),
        Some((2, PlayError::Parse(_)))
    ));
    let (out, err) = run("3\ne2e4 e7-e5\ne2e4 \u{fffd}\u{0} d7d5\ne2e4 e7e5\n");
    assert_eq!(out, "2 2 0\n");
    assert!(
        err.contains("line 2, move 2: 'e7-e5' is not a move"),
        "{err}"
    );
    assert!(err.contains("line 3, move 2: "), "{err}");
}

#[test]
fn a_bad_count_or_missing_games_are_noted_and_what_is_there_answered() {
    let (out, err) = run("three\ne2e4\ne2e5\n");
    assert_eq!(out, "0 1\n");
    assert!(
        err.contains("line 1: 'three' is not the number of games"),
        "{err}"
    );
    let (out, err) = run("4\ne2e4\n\ne7e5\n");
    assert_eq!(out, "0 1\n");
    assert!(err.contains("4 games announced, 2 found"), "{err}");
    let (out, err) = run("1\ne2e4\ne7e5\n");
    assert_eq!(out, "0\n");
    assert!(
        err.contains("line 3: more games than the 1 announced"),
        "{err}"
    );
    let (out, err) = run("");
    assert_eq!(out, "\n");
    assert!(err.contains("no input"), "{err}");
    let (out, err) = run("\r\n2\r\nb2b3 b8c6 c2c4 c7c5\r\n  e2e4  \r\n\r\n");
    assert_eq!(
        (out.as_str(), err.as_str()),
        ("4 0\n", "line 3, move 4: c7c5: the way is blocked on c6\n")
    );
}

fn chess_square(sq: pawnrace::rules::Square) -> ChessSquare {
    ChessSquare::new(sq.file(), sq.rank())
}

/// The position's pawns as a layout the chess model reads: runs of empty
/// squares are counted, as in FEN.
fn layout(pos: &Position) -> String {
    let mut rows = Vec::new();
    for rank in (0..8u8).rev() {
        let (mut row, mut empty) = (String::new(), 0);
        for file in 0..8u8 {
            let symbol = match pos.pawn_at(pawnrace::rules::Square::new(file, rank)) {
                Some(Color::White) => 'P',
                Some(Color::Black) => 'p',
                None => {
                    empty += 1;
                    continue;
                }
            };
            if empty > 0 {
                row.push_str(&std::mem::take(&mut empty).to_string());
            }
            row.push(symbol);
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

/// The chess model and the bitboard core agree on every pawn-only position
/// of random Pawn Race games: same pawn moves for the side to move (en
/// passant aside: the validators have none), same board after each move.
#[test]
fn pawn_moves_agree_with_the_bitboard_rules() {
    let mut rng = Rng::new(&[0x9E37_79B9_7F4A_7C15]);
    let mut compared = 0;
    for _ in 0..400 {
        let gaps = Gaps {
            white: rng.below(8) as u8,
            black: rng.below(8) as u8,
        };
        let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
        let variant = ChessVariant::new(8, 8, vec![PieceKind::pawn()], &layout(&pos)).unwrap();
        let mut game = Game::new(variant);
        // A decided position is one where a pawn reached its last rank or a
        // side has no pawns: the core stops there, the chess model does not.
        while !pos.is_decided() {
            let legal: Vec<_> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| Some(m.to) != pos.en_passant())
                .collect();
            if pos.en_passant().is_none() {
                let core: BTreeSet<String> = legal.iter().map(|m| m.to_string()).collect();
                let model: BTreeSet<String> =
                    game.valid_moves().iter().map(|m| m.to_string()).collect();
                assert_eq!(model, core, "{} {}", pos.fen(), game.render());
                compared += 1;
            }
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())];
            pos = pos.play_unchecked(m);
            let played = game.play(ChessMove::new(chess_square(m.from), chess_square(m.to)));
            assert!(played.is_ok(), "{m}: {played:?}");
            assert_eq!(game.render(), {
                let v = ChessVariant::new(8, 8, vec![PieceKind::pawn()], &layout(&pos)).unwrap();
                v.start().render(&v)
            });
        }
    }
    assert!(compared > 5_000, "only {compared} positions compared");
}
