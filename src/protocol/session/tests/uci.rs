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

/// The replies to `line` in UCI mode, on the AH start, with `before` run
/// first; info lines other than errors left out.
fn uci_replies(before: &[&str], line: &str) -> Vec<String> {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["uci", "position startpos gaps AH"]);
    drive(&mut s, before);
    drive(&mut s, &[line])
        .into_iter()
        .filter(|l| !l.starts_with("info ") || l.starts_with("info string error"))
        .collect()
}

#[test]
fn a_refused_go_still_ends_in_bestmove() {
    for (before, go) in [
        (&[][..], "go movetime"),
        (&[][..], "go depth 1 depth 2"),
        (&[][..], "go wtime -"),
        (&["position fen 8/8/8 w -"][..], "go depth 1"),
        (&["newgame chess", "uci"][..], "go depth 1"),
    ] {
        let out = uci_replies(before, go);
        assert_eq!(out.len(), 2, "{go} after {before:?}: {out:?}");
        assert!(out[0].starts_with("info string error "), "{out:?}");
        assert_eq!(out[1], "bestmove (none)");
    }
}

#[test]
fn a_go_dropped_as_busy_ends_in_bestmove_and_a_dropped_uci_changes_nothing() {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["uci", "position startpos gaps AH"]);
    let Action::Run(job) = s.handle_line("go infinite") else {
        panic!("go infinite runs")
    };
    for _ in 0..crate::protocol::session::queue::MAX_QUEUED {
        assert!(matches!(s.handle_line("isready nonsense"), Action::Reply(l) if l.is_empty()));
    }
    let Action::Reply(dropped) = s.handle_line("go depth 1") else {
        panic!("a dropped go is answered")
    };
    assert_eq!(
        text(&dropped),
        [
            "info string error busy 1000 lines already wait for the running job; this one is dropped",
            "bestmove (none)"
        ]
    );
    drop(job);
    // Out of UCI mode, a dropped `uci` must not turn it on.
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["position startpos gaps AH"]);
    let Action::Run(_job) = s.handle_line("go infinite") else {
        panic!("go infinite runs")
    };
    for _ in 0..crate::protocol::session::queue::MAX_QUEUED {
        s.handle_line("fen");
    }
    let Action::Reply(dropped) = s.handle_line("uci") else {
        panic!("a dropped uci is answered")
    };
    assert!(text(&dropped)[0].starts_with("error busy "), "{dropped:?}");
    assert!(!s.uci);
}

/// Lines queued behind a search change the dialect when their turn comes:
/// piped in, they get what typed one by one would.
#[test]
fn queued_lines_change_the_dialect_in_their_turn() {
    let mut s = Session::new(SessionOptions::default());
    drive(&mut s, &["newgame", "gaps AH"]);
    let Action::Run(job) = s.handle_line("go depth 1") else {
        panic!("go runs")
    };
    for line in ["position startpos gaps AH", "uci"] {
        assert!(matches!(s.handle_line(line), Action::Reply(l) if l.is_empty()));
    }
    assert!(!s.uci, "uci waits its turn");
    let mut out = Vec::new();
    settle(&mut s, Action::Run(job), &mut out);
    let finals = finals(&out);
    assert!(finals[0].starts_with("bestmove "), "{finals:?}");
    assert!(
        !finals[0].contains(" ponder "),
        "not in UCI mode yet: {finals:?}"
    );
    assert!(finals[1].starts_with("ok position "), "{finals:?}");
    assert_eq!(finals[2], "uciok");
}
