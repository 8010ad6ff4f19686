//! The keep set's format, walks and tally.

use super::make::{on_the_line, walk};
use super::*;
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;

fn gaps(s: &str) -> Gaps {
    s.parse().unwrap()
}

#[test]
fn walks_are_seeded_off_the_line_and_end_with_the_slot_to_move() {
    let slot = Slot {
        side: Color::Black,
        index: 0,
    };
    let mut seen = 0;
    for attempt in 0..20 {
        let a = walk(gaps("GE"), slot, attempt, (7, (1, 4)));
        assert_eq!(a, walk(gaps("GE"), slot, attempt, (7, (1, 4))));
        if let Some((moves, pos)) = a {
            seen += 1;
            assert_eq!(pos.side_to_move(), Color::Black);
            assert!(moves.len() == 1 || moves.len() == 3);
            assert!(!on_the_line(&pos));
        }
    }
    assert!(seen > 10);
}

#[test]
fn entries_round_trip_and_bad_lines_are_refused() {
    let text = "# a comment\nAH b0 none\n";
    let set = parse_set(text).unwrap();
    assert_eq!(set, [Entry::None(gaps("AH"), "b0".parse().unwrap())]);
    assert_eq!(set[0].to_string(), "AH b0 none");
    // Every move labelled, the value a win.
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps("AH"))).unwrap();
    let mut legal: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
    let keep = legal.remove(0);
    let line = format!("AH w0 moves win keep {keep} spoil {}", legal.join(" "));
    let set = parse_set(&line).unwrap();
    assert_eq!(set[0].to_string(), line);
    // A move short, a move illegal, no value, the wrong side to move.
    let short = line.rsplit_once(' ').unwrap().0.to_string();
    assert!(
        parse_set(&short)
            .unwrap_err()
            .contains("exactly the legal moves")
    );
    assert!(parse_set("AH w0 moves a2a5 win keep a2a3").is_err());
    assert!(parse_set("AH w0 moves keep a2a3").is_err());
    assert!(
        parse_set("AH b0 moves win keep a2a3")
            .unwrap_err()
            .contains("slot")
    );
}

/// A race white wins by a tempo, but only with the double step.
#[test]
fn labels_come_from_proofs() {
    let pos = Position::from_fen("8/p7/8/8/8/8/7P/8 w -", RuleSet::PAWNRACE).unwrap();
    let mut solver = Solver::new(4);
    let stop = Stop::new();
    let limits = SolveLimits::default();
    let (keep, spoil, unknown) = label_moves(&mut solver, &pos, Value::Win, &limits, &stop);
    assert!(unknown.is_empty());
    let names = |l: &[Move]| l.iter().map(Move::to_string).collect::<Vec<_>>();
    assert_eq!(
        (names(&keep), names(&spoil)),
        (vec!["h2h4".to_string()], vec!["h2h3".to_string()])
    );
    // A budget of one node settles nothing.
    let one = SolveLimits {
        nodes: Some(1),
        movetime_ms: None,
    };
    let mut fresh = Solver::new(4);
    let (_, _, unknown) = label_moves(&mut fresh, &pos, Value::Win, &one, &stop);
    assert!(!unknown.is_empty());
}

/// The hard set's filter: what the tables know or a fresh solver decides in
/// time is left out; a position it cannot decide in time stays.
#[test]
fn only_positions_without_a_proof_in_time_are_hard() {
    let stop = Stop::new();
    // The start of a proven opening: the openings table answers.
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps("AH"))).unwrap();
    assert!(!unproven_within(&start, 60_000, 16, &stop));
    // A lone race: the race rules settle it at once.
    let race = Position::from_fen("8/p7/8/8/8/8/7P/8 w -", RuleSet::PAWNRACE).unwrap();
    assert!(!unproven_within(&race, 1000, 16, &stop));
    // Five plies into AA, beyond the book (which holds every position
    // four plies in): millions of nodes.
    let aa =
        Position::from_fen("8/1p1pppp1/2p4p/8/3P4/1P6/2P1PPPP/8 b -", RuleSet::PAWNRACE).unwrap();
    assert!(crate::proofs::known(&aa).is_none());
    assert!(unproven_within(&aa, 1, 16, &stop));
}

/// Every committed set under `data/` reads: each walk legal from its
/// opening, each position's labels exactly its legal moves, each position
/// once. A set's header is edited by hand (where and how it was made), and
/// shards are merged by hand, so this is what keeps a slip there from
/// reaching a benchmark run.
#[test]
fn every_committed_set_reads() {
    // Sets made before `make_slot` passed over taken positions hold a few
    // twice; they stay as measured.
    let repeats_before = [("keep-set.txt", 4), ("keep-deep.txt", 2)];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let mut sets = 0;
    for file in std::fs::read_dir(dir).unwrap() {
        let path = file.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("keep-") && name.ends_with(".txt")) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let set = parse_set(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let positions: Vec<u64> = set
            .iter()
            .filter_map(|e| match e {
                Entry::Case(c) => Some(c.position().hash()),
                Entry::None(..) => None,
            })
            .collect();
        assert!(!positions.is_empty(), "{name}: no position");
        let distinct: std::collections::HashSet<_> = positions.iter().collect();
        let repeats = positions.len() - distinct.len();
        let allowed = repeats_before
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, r)| *r);
        assert_eq!(repeats, allowed, "{name}: positions held twice");
        sets += 1;
    }
    // keep-set, keep-hard, the deep sets and their fresh seeds.
    assert!(sets >= 6, "only {sets} sets under {dir}");
}
