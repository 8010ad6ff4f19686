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
