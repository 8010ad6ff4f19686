//! perft against published counts and hand-made positions.

use pawnrace::rules::{Position, RuleSet, perft};

fn count(fen: &str, rules: RuleSet, depth: u32) -> u64 {
    perft(&Position::from_fen(fen, rules).unwrap(), depth)
}

#[test]
fn ah_start_matches_the_published_counts() {
    let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [14, 196, 2554, 33274, 404949]);
}

#[test]
fn hand_made_positions_count_by_hand() {
    // Four single steps each, nothing else on the 4x4 board.
    assert_eq!(count("pppp/4/4/PPPP w -", RuleSet::MINI4, 2), 16);
    // A push and the en passant capture.
    assert_eq!(count("8/8/8/3pP3/8/8/8/8 w - d6", RuleSet::PAWNRACE, 1), 2);
}
