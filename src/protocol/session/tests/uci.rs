//! UCI mode: a chess GUI's dialogue answered as UCI does.

use super::*;

#[test]
fn uci_mode_answers_as_uci_does() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "uci",
            "setoption name Gaps value AH",
            "ucinewgame",
            "position startpos moves h2h4",
            "isready",
            "position fen 8/8/8 w -",
            "go depth 2",
            "setoption name Gaps value none",
            "position startpos",
            "go depth 2",
            "stop",
            "quit",
        ],
    );
    let from = out.iter().position(|l| l == "uciok").unwrap() + 1;
    let told = |l: &&String| {
        !l.starts_with("info ")
            || ["error", "gaps"]
                .iter()
                .any(|w| l.starts_with(&format!("info string {w}")))
    };
    let out: Vec<&str> = out[from..]
        .iter()
        .filter(told)
        .map(String::as_str)
        .collect();
    assert_eq!(
        out[0], "readyok",
        "position, setoption, ucinewgame say nothing"
    );
    assert!(
        out[1].starts_with("info string error bad-position "),
        "{}",
        out[1]
    );
    assert!(
        out[2].starts_with("info string error wrong-state "),
        "{}",
        out[2]
    );
    assert_eq!(out[3], "bestmove (none)");
    // Without gaps, the engine chooses them and plays white's first move.
    assert_eq!(out[4], "info string gaps AF");
    assert!(out[5].starts_with("bestmove ") && out[5] != "bestmove (none)");
    assert_eq!(out.len(), 6, "stop and quit say nothing: {out:?}");
}

/// In UCI mode a proof's progress is a plain UCI info line: numbers under
/// UCI's keys, the phase as its `string`.
#[test]
fn a_proof_is_told_in_uci_info_lines() {
    let mut s = Session::new(SessionOptions::default());
    let out = drive(
        &mut s,
        &[
            "uci",
            "position fen 8/1ppppppp/8/8/8/8/PPPPPPP1/8 b -",
            "go movetime 500",
        ],
    );
    let line = out
        .iter()
        .find(|l| l.ends_with(" string deciding"))
        .unwrap_or_else(|| panic!("no progress: {out:?}"));
    let words: Vec<&str> = line.split(' ').collect();
    assert_eq!(words[0], "info");
    assert_eq!(words[1..].len() % 2, 0, "{line}");
    for pair in words[1..].chunks(2) {
        match pair[0] {
            "nodes" | "nps" | "time" | "hashfull" => {
                assert!(pair[1].parse::<u64>().is_ok(), "{line}")
            }
            "string" => assert_eq!(pair[1], "deciding"),
            key => panic!("{key} in {line}"),
        }
    }
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
}
