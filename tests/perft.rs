//! perft against published counts and hand-made positions.

use pawnrace::rules::{Position, RuleSet, perft, perft_every_leaf};

fn count(fen: &str, rules: RuleSet, depth: u32) -> u64 {
    perft(&Position::from_fen(fen, rules).unwrap(), depth)
}

#[test]
fn ah_start_matches_the_published_counts() {
    let start = Position::start(RuleSet::PAWNRACE, Some("AH".parse().unwrap())).unwrap();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(counts, [14, 196, 2554, 33274, 404949]);
}

/// Hand-made positions whose counts were worked out on paper.
#[test]
fn hand_made_positions() {
    let pr = RuleSet::PAWNRACE;
    // White may take en passant (exd6) or push: 2 moves.
    assert_eq!(count("8/8/8/3pP3/8/8/8/8 w d6", pr, 1), 2);
    // Black may take en passant (dxe3) or push: 2 moves.
    assert_eq!(count("8/8/8/8/3pP3/8/8/8 b e3", pr, 1), 2);
    // After exd6 black has no pawn: the game is over, no children.
    assert_eq!(count("8/8/8/3pP3/8/8/8/8 w d6", pr, 2), 1);
    // An en passant square that nobody can use changes nothing.
    assert_eq!(
        count("8/8/8/3p4/8/8/4P3/8 w d6", pr, 3),
        count("8/8/8/3p4/8/8/4P3/8 w -", pr, 3)
    );
    // A won game (white just promoted) has no moves.
    let won = Position::from_fen("8/4P3/8/8/8/8/p7/8 w -", pr).unwrap();
    let won = won.play_unchecked(won.legal_moves()[0]);
    assert_eq!(perft(&won, 1), 0);
    // Stalemate: both pawns blocked.
    assert_eq!(count("8/8/8/4p3/4P3/8/8/8 w -", pr, 1), 0);
    // mini4 start: four single steps each, then captures appear.
    assert_eq!(count("pppp/4/4/PPPP w -", RuleSet::MINI4, 1), 4);
    assert_eq!(count("pppp/4/4/PPPP w -", RuleSet::MINI4, 2), 16);
}

/// Every published depth for a second opening, mirrored: the counts of a
/// position and its colour mirror agree.
#[test]
fn mirrored_openings_count_alike() {
    for gaps in ["AH", "DE", "BB"] {
        let start = Position::start(RuleSet::PAWNRACE, Some(gaps.parse().unwrap())).unwrap();
        let after = start.play_unchecked(start.legal_moves()[3]);
        assert_eq!(perft(&after, 4), perft(&after.mirror(), 4), "{gaps}");
    }
}

/// Counting every leaf gives the bulk count, also where games end on the
/// last ply (promotions, last captures, en passant).
#[test]
fn every_leaf_counting_agrees_with_bulk() {
    let cases = [
        ("8/ppppppp1/8/8/8/8/1PPPPPPP/8 w -", RuleSet::PAWNRACE, 5),
        ("8/8/8/3pP3/8/8/8/8 w d6", RuleSet::PAWNRACE, 3),
        ("8/4P1p1/8/8/8/8/p4P2/8 w -", RuleSet::PAWNRACE, 4),
        ("8/1p6/2P5/8/8/8/8/8 b -", RuleSet::PAWNRACE, 2),
        ("pppp/4/4/PPPP w -", RuleSet::MINI4, 9),
    ];
    for (fen, rules, depth) in cases {
        let pos = Position::from_fen(fen, rules).unwrap();
        for d in 0..=depth {
            assert_eq!(perft_every_leaf(&pos, d), perft(&pos, d), "{fen} depth {d}");
        }
    }
}
