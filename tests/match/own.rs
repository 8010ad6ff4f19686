//! Engines in pawnrace's own protocol, over pipes and TCP: colours and
//! openings, faults, the autorunner's protocol, clocks and adjudication,
//! SPRT, and the arguments a match refuses.

use crate::common::{BIN, ServerProcess, run_binary};
use crate::{fake_engine, faults, played_cleanly, replay, row, run_match, temp_dir, totals};
use std::fs;

#[test]
fn two_engines_over_gap_pairs_with_both_colours() {
    let dir = temp_dir("pair");
    let pgn_path = dir.join("games.pgn");
    let a = format!("{BIN} --hash 8");
    let b = format!("{BIN} --hash 1");
    let table = run_match(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--name",
        "big",
        "--name",
        "small",
        "--gaps",
        "AH,DE,BB",
        "--movetime",
        "30",
        "--margin",
        "400",
        "--concurrency",
        "2",
        "--pgn",
        pgn_path.to_str().unwrap(),
    ]);
    let [games, w, d, l] = totals(&table);
    assert_eq!((games, w + d + l), (6, 6), "{table}");
    assert!(table.contains("Games: 6 of 6 planned"), "{table}");
    assert_eq!(row(&table, "white")[0], "3");
    assert_eq!(row(&table, "black")[0], "3");
    assert_eq!(faults(&table, "A"), [0; 5], "{table}");
    assert_eq!(faults(&table, "B"), [0; 5], "{table}");
    assert!(table.contains("Elo difference (A - B):"), "{table}");
    let games = replay(&pgn_path);
    assert_eq!(games.len(), 6);
    let mut seen: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            (
                g.tag("Gaps").unwrap().into(),
                g.tag("White").unwrap().into(),
            )
        })
        .collect();
    seen.sort();
    let pairs: Vec<(&str, &str)> = seen.iter().map(|(g, w)| (g.as_str(), w.as_str())).collect();
    assert_eq!(
        pairs,
        [
            ("AH", "big"),
            ("AH", "small"),
            ("BB", "big"),
            ("BB", "small"),
            ("DE", "big"),
            ("DE", "small")
        ]
    );
    let points: f64 = games
        .iter()
        .map(
            |g| match (g.result.as_str(), g.tag("White") == Some("big")) {
                ("1-0", true) | ("0-1", false) => 1.0,
                ("1/2-1/2", _) => 0.5,
                _ => 0.0,
            },
        )
        .sum();
    assert_eq!(points, w as f64 + d as f64 / 2.0);
    let _ = fs::remove_dir_all(dir);
}

/// Each faulty engine loses every game with its fault counted, and is
/// restarted for the next game.
#[test]
fn faults_lose_and_the_match_goes_on() {
    let dir = temp_dir("faults");
    let cases = [
        (
            "illegal",
            fake_engine(&dir, "illegal", "echo 'bestmove a1a1'"),
            0,
        ),
        ("crash", fake_engine(&dir, "crash", "exit 3"), 2),
        ("hang", fake_engine(&dir, "hang", ":"), 3),
        (
            "timeout",
            // Late by 150 ms past the margin, 250 ms before a hang.
            fake_engine(&dir, "late", "sleep 0.65; echo 'bestmove e2e4'"),
            1,
        ),
        (
            "protocol",
            fake_engine(&dir, "refuses", "echo 'error busy'"),
            4,
        ),
    ];
    for (label, engine, kind) in &cases {
        let pgn_path = dir.join(format!("{label}.pgn"));
        let table = run_match(&[
            "--engine",
            engine,
            "--engine",
            BIN,
            "--gaps",
            "AH",
            "--movetime",
            "100",
            "--margin",
            "400",
            "--pgn",
            pgn_path.to_str().unwrap(),
        ]);
        assert_eq!(totals(&table), [2, 0, 0, 2], "{label}\n{table}");
        let mut expected = [0; 5];
        expected[*kind] = 2;
        assert_eq!(faults(&table, "A"), expected, "{label}\n{table}");
        assert_eq!(faults(&table, "B"), [0; 5], "{label}\n{table}");
        for g in replay(&pgn_path) {
            let t = g.tag("Termination").unwrap();
            assert!(t.contains(&format!(" {label}: ")), "{label}: {t}");
        }
    }
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn an_engine_that_cannot_start_loses_by_crash() {
    let table = run_match(&[
        "--engine",
        "/nonexistent/engine",
        "--engine",
        BIN,
        "--gaps",
        "AH",
        "--games",
        "3",
    ]);
    assert_eq!(totals(&table), [3, 0, 0, 3], "{table}");
    assert_eq!(faults(&table, "A"), [0, 0, 3, 0, 0], "{table}");
}

#[test]
fn autorunner_engines_and_black_choosing_gaps() {
    let dir = temp_dir("autorunner");
    let pgn_path = dir.join("games.pgn");
    let auto = format!("{BIN} autorunner --movetime 30");
    let table = run_match(&[
        "--engine",
        &auto,
        "--engine-proto",
        "autorunner",
        "--engine-proto",
        "pawnrace",
        "--engine",
        BIN,
        "--gaps",
        "black-chooses",
        "--games",
        "2",
        "--movetime",
        "30",
        "--margin",
        "400",
        "--pgn",
        pgn_path.to_str().unwrap(),
    ]);
    played_cleanly(&table, 2);
    let games = replay(&pgn_path);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| !g.moves.is_empty()));

    // Fixed gaps: the autorunner's own proposal as black is overruled.
    let table = run_match(&[
        "--engine",
        &auto,
        "--engine",
        &auto,
        "--engine-proto",
        "autorunner",
        "--gaps",
        "CF",
        "--movetime",
        "30",
        "--margin",
        "400",
    ]);
    played_cleanly(&table, 2);
    let _ = fs::remove_dir_all(dir);
}

#[test]
fn over_tcp_with_clocks_and_adjudication() {
    let server = ServerProcess::spawn(&[]);
    let url = format!("tcp://{}", server.addr);
    let table = run_match(&[
        "--engine",
        &url,
        "--engine",
        BIN,
        "--gaps",
        "AH,EE",
        "--tc",
        "1+0.02",
        "--margin",
        "400",
        "--adjudicate",
        "--adjudicate-nodes",
        "20000",
    ]);
    assert_eq!(totals(&table)[0], 4, "{table}");
    let adjudicated: usize = table
        .split_once("planned (")
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no adjudication count in {table}"));
    assert!(adjudicated > 0, "{table}");
    assert_eq!(faults(&table, "A"), [0; 5], "{table}");
    assert_eq!(faults(&table, "B"), [0; 5], "{table}");
}

/// Two equal engines score about 50%, far from elo0 = -400: the test
/// accepts H1 after about ten games of the 128 planned.
#[test]
fn sprt_stops_the_match_when_it_decides() {
    let a = format!("{BIN} --hash 2");
    let table = run_match(&[
        "--engine",
        &a,
        "--engine",
        BIN,
        "--gaps",
        "all",
        "--movetime",
        "30",
        "--margin",
        "400",
        "--sprt",
        "-400",
        "0",
    ]);
    let games = totals(&table)[0];
    assert!(games < 128, "{table}");
    assert!(
        table.contains("SPRT elo0 -400 elo1 0 alpha 0.05 beta 0.05"),
        "{table}"
    );
    assert!(table.contains("H1 accepted"), "{table}");
}

#[test]
fn bad_arguments_are_refused() {
    for args in [
        vec!["match", "--engine", BIN],
        vec!["match", "--engine", BIN, "--engine", BIN, "--gaps", "AZ"],
        vec!["match", "--engine", BIN, "--engine", BIN, "--tc", "x"],
        vec![
            "match", "--engine", BIN, "--engine", BIN, "--sprt", "5", "0",
        ],
        vec![
            "match",
            "--engine",
            "tcp://127.0.0.1:1",
            "--engine",
            BIN,
            "--engine-proto",
            "autorunner",
        ],
        // A UCI engine cannot choose gaps.
        vec![
            "match",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--engine-proto",
            "uci",
            "--gaps",
            "black-chooses",
        ],
        vec![
            "match",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--engine-option",
            "Hash",
        ],
        vec![
            "match",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--engine-proto",
            "autorunner",
            "--engine-option",
            "Hash=1",
        ],
        vec![
            "match",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--movetime",
            "1",
            "--movetime",
            "2",
            "--movetime",
            "3",
        ],
    ] {
        let (ok, _, stderr) = run_binary(&args, b"");
        assert!(!ok, "{args:?}");
        assert!(!stderr.is_empty(), "{args:?}");
    }
}
