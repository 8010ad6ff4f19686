//! `pawnrace match` through the real binary: real engines in every
//! protocol and over TCP, faulty fake engines (small shell scripts, and a
//! scripted UCI engine in tests/engines/fake_uci.py), the results table
//! and the PGN it writes, replayed through `pawnrace::rules`.

mod common;

use common::{BIN, ServerProcess, run_binary};
use pawnrace::pgn::{ReadGame, read_games};
use pawnrace::rules::{Gaps, Position, RuleSet};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    common::temp_dir(&format!("match-{name}"))
}

/// A fake engine: greets and accepts games like pawnrace, and answers `go`
/// with `on_go` (shell code).
fn fake_engine(dir: &Path, name: &str, on_go: &str) -> String {
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             isready) echo readyok ;;\n\
             newgame*) echo 'ok newgame pawnrace awaiting gaps' ;;\n\
             position*) echo 'ok position' ;;\n\
             go*) {on_go} ;;\n\
             *) echo 'error unknown-command' ;;\n\
           esac\n\
         done\n"
    );
    fs::write(&path, script).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path.to_string_lossy().into_owned()
}

/// Runs a match; its stdout (the table) if it succeeded.
fn run_match(args: &[&str]) -> String {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    let (ok, stdout, stderr) = run_binary(&all, b"");
    assert!(ok, "match failed: {stderr}\n{stdout}");
    stdout
}

/// The numbers of the table row starting with `label`.
fn row(table: &str, label: &str) -> Vec<String> {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(label))
        .unwrap_or_else(|| panic!("no row {label} in\n{table}"));
    line.split_whitespace().skip(1).map(String::from).collect()
}

/// `games wins draws losses` of A's total.
fn totals(table: &str) -> [usize; 4] {
    let r = row(table, "total");
    [0, 1, 2, 3].map(|i| r[i].parse().unwrap())
}

/// A's or B's faults: illegal, timeout, crash, hang, protocol.
fn faults(table: &str, engine: &str) -> [usize; 5] {
    let r = row(table, engine);
    [0, 1, 2, 3, 4].map(|i| r[i].parse().unwrap())
}

/// `games` games were played and neither engine faulted.
fn played_cleanly(table: &str, games: usize) {
    assert_eq!(totals(table)[0], games, "{table}");
    assert_eq!(faults(table, "A"), [0; 5], "{table}");
    assert_eq!(faults(table, "B"), [0; 5], "{table}");
}

/// Replays every game of a PGN file through the rules: every move legal,
/// and a game the rules ended has the result the rules give.
fn replay(path: &Path) -> Vec<ReadGame> {
    // The reader replays every move through the rules: an illegal one is
    // an error here.
    let games: Vec<ReadGame> = read_games(&fs::read_to_string(path).unwrap())
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("pawnrace"));
        // A gap start, or a position said with SetUp and FEN.
        let start = match g.tag("FEN") {
            Some(fen) => Position::from_fen(fen, RuleSet::PAWNRACE).unwrap(),
            None => {
                let gaps: Gaps = g.tag("Gaps").unwrap().parse().unwrap();
                Position::start(RuleSet::PAWNRACE, Some(gaps)).unwrap()
            }
        };
        assert_eq!(g.start, start);
        let mut pos = g.start;
        for m in &g.moves {
            pos = pos.play_unchecked(*m);
        }
        assert_eq!(g.tag("Result"), Some(g.result.as_str()));
        let termination = g.tag("Termination").unwrap();
        if termination.starts_with("normal") {
            assert_eq!(pos.outcome().unwrap().pgn(), g.result, "{g:?}");
        }
        assert_eq!(g.tag("PlyCount"), Some(g.moves.len().to_string().as_str()));
    }
    games
}

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

/// The scripted UCI engine: `python3 tests/engines/fake_uci.py LOG ARGS`.
fn fake_uci(log: &Path, args: &str) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines/fake_uci.py");
    format!("python3 {} {} {args}", script.display(), log.display())
}

/// A UCI engine gets `uci`, its options (a value with spaces intact),
/// `ucinewgame` per game and the game as `position fen START moves ...`
/// with its own move time; an illegal `bestmove` loses and the engine is
/// started afresh.
#[test]
fn a_uci_engine_gets_its_options_and_positions_as_fen() {
    let dir = temp_dir("uci");
    let log = dir.join("uci.log");
    let pgn_path = dir.join("games.pgn");
    let table = run_match(&[
        "--engine",
        BIN,
        "--engine",
        &fake_uci(&log, ""),
        "--name",
        "pawnrace",
        "--name",
        "fake",
        "--engine-proto",
        "pawnrace",
        "--engine-proto",
        "uci",
        "--engine-option",
        "B:VariantPath=/some folder/pawnrace.ini",
        "--engine-option",
        "B:UCI_Variant=pawnrace",
        "--engine-option",
        "Hash=8",
        "--gaps",
        "AH",
        "--movetime",
        "30",
        "--movetime",
        "700",
        "--margin",
        "400",
        "--pgn",
        pgn_path.to_str().unwrap(),
    ]);
    played_cleanly(&table, 2);
    let sent = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = sent.lines().collect();
    assert_eq!(
        lines[..6],
        [
            "uci",
            "setoption name VariantPath value /some folder/pawnrace.ini",
            "setoption name UCI_Variant value pawnrace",
            "setoption name Hash value 8",
            "isready",
            "ucinewgame",
        ],
        "{sent}"
    );
    // One process for both games: the handshake once, a new game twice.
    assert_eq!(lines.iter().filter(|l| **l == "uci").count(), 1, "{sent}");
    assert_eq!(lines.iter().filter(|l| **l == "ucinewgame").count(), 2);
    // Told to quit at the end, and given the time to read it.
    assert_eq!(lines.last(), Some(&"quit"), "{sent}");
    let start = "position fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w - - 0 1";
    assert!(lines.contains(&start), "{sent}");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&format!("{start} moves "))),
        "{sent}"
    );
    assert!(
        lines
            .iter()
            .filter(|l| l.starts_with("go"))
            .all(|l| *l == "go movetime 700")
    );
    let games = replay(&pgn_path);
    assert_eq!(games.len(), 2);
    for g in &games {
        let fake_is_white = g.tag("White") == Some("fake");
        let [white_tc, black_tc] = if fake_is_white {
            ["movetime 700ms", "movetime 30ms"]
        } else {
            ["movetime 30ms", "movetime 700ms"]
        };
        assert_eq!(g.tag("WhiteTimeControl"), Some(white_tc));
        assert_eq!(g.tag("BlackTimeControl"), Some(black_tc));
    }

    // Its second move illegal: it loses that game, is restarted (a new
    // handshake) and plays the next.
    let log = dir.join("illegal.log");
    let table = run_match(&[
        "--engine",
        BIN,
        "--engine",
        &fake_uci(&log, "--illegal-at 2"),
        "--engine-proto",
        "pawnrace",
        "--engine-proto",
        "uci",
        "--gaps",
        "AH",
        "--movetime",
        "30",
        "--margin",
        "400",
    ]);
    assert_eq!(faults(&table, "B")[0], 2, "{table}");
    let sent = fs::read_to_string(&log).unwrap();
    assert_eq!(sent.lines().filter(|l| *l == "uci").count(), 2, "{sent}");
    let _ = fs::remove_dir_all(dir);
}

/// Openings from a file of positions in three forms, each played with both
/// colours; the PGN says where each game started, and the UCI engine is
/// told so in FEN.
#[test]
fn openings_from_positions() {
    let dir = temp_dir("openings");
    let file = dir.join("openings.epd");
    fs::write(
        &file,
        "# after 1. e4 a5 (AH), as EPD\n\
         8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 w - - bm d4; id \"e4 a5\";\n\
         \n\
         8/ppppppp1/8/8/8/8/1PPPPPPP/8 b - - 0 1\n\
         8/1ppppppp/8/8/8/8/PPPPPPP1/8 w -\n",
    )
    .unwrap();
    let log = dir.join("uci.log");
    let pgn_path = dir.join("games.pgn");
    let table = run_match(&[
        "--engine",
        BIN,
        "--engine",
        &fake_uci(&log, ""),
        "--engine-proto",
        "pawnrace",
        "--engine-proto",
        "uci",
        "--openings",
        file.to_str().unwrap(),
        "--movetime",
        "30",
        "--margin",
        "400",
        "--pgn",
        pgn_path.to_str().unwrap(),
    ]);
    played_cleanly(&table, 6);
    let games = replay(&pgn_path);
    let mut starts: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            assert_eq!(g.tag("SetUp"), Some("1"));
            assert_eq!(g.tag("Gaps"), None);
            (g.tag("FEN").unwrap().into(), g.tag("White").unwrap().into())
        })
        .collect();
    starts.sort();
    starts.dedup();
    assert_eq!(
        starts.len(),
        6,
        "each opening with both colours: {starts:?}"
    );
    let fens: Vec<&str> = starts.iter().map(|(f, _)| f.as_str()).collect();
    assert!(fens.contains(&"8/1pppppp1/8/p7/4P3/8/1PPP1PPP/8 w - - 0 1"));
    assert!(fens.contains(&"8/ppppppp1/8/8/8/8/1PPPPPPP/8 b - - 0 1"));
    let sent = fs::read_to_string(&log).unwrap();
    assert!(
        sent.lines()
            .any(|l| l.starts_with("position fen 8/1ppppppp/8/8/8/8/PPPPPPP1/8 w - - 0 1")),
        "{sent}"
    );
    // `analyse` reads the games that start from a FEN.
    let (ok, stdout, stderr) = run_binary(
        &[
            "analyse",
            "--summary-only",
            "--nodes",
            "2000",
            "--hash",
            "4",
            pgn_path.to_str().unwrap(),
        ],
        b"",
    );
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("summary all games: 6 analysed, 0 failed"),
        "{stdout}"
    );

    for (contents, why) in [
        ("8/8/8/8/8/8/8/8 w - zz\n", "line 1"),
        ("[FEN \"nonsense\"]\n\n*\n", "game 1"),
    ] {
        fs::write(&file, contents).unwrap();
        let args = [
            "match",
            "--engine",
            BIN,
            "--engine",
            BIN,
            "--openings",
            file.to_str().unwrap(),
        ];
        let (ok, _, stderr) = run_binary(&args, b"");
        assert!(!ok && stderr.contains(why), "{contents}: {stderr}");
    }
    let _ = fs::remove_dir_all(dir);
}

/// pawnrace itself as a UCI engine, against itself in its own protocol.
#[test]
fn pawnrace_plays_through_uci() {
    let table = run_match(&[
        "--engine",
        BIN,
        "--engine",
        BIN,
        "--engine-proto",
        "uci",
        "--engine-proto",
        "pawnrace",
        "--engine-option",
        "A:Hash=4",
        "--gaps",
        "CF",
        "--movetime",
        "40",
        "--margin",
        "400",
    ]);
    played_cleanly(&table, 2);
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
