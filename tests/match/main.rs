//! `pawnrace match` through the real binary: real engines in every
//! protocol and over TCP, faulty fake engines (small shell scripts, and a
//! scripted UCI engine in tests/engines/fake_uci.py), the results table
//! and the PGN it writes, replayed through `pawnrace::rules`.

#[path = "../common/mod.rs"]
mod common;

mod own;
mod uci;

use common::run_binary;
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
