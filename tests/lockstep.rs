//! The reply discipline, line by line, in both dialects: a grammar fuzzer
//! (fixed seeds, 20,000 lines a transport) sends one line, reads its
//! reply, then a sentinel (`isready`, whose `readyok` must come next with
//! nothing before it), over stdio and TCP. The rule it holds each line to
//! is protocol.md's:
//!
//! - out of UCI mode every line that is not blank gets exactly one final
//!   line;
//! - in UCI mode (after `uci`, until one of the protocol's own commands)
//!   the commands UCI leaves unanswered get no final line, only `info`
//!   lines (`info string error ...` when refused), and every `go` ends in
//!   `bestmove`, a refused one too;
//! - a line enters or leaves UCI mode when it is handled.
//!
//! And a batch: thousands of lines written at once while a search runs,
//! the queue's cap included: the lines past it are answered `error busy`
//! at once, the rest in order once the search ends.

mod common;

use common::{Peer, Recv, ServerProcess, StdioProcess};
use pawnrace::protocol::{Verb, is_final_line};
use pawnrace::testkit::Rng;
use std::time::Duration;

const LINES: usize = 20_000;

/// Commands of both dialects, well-formed or not; every search bounded.
const COMMANDS: &[&str] = &[
    "uci",
    "uci now",
    "isready",
    "debug on",
    "register later",
    "ucinewgame",
    "setoption name Gaps value AH",
    "setoption name Gaps value none",
    "setoption name Hash value 2",
    "setoption name MultiPV value 2",
    "setoption name Resistance value longest",
    "setoption name Nonsense value 1",
    "setoption name UCI_Variant value pawnrace",
    "setoption name UCI_Variant value mini4",
    "setoption name UCI_Variant value shogi",
    "setoption name FEN value fairy",
    "setoption name FEN value house",
    "position startpos",
    "position startpos gaps AH",
    "position startpos moves h2h4",
    "position startpos gaps CE moves b2b4 f7f5",
    "position fen 8/P7/8/8/8/8/7p/8 w -",
    "position fen 8/P7/8/8/8/8/7p/8 w - - 0 1",
    "position fen 8/8/8",
    "position fen 8/ppppppp1/8/8/8/8/1PPPPPPP/8 w KQ - 0 1",
    "position",
    "go depth 1",
    "go depth 2",
    "go nodes 50",
    "go movetime 5",
    "go wtime 20 btime 20",
    "go movetime",
    "go depth 1 depth 2",
    "go mate 3 movetime 20",
    "go mate 2 nodes 500",
    "go searchmoves e2e4 depth 1",
    "go searchmoves h2h4 a7a5 movetime 5",
    "go nonsense",
    "stop",
    "ponderhit",
    "newgame",
    "newgame mini4",
    "newgame chess",
    "gaps AH",
    "gaps zz",
    "move e2e4",
    "move h4",
    "move a7a8q",
    "undo",
    "moves",
    "board",
    "d",
    "fen",
    "perft 2",
    "solve nodes 500",
    "analyse nodes 100",
    "explore nodes 50",
    "help",
    "bogus",
];

const WORDS: &[&str] = &[
    "uci",
    "go",
    "position",
    "setoption",
    "name",
    "value",
    "startpos",
    "fen",
    "moves",
    "depth",
    "movetime",
    "nodes",
    "gaps",
    "AH",
    "e2e4",
    "8/8/8",
    "w",
    "-",
    "0",
    "-1",
    "\u{e9}",
    "stop",
    "ponderhit",
    "isready",
    "debug",
    "register",
    "ucinewgame",
    "board",
];

/// The `seed`'s lines.
fn script(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(&[seed]);
    // UCI's commands half the time, so that UCI mode, once entered, lasts.
    let uci: Vec<&str> = COMMANDS
        .iter()
        .copied()
        .filter(|c| Verb::of_line(c).is_some_and(Verb::is_uci))
        .collect();
    (0..n)
        .map(|_| match rng.below(10) {
            0..=4 => uci[rng.below(uci.len())].to_string(),
            5..=7 => COMMANDS[rng.below(COMMANDS.len())].to_string(),
            _ => {
                let words: Vec<&str> = (0..1 + rng.below(5))
                    .map(|_| WORDS[rng.below(WORDS.len())])
                    .collect();
                let line = words.join(" ");
                // Keep every search bounded (`go` alone searches a second).
                if line.split(' ').any(|w| w == "go") {
                    format!("bogus {line}")
                } else {
                    line
                }
            }
        })
        .collect()
}

/// The documented dialect of a session, as a client tracks it.
struct Dialect {
    uci: bool,
}

impl Dialect {
    /// Whether `line`, handled now, gets a final line; then the mode after.
    fn expect_final(&mut self, line: &str) -> bool {
        let verb = Verb::of_line(line);
        if verb == Some(Verb::Uci) && line.split_ascii_whitespace().nth(1).is_none() {
            self.uci = true;
            return true;
        }
        if verb.is_some_and(Verb::leaves_uci) {
            self.uci = false;
        }
        if !self.uci {
            // A line whose verb is not known is an error: a final line.
            return true;
        }
        // In UCI mode an error of UCI's own commands is an `info string`
        // alone (only `go` still ends in `bestmove`): `uci` and `isready`
        // take no arguments, so with some they are refused.
        let refused = matches!(verb, Some(Verb::Uci | Verb::IsReady))
            && line.split_ascii_whitespace().nth(1).is_some();
        !(verb.is_some_and(Verb::silent_in_uci) || refused)
    }
}

/// Reads `peer`'s lines up to a final one (`want_final`) or up to the
/// sentinel's `readyok`, and checks them against the rule for `line`.
fn check_line(peer: &Peer, line: &str, want_final: bool, uci: bool, n: usize) {
    if want_final {
        loop {
            match peer.recv_within(Duration::from_secs(60)) {
                Recv::Line(l) if is_final_line(&l) => {
                    let verb = Verb::of_line(line);
                    if uci && verb == Some(Verb::Go) {
                        assert!(
                            l.starts_with("bestmove "),
                            "line {n} `{line}` in UCI mode ended in {l:?}, not bestmove"
                        );
                    }
                    break;
                }
                Recv::Line(_) => {}
                other => panic!("line {n} `{line}`: {other:?} before its final line"),
            }
        }
    }
    // The sentinel: readyok next, after at most `info` lines.
    peer.send("isready");
    loop {
        match peer.recv_within(Duration::from_secs(60)) {
            Recv::Line(l) if l == "readyok" => break,
            Recv::Line(l) if l.starts_with("info ") => {
                assert!(!want_final, "line {n} `{line}`: {l:?} after its final line");
            }
            Recv::Line(l) => panic!(
                "line {n} `{line}` (UCI mode {uci}): {l:?} where only info lines may come \
                 ({} final lines where {} were due)",
                if is_final_line(&l) { "two" } else { "stray" },
                u8::from(want_final)
            ),
            other => panic!("line {n} `{line}`: {other:?} instead of the sentinel's readyok"),
        }
    }
}

fn lockstep(peer: &Peer, seed: u64) -> usize {
    let mut dialect = Dialect { uci: false };
    let mut uci_lines = 0;
    for (n, line) in script(seed, LINES).iter().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        peer.send(line);
        let want = dialect.expect_final(line);
        uci_lines += usize::from(dialect.uci);
        check_line(peer, line, want, dialect.uci, n);
    }
    uci_lines
}

#[test]
fn every_line_keeps_the_reply_discipline_over_stdio() {
    let mut process = StdioProcess::spawn(&[]);
    let uci_lines = lockstep(&process.peer, 21);
    assert!(
        uci_lines > LINES / 10,
        "UCI mode was hardly tried: {uci_lines} lines"
    );
    process.peer.send("quit");
    let _ = common::wait_exit(&mut process.child, Duration::from_secs(10));
}

#[test]
fn every_line_keeps_the_reply_discipline_over_tcp() {
    let server = ServerProcess::spawn(&[]);
    let peer = Peer::connect(server.addr);
    let uci_lines = lockstep(&peer, 22);
    assert!(
        uci_lines > LINES / 10,
        "UCI mode was hardly tried: {uci_lines} lines"
    );
}

/// Lines written at once behind a `go infinite`: 1000 wait their turn,
/// the rest are answered `error busy` at once; after `stop`, the search's
/// `bestmove`, `ok stop`, and each waiting line's one final line in order.
fn batch(peer: &Peer) {
    const SENT: usize = 1500;
    const CAP: usize = 1000;
    for line in ["newgame", "gaps AH", "go infinite"] {
        peer.send(line);
    }
    let mut rng = Rng::new(&[5]);
    // Protocol-mode commands that wait their turn (no isready, stop, quit
    // or ponderhit, which do not).
    let waiting: Vec<&str> = COMMANDS
        .iter()
        .copied()
        .filter(|c| {
            !matches!(
                Verb::of_line(c),
                Some(Verb::IsReady | Verb::Stop | Verb::PonderHit | Verb::Uci | Verb::Quit)
            )
        })
        .collect();
    let lines: Vec<&str> = (0..SENT)
        .map(|_| waiting[rng.below(waiting.len())])
        .collect();
    let mut text = lines.join("\n");
    text.push('\n');
    peer.send_bytes(text.as_bytes());
    let mut finals = Vec::new();
    // Before the search ends: its gaps' and setup's replies, then the
    // dropped lines' errors.
    while finals.len() < 2 + (SENT - CAP) {
        match peer.recv_within(Duration::from_secs(60)) {
            Recv::Line(l) if is_final_line(&l) => finals.push(l),
            Recv::Line(_) => {}
            other => panic!("{other:?} after {} final lines", finals.len()),
        }
    }
    assert_eq!(
        finals[..2],
        ["ok newgame pawnrace awaiting gaps", "ok gaps AH"]
    );
    for busy in &finals[2..] {
        assert!(busy.starts_with("error busy "), "{busy}");
    }
    peer.send("stop");
    let mut after = Vec::new();
    while after.len() < 2 + CAP {
        match peer.recv_within(Duration::from_secs(120)) {
            Recv::Line(l) if is_final_line(&l) => after.push(l),
            Recv::Line(_) => {}
            other => panic!("{other:?} after {} final lines", after.len()),
        }
    }
    assert!(after[0].starts_with("bestmove "), "{}", after[0]);
    assert_eq!(after[1], "ok stop");
    assert!(
        after[2..].iter().all(|l| !l.starts_with("error busy")),
        "a waiting line was dropped"
    );
    // Nothing more: each waiting line had one final line.
    peer.send("isready");
    assert_eq!(
        peer.recv_within(Duration::from_secs(60)),
        Recv::Line("readyok".into())
    );
}

#[test]
fn a_batch_behind_a_search_is_answered_line_for_line_over_stdio() {
    let mut process = StdioProcess::spawn(&[]);
    batch(&process.peer);
    process.peer.send("quit");
    let _ = common::wait_exit(&mut process.child, Duration::from_secs(10));
}

#[test]
fn a_batch_behind_a_search_is_answered_line_for_line_over_tcp() {
    let server = ServerProcess::spawn(&[]);
    let peer = Peer::connect(server.addr);
    batch(&peer);
}
