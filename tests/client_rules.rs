//! The clients' rules of the protocol, held to the server's own: the
//! page's `web/protocol.js` (which takes the server's lists from the
//! `vocabulary.js` it serves) and the Python client's copy. A copy that drifts
//! pairs replies with the wrong commands. The page once left `d` and
//! `analyze` out of its own commands: after `uci` then `d` the server had
//! left UCI mode but the page had not, so a `stop` during a search (the
//! page's Move now) got an `ok stop` the page did not wait for, and every
//! later reply answered the command before it.

use pawnrace::protocol::{FINAL_WORDS, is_final_line};
use std::io::Write;
use std::process::{Command, Stdio};

const PAGE: &str = include_str!("../src/server/web/protocol.js");

/// The page takes the server's lists from `vocabulary.js`, which the server
/// writes from [`Verb`] and [`FINAL_WORDS`] (its unit test checks the
/// words); a list of its own would be a second source that can drift.
#[test]
fn the_page_takes_the_servers_words_and_keeps_no_copy() {
    assert!(PAGE.contains("import { FINAL_WORDS, OWN, SILENT_IN_UCI } from \"./vocabulary.js\";"));
    for verb in ["\"newgame\"", "\"setoption\"", "\"uciok\""] {
        assert!(!PAGE.contains(verb), "protocol.js spells {verb} itself");
    }
}

fn sorted(mut words: Vec<String>) -> Vec<String> {
    words.sort();
    words
}

fn final_words() -> Vec<String> {
    sorted(FINAL_WORDS.iter().map(|w| w.to_string()).collect())
}

/// Replies and lines that only look like them.
const LINES: [&str; 16] = [
    "uciok",
    "readyok",
    "bestmove e2e4 ponder d7d5",
    "bestmove (none)",
    "solution white plies 1 pv a7a8",
    "solution unknown",
    "ok bye",
    "error busy 1000 lines already wait for the running job",
    "info depth 1 seldepth 1 score cp 0 nodes 1 nps 1 time 1",
    "move e2e4 san e4",
    "id name pawnrace",
    "okay",
    "uciok now",
    " ok",
    "bestmoves",
    "",
];

#[test]
fn the_python_client_tells_final_lines_as_the_server_does() {
    let dir = format!("{}/clients/python", env!("CARGO_MANIFEST_DIR"));
    let script = "import sys\n\
        sys.path.insert(0, sys.argv[1])\n\
        from pawnrace_client import FINAL_WORDS, is_final\n\
        print(' '.join(sorted(FINAL_WORDS)))\n\
        for line in sys.stdin.read().split('\\n')[:-1]:\n\
        \x20   print(int(is_final(line)))\n";
    let mut child = Command::new("python3")
        .args(["-c", script, &dir])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run python3 ({e}): the Python client is checked against the server's rules"
            )
        });
    let mut input = child.stdin.take().expect("stdin");
    for line in LINES {
        writeln!(input, "{line}").expect("write to python3");
    }
    drop(input);
    let out = child.wait_with_output().expect("python3 ran");
    assert!(out.status.success(), "python3 failed");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut said = text.lines();
    assert_eq!(said.next(), Some(final_words().join(" ").as_str()));
    for line in LINES {
        let want = if is_final_line(line) { "1" } else { "0" };
        assert_eq!(said.next(), Some(want), "is_final({line:?})");
    }
}
