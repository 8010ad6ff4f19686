//! The table's text form, its mirrors, and the committed table itself.

use super::*;
use crate::proofs::ProofEvent;
use crate::rules::{Position, RuleSet};
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;

fn mv(s: &str) -> Move {
    s.parse().unwrap()
}

fn white_wins(plies: u32, line: Vec<Move>) -> Proven {
    Proven {
        value: Value::Win,
        plies: Some(plies),
        line,
        source: Source::Openings,
    }
}

#[test]
fn lines_round_trip() {
    let text = "AH white 3 pv b2b4 a7a5 b4b5 keep b2b4 keep? c2c4\nBC unknown not proven within the budget\nCD black 2 pv a2a3 a7a6\nDD draw 1 pv a2a3 keep a2a3\n";
    let table = Openings::parse(text).unwrap();
    assert_eq!(table.to_text(""), text);
    let ah = table.get("AH".parse().unwrap()).unwrap();
    assert!(
        matches!(ah, Opening::Proven(p) if p.winner() == Some(Color::White) && p.plies() == 3 && p.keep == vec![mv("b2b4")])
    );
    assert_eq!(table.best_for_black(8), Some("CD".parse().unwrap()));
    let partial = Openings::parse("AH white 3 pv b2b4 a7a5 b4b5\nDD draw 1 pv a2a3\n").unwrap();
    assert_eq!(
        partial.best_for_black(8),
        None,
        "unproven pairs may hold a black win"
    );
    let mut full = Openings::default();
    for g in Gaps::all(2) {
        full.insert(
            g,
            Opening::Proven(ProvenOpening {
                proven: white_wins(5 + g.black as u32, vec![]),
                keep: vec![],
                unsettled: vec![],
            }),
        );
    }
    assert_eq!(full.best_for_black(2), Some("AB".parse().unwrap()));
}

#[test]
fn bad_lines_are_named() {
    for (text, what) in [
        ("AZ white 3", "two file letters"),
        ("AH purple 3", "not a result"),
        ("AH white x", "distance"),
        ("AH white ? pv b2b4", "distance is always proven"),
        ("AH white 3 pv e2e9", "not a move"),
        ("AH white 3 e2e4", "where pv"),
        ("AH white 3 pv b2b5", "not legal"),
        ("AH white 3 pv b2b4 keep a2a3", "not legal"),
    ] {
        let e = Openings::parse(&format!("# header\n{text}\n")).unwrap_err();
        assert!(e.starts_with("line 2: ") && e.contains(what), "{text}: {e}");
    }
}

#[test]
fn settling_keeps_what_is_known_and_what_is_not() {
    let gaps: Gaps = "AH".parse().unwrap();
    let proven = ProvenOpening {
        proven: white_wins(29, vec![mv("h2h4")]),
        keep: vec![mv("h2h4")],
        unsettled: vec![mv("c2c4"), mv("b2b3")],
    };
    let limits = ProveLimits {
        opening: SolveLimits::default(),
        first_move: SolveLimits {
            nodes: Some(1),
            movetime_ms: None,
        },
    };
    let stop = Stop::new();
    let mut solver = Solver::new(1);
    let proved = settle(&mut solver, gaps, &proven, &limits, &stop).unwrap();
    assert_eq!(
        proved.proof,
        Opening::Proven(proven.clone()),
        "one node settles nothing"
    );
    assert_eq!(proved.solving, None, "the result came from the table");
    let settled = ProvenOpening {
        unsettled: vec![],
        ..proven
    };
    assert!(settle(&mut solver, gaps, &settled, &limits, &stop).is_none());
}

/// Two workers share out the openings: every canonical pair is reported
/// once, each with its mirror stored, and a table with nothing left to do
/// reports nothing.
#[test]
fn workers_prove_each_opening_once() {
    let limits = ProveLimits {
        opening: SolveLimits {
            nodes: Some(50),
            movetime_ms: None,
        },
        first_move: SolveLimits {
            nodes: Some(1),
            movetime_ms: None,
        },
    };
    let workers = Workers {
        count: 2,
        solver: &|| Solver::new(1),
    };
    let stop = Stop::new();
    let mut table = Openings::default();
    let mut reported = Vec::new();
    prove_all(&mut table, &workers, &limits, &stop, &mut |e| {
        if let ProofEvent::Opening { table, gaps, .. } = e {
            assert!(table.get(gaps).is_some(), "{gaps} stored before its report");
            reported.push(gaps);
        }
    });
    reported.sort_by_key(|g| (g.white, g.black));
    let canonical: Vec<Gaps> = canonical_gaps(8).collect();
    assert_eq!(reported, canonical);
    assert!(Gaps::all(8).all(|g| matches!(table.get(g), Some(Opening::Unknown(_)))));

    let mut done = Openings::builtin().clone();
    let before = done.to_text("");
    prove_all(&mut done, &workers, &limits, &stop, &mut |e| {
        assert!(!matches!(e, ProofEvent::Opening { .. }), "nothing to prove")
    });
    assert_eq!(done.to_text(""), before);

    // A proven opening with unsettled first moves is tried again, and stays
    // as it was when the budget settles nothing.
    let ah: Gaps = "AH".parse().unwrap();
    let Some(Opening::Proven(proven)) = done.get(ah).cloned() else {
        panic!("AH is proven")
    };
    let unsettled = ProvenOpening {
        keep: proven.keep[1..].to_vec(),
        unsettled: proven.keep[..1].to_vec(),
        ..proven
    };
    done.insert(ah, Opening::Proven(unsettled.clone()));
    let mut settled = Vec::new();
    prove_all(&mut done, &workers, &limits, &stop, &mut |e| {
        if let ProofEvent::Opening { gaps, proved, .. } = e {
            assert_eq!(proved.solving, None, "from the table");
            settled.push(gaps);
        }
    });
    assert_eq!(settled, vec![ah]);
    assert_eq!(done.get(ah), Some(&Opening::Proven(unsettled)));
}

#[test]
fn mirrors_keep_results_and_flip_files() {
    assert_eq!(mv("b2b4").mirror_files(8), mv("g2g4"));
    assert_eq!(mv("e4d5").mirror_files(8), mv("d4e5"));
    assert_eq!(canonical_gaps(8).count(), 32);
    let all: Vec<Gaps> = canonical_gaps(8)
        .flat_map(|g| {
            [
                g,
                Gaps {
                    white: 7 - g.white,
                    black: 7 - g.black,
                },
            ]
        })
        .collect();
    let mut sorted = all.clone();
    sorted.sort_by_key(|g| (g.white, g.black));
    sorted.dedup();
    assert_eq!(sorted.len(), 64);
}

/// The committed table loads and saves back byte for byte.
#[test]
fn the_builtin_table_round_trips() {
    let table = Openings::parse(BUILTIN).unwrap();
    assert_eq!(table.to_text(&lines::header(BUILTIN)), BUILTIN);
}

/// The committed table says what it proves: every pair is there, file
/// mirrors agree, and every line is legal and ends in its result after
/// its distance (for a draw, the line's length).
#[test]
fn the_builtin_table_is_whole_and_consistent() {
    let table = Openings::parse(BUILTIN).unwrap();
    for (gaps, proof) in table.iter() {
        let mirror = Gaps {
            white: 7 - gaps.white,
            black: 7 - gaps.black,
        };
        let Opening::Proven(p) = proof else {
            continue;
        };
        let (winner, plies, line) = (p.winner(), p.plies(), &p.proven.line);
        let (keep, unsettled) = (&p.keep, &p.unsettled);
        assert_eq!(
            table.get(mirror),
            Some(&mirror_proof(proof, 8)),
            "{gaps} and {mirror}"
        );
        let mut pos = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
        for m in line {
            assert!(pos.is_legal(*m), "{gaps}: {m} in {}", pos.fen());
            pos = pos.play_unchecked(*m);
        }
        let outcome = pos
            .outcome()
            .unwrap_or_else(|| panic!("{gaps}: the line does not end the game"));
        assert_eq!(outcome.winner, winner, "{gaps}");
        assert_eq!(line.len() as u32, plies, "{gaps}");
        let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap();
        assert!(keep.iter().all(|m| start.is_legal(*m)), "{gaps}");
        // The line's own first move keeps the result, unless nothing can.
        assert_eq!(
            keep.contains(&line[0]),
            winner != Some(Color::Black),
            "{gaps}"
        );
        // What the committed table claims: every first move settled.
        assert!(unsettled.is_empty(), "{gaps}: keep? {unsettled:?}");
    }
    assert_eq!(table.iter().count(), 64, "every gap pair has a line");
}
