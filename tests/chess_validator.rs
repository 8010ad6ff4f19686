//! S1, the chess validator: the published sample both ways, input problems,
//! the command line, and variants made of new values only.

use pawnrace::chess::{
    ChessVariant, DIAGONAL, Game, Invalid, Movement, ORTHOGONAL, PieceKind, symmetric,
};
use pawnrace::problems::chess_validator;

mod common;
use common::run_binary as binary;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/s1/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Stdout and stderr of the validator on `input`.
fn run(input: &[u8]) -> (String, String) {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    chess_validator::run(input, &mut out, &mut err).unwrap();
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(err).unwrap(),
    )
}

fn run_game(game: Game, input: &str) -> String {
    let mut out = Vec::new();
    chess_validator::run_game(game, input.as_bytes(), &mut out, std::io::sink()).unwrap();
    String::from_utf8(out).unwrap()
}

/// The start as the statement prints it (`chess::Board::render` of the start).
const START: &str = "\
BR BN BB BQ BK BB BN BR
BP BP BP BP BP BP BP BP
-- -- -- -- -- -- -- --
-- -- -- -- -- -- -- --
-- -- -- -- -- -- -- --
-- -- -- -- -- -- -- --
WP WP WP WP WP WP WP WP
WR WN WB WQ WK WB WN WR
";

#[test]
fn the_published_input_has_six_invalid_moves() {
    let (out, err) = run(data("sample-input.txt").as_bytes());
    assert_eq!(out, data("sample-output-for-published-input.txt"));
    assert_eq!(out.matches("Invalid Move").count(), 6);
    assert_eq!(err.lines().count(), 6, "{err}");
    assert!(err.starts_with("line 8: "), "{err}");
}

#[test]
fn the_lost_invalid_line_restored_gives_the_published_output() {
    let input = data("sample-input-with-lost-line.txt");
    let published = data("sample-output-published.txt");
    let (out, _) = run(input.as_bytes());
    assert_eq!(out, published);
    assert_eq!(out.matches("Invalid Move").count(), 7);
    // The two outputs differ in that one line only.
    let fewer = data("sample-output-for-published-input.txt");
    assert_eq!(published.replacen("Invalid Move\n", "", 1), fewer);
}

#[test]
fn the_binary_answers_the_sample_both_ways() {
    for (input, output) in [
        ("sample-input.txt", "sample-output-for-published-input.txt"),
        (
            "sample-input-with-lost-line.txt",
            "sample-output-published.txt",
        ),
    ] {
        let (ok, out, _) = binary(&["chess-validator"], data(input).as_bytes());
        assert!(ok);
        assert_eq!(out, data(output), "{input}");
    }
}

#[test]
fn the_start_is_printed_even_without_moves() {
    assert_eq!(run(b"").0, format!("{START}\n"));
    assert_eq!(run(b"exit\ne2 e4\n").0, format!("{START}\n"));
}

#[test]
fn malformed_lines_are_invalid_moves_and_named_on_stderr() {
    let input = b"e2\ne2 e4 e5\n\xff\xfe e4\nhello\n\n  \ni9 a1\ne2 e4\nexit\n";
    let (out, err) = run(input);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[9..14],
        ["Invalid Move"; 5],
        "blank lines get no answer, the others one each"
    );
    assert_eq!(
        lines[14], "BR BN BB BQ BK BB BN BR",
        "the next move is still played"
    );
    assert_eq!(out.matches("Invalid Move").count(), 5);
    for number in [1, 2, 3, 4, 7] {
        assert!(err.contains(&format!("line {number}: ")), "{number}: {err}");
    }
    assert!(err.contains("i9 is not on the board"), "{err}");
}

#[test]
fn the_binary_exits_cleanly_on_bad_input_and_without_exit() {
    let (ok, out, err) = binary(&["chess-validator"], b"zz top\ne2e4\n\x00\n");
    assert!(ok);
    assert_eq!(out.matches("Invalid Move").count(), 2);
    assert_eq!(out.matches("WP").count(), 16);
    assert!(err.contains("line 1: "), "{err}");
    assert!(err.contains("line 3: "), "{err}");
}

#[test]
fn a_new_kind_is_a_value_amazon_and_camel() {
    let amazon = PieceKind::new(
        "amazon",
        'A',
        vec![
            Movement::Slider {
                directions: [ORTHOGONAL, DIAGONAL].concat(),
                range: None,
            },
            Movement::Leaper {
                offsets: symmetric(1, 2),
            },
        ],
    );
    let camel = PieceKind::leaper("camel", 'C', symmetric(1, 3));
    let kinds = [PieceKind::chess_set(), vec![amazon, camel]].concat();
    let variant = ChessVariant::new(8, 8, kinds, "4k3/8/8/8/3A4/8/8/C3K3").unwrap();
    let game = Game::new(variant);
    let from = |s: &str| {
        game.valid_moves()
            .into_iter()
            .filter(|m| m.from.to_string() == s)
            .count()
    };
    // The queen's 27 squares less a1, where its own camel stands, and the
    // knight's 8.
    assert_eq!(from("d4"), 26 + 8);
    assert_eq!(from("a1"), 2, "b4 and d2");
    assert!(game.check("a1b4".parse().unwrap()).is_ok());
    assert!(game.check("a1b3".parse().unwrap()).is_err());
    let out = run_game(game, "d4e6\ne8d7\na1b4\n");
    let last = "\
-- -- -- -- -- -- -- --
-- -- -- BK -- -- -- --
-- -- -- -- WA -- -- --
-- -- -- -- -- -- -- --
-- WC -- -- -- -- -- --
-- -- -- -- -- -- -- --
-- -- -- -- -- -- -- --
-- -- -- -- WK -- -- --
";
    assert!(out.ends_with(&format!("{last}\n")), "{out}");
    assert!(!out.contains("Invalid Move"), "{out}");
}

#[test]
fn a_changed_move_style_is_a_value_long_king_and_short_rook() {
    let kinds: Vec<PieceKind> = PieceKind::chess_set()
        .into_iter()
        .map(|k| match k.symbol {
            'K' => PieceKind::slider("king", 'K', [ORTHOGONAL, DIAGONAL].concat(), Some(2)),
            'R' => PieceKind::slider("rook", 'R', ORTHOGONAL.to_vec(), Some(2)),
            _ => k,
        })
        .collect();
    let variant = ChessVariant::new(8, 8, kinds, "k7/8/8/8/8/8/8/R3K3").unwrap();
    let game = Game::new(variant);
    let ok = |m: &str| game.check(m.parse().unwrap());
    assert!(ok("e1e3").is_ok());
    assert!(ok("e1g3").is_ok());
    assert!(ok("e1e4").is_err());
    assert!(ok("a1a3").is_ok());
    assert!(matches!(ok("a1a4"), Err(Invalid::NotHowItMoves { .. })));
    assert!(ok("a1c1").is_ok());
    assert!(ok("a1d1").is_err());
    assert!(Game::chess().check("e2e3".parse().unwrap()).is_ok());
}

#[test]
fn a_ten_by_ten_board_with_an_extra_kind_and_its_own_start() {
    // The chancellor: a rook that also leaps like a knight.
    let chancellor = PieceKind::new(
        "chancellor",
        'C',
        vec![
            Movement::Slider {
                directions: ORTHOGONAL.to_vec(),
                range: None,
            },
            Movement::Leaper {
                offsets: symmetric(1, 2),
            },
        ],
    );
    let kinds = [PieceKind::chess_set(), vec![chancellor]].concat();
    let layout = "rnbqkcbnrr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNBQKCBNRR";
    let variant = ChessVariant::new(10, 10, kinds, layout).unwrap();
    let game = Game::new(variant);
    assert_eq!(game.valid_moves().len(), 10 * 2 + 2 * 2 + 2);
    let out = run_game(game, "f1 g3\nj10 j8\nj9 j7\ng3 g9\nexit\n");
    let start = "\
BR BN BB BQ BK BC BB BN BR BR
BP BP BP BP BP BP BP BP BP BP
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
WP WP WP WP WP WP WP WP WP WP
WR WN WB WQ WK WC WB WN WR WR
";
    // f1 g3 leaps; j10 j8 is blocked by the pawn on j9; j9 j7 is the pawn's
    // double step; g3 g9 slides up the file and takes.
    let last = "\
BR BN BB BQ BK BC BB BN BR BR
BP BP BP BP BP BP WC BP BP --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- BP
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
-- -- -- -- -- -- -- -- -- --
WP WP WP WP WP WP WP WP WP WP
WR WN WB WQ WK -- WB WN WR WR
";
    assert!(out.starts_with(&format!("{start}\n")), "{out}");
    assert!(out.ends_with(&format!("{last}\n")), "{out}");
    assert_eq!(out.matches("Invalid Move\n").count(), 1);
    assert_eq!(out.lines().count(), 4 * 11 + 1);
}

#[test]
fn another_start_on_eight_by_eight() {
    // A Chess960 start: same kinds, another layout.
    let variant = ChessVariant::new(
        8,
        8,
        PieceKind::chess_set(),
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR",
    )
    .unwrap();
    let out = run_game(Game::new(variant), "d1c3\nb2b3\nb7b6\n");
    let boards: Vec<&str> = out.split("\n\n").collect();
    assert!(boards[0].starts_with("BB BB BQ BN BN BR BK BR\n"));
    assert!(boards[0].ends_with("WB WB WQ WN WN WR WK WR"));
    assert!(
        boards[1]
            .contains("-- -- WN -- -- -- -- --\nWP WP WP WP WP WP WP WP\nWB WB WQ -- WN WR WK WR")
    );
    assert!(
        boards[2].starts_with("Invalid Move\n"),
        "white moved twice: {out}"
    );
    assert!(boards[2].contains("BP -- BP BP BP BP BP BP"));
}
