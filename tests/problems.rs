//! S0 (one pawn each) and S4 (UVa 10838) through the real binary.

use pawnrace::problems::duel::{Duels, answer_word};
use pawnrace::rules::{Color, Square};

mod common;

fn pawnrace(args: &[&str], input: &str) -> (bool, String, String) {
    common::run_binary(args, input.as_bytes())
}

#[test]
fn duel_answers_the_statement_examples() {
    for (query, answer) in [
        ("e2 e7 w", "draw"),
        ("e3 d7 b", "black"),
        ("a7 h2 w", "white"),
    ] {
        let args: Vec<&str> = std::iter::once("duel").chain(query.split(' ')).collect();
        let (ok, out, _) = pawnrace(&args, "");
        assert!(ok);
        assert_eq!(out, format!("{answer}\n"), "{query}");
    }
    let (ok, out, err) = pawnrace(
        &["duel"],
        "e2 e7 w\n\"e3\", \"d7\", 'b'\nnonsense\ne2 e2 w\na7 h2 w\n",
    );
    assert!(ok);
    assert_eq!(out, "draw\nblack\nerror\nerror\nwhite\n");
    assert!(
        err.contains("line 3:") && err.contains("line 4: impossible position: two pawns on e2"),
        "{err}"
    );
    let (ok, _, err) = pawnrace(&["duel", "e2", "e9", "w"], "");
    assert!(!ok && err.contains("e9"), "{err}");
}

/// Every one of the 4512 inputs, answered, and each the same as its colour
/// mirror: white's e2 against black's e7 is black's e7 against white's e2.
#[test]
fn the_whole_duel_input_space_is_symmetric() {
    let squares: Vec<Square> = (0..8)
        .flat_map(|f| (1..7).map(move |r| Square::new(f, r)))
        .collect();
    let mut duels = Duels::new();
    let mut count = 0;
    for &w in &squares {
        for &b in &squares {
            if w == b {
                continue;
            }
            for side in Color::BOTH {
                let answer = duels.answer(w, b, side).unwrap();
                let mirror = |sq: Square| Square::new(sq.file(), 7 - sq.rank());
                let mirrored = duels.answer(mirror(b), mirror(w), !side).unwrap();
                assert_eq!(answer, mirrored.map(|c| !c), "{w} {b} {side}");
                count += 1;
            }
        }
    }
    assert_eq!(count, 4512);
    assert_eq!(answer_word(None), "draw");
}

#[test]
fn mini4_answers_the_uva_sample_and_the_full_start() {
    let (ok, out, err) = pawnrace(
        &["mini4"],
        "2\n\n.ppp\n....\n.PPP\n....\n\n...p\n...p\npP.P\n...P\n",
    );
    assert!(ok);
    assert_eq!(out, "white (7)\nblack (2)\n");
    assert_eq!(err, "");
    let (_, out, _) = pawnrace(&["mini4"], "1\npppp\n....\n....\nPPPP\n");
    assert_eq!(out, "white (11)\n");
}

#[test]
fn mini4_answers_three_hundred_boards() {
    let input = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/s4/random-300.txt"
    ))
    .unwrap();
    let (ok, out, err) = pawnrace(&["mini4"], &input);
    assert!(ok);
    assert_eq!(err, "");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 300);
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("white (") || l.starts_with("black ("))
    );
}
