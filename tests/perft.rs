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
