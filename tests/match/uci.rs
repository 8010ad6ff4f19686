//! UCI engines in a match: their options, positions as FEN, openings from
//! a file of positions, and pawnrace itself speaking UCI.

use crate::common::{BIN, run_binary};
use crate::{faults, played_cleanly, replay, run_match, temp_dir};
use std::fs;
use std::path::Path;

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
