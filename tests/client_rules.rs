//! The clients' copies of the protocol's rules, held to the server's own:
//! the page's `web/protocol.js` and the Python client. A copy that drifts
//! pairs replies with the wrong commands. The page once left `d` and
//! `analyze` out of its own commands: after `uci` then `d` the server had
//! left UCI mode but the page had not, so a `stop` during a search (the
//! page's Move now) got an `ok stop` the page did not wait for, and every
//! later reply answered the command before it.

use pawnrace::protocol::{FINAL_WORDS, Verb, is_final_line};
use std::io::Write;
use std::process::{Command, Stdio};

const PAGE: &str = include_str!("../src/server/web/protocol.js");

/// The text between `head` and `tail` in the page's script.
fn page_between(head: &str, tail: &str) -> &'static str {
    let start = PAGE
        .find(head)
        .unwrap_or_else(|| panic!("protocol.js has no `{head}`"))
        + head.len();
    let len = PAGE[start..]
        .find(tail)
        .unwrap_or_else(|| panic!("protocol.js: `{head}` has no `{tail}`"));
    &PAGE[start..start + len]
}

/// The quoted words of `const <name> = new Set([...]);` in the page's
/// script, sorted.
fn page_set(name: &str) -> Vec<String> {
    let list = page_between(&format!("const {name} = new Set(["), "]);");
    sorted(
        list.split(',')
            .map(|w| w.trim().trim_matches('"').to_string())
            .filter(|w| !w.is_empty())
            .collect(),
    )
}

fn sorted(mut words: Vec<String>) -> Vec<String> {
    words.sort();
    words
}

/// The words of the verbs `rule` holds for, sorted.
fn verbs(rule: fn(Verb) -> bool) -> Vec<String> {
    sorted(
        Verb::ALL
            .into_iter()
            .filter(|v| rule(*v))
            .map(|v| v.word().to_string())
            .collect(),
    )
}

fn final_words() -> Vec<String> {
    sorted(FINAL_WORDS.iter().map(|w| w.to_string()).collect())
}

#[test]
fn the_page_leaves_uci_mode_on_the_commands_the_server_does() {
    assert_eq!(page_set("OWN"), verbs(Verb::leaves_uci));
}

#[test]
fn the_page_waits_for_no_reply_where_uci_mode_gives_none() {
    assert_eq!(page_set("SILENT_IN_UCI"), verbs(Verb::silent_in_uci));
}

#[test]
fn the_page_tells_final_lines_by_the_servers_words() {
    let words = page_between("const FINAL = /^(", ")( |$)/;");
    assert_eq!(
        sorted(words.split('|').map(str::to_string).collect()),
        final_words()
    );
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
