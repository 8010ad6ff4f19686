//! Fuzzing the real binary over stdio and TCP: 20,000 lines, from the
//! command grammar, word soup and random bytes (fixed seeds), and every
//! line that is not blank gets exactly one final line (protocol.md,
//! Replies), with no panic and the session alive to the end.

mod common;

use common::{Peer, Recv, ServerProcess, StdioProcess, wait_exit};
use pawnrace::protocol::is_final_line;
use pawnrace::testkit::Rng;
use std::time::Duration;

const LINES: usize = 10_000;

/// Well-formed commands, each answered by one final line whatever the
/// game's state (bounded searches only: the driver never sends `stop`).
const COMMANDS: &[&str] = &[
    "isready",
    "newgame",
    "newgame mini4",
    "newgame chess",
    "gaps AH",
    "gaps hb",
    "position startpos gaps AH",
    "position startpos gaps CE moves b2b4 f7f5",
    "position fen 8/P7/8/8/8/8/7p/8 w -",
    "position fen 8/8/8",
    "move e2e4",
    "move e4",
    "move a7a8q",
    "move e7e5",
    "undo",
    "moves",
    "board",
    "fen",
    "go depth 1",
    "go depth 2",
    "go nodes 50",
    "go movetime 5",
    "go wtime 20 btime 20",
    "perft 2",
    "solve nodes 2000",
    "analyse nodes 200",
    "setoption name Hash value 2",
    "setoption name MultiPV value 2",
    "setoption name Resistance value longest",
    "setoption name Threads value 1",
    "stop",
    "ponderhit",
    "help",
];

/// Words for soup: commands' names and keywords, values good and bad, and
/// characters from outside ASCII.
const WORDS: &[&str] = &[
    "isready",
    "newgame",
    "gaps",
    "position",
    "startpos",
    "fen",
    "moves",
    "move",
    "undo",
    "board",
    "setoption",
    "name",
    "value",
    "Hash",
    "depth",
    "nodes",
    "movetime",
    "infinite",
    "ponder",
    "e2e4",
    "e4",
    "AH",
    "zz",
    "0",
    "1",
    "-1",
    "99999999999999999999",
    "8/8/8",
    "w",
    "b",
    "-",
    "\u{e9}",
    "\u{3000}",
    "x",
    "stop",
    "ponderhit",
];

fn script(seed: u64) -> (Vec<u8>, usize) {
    let mut rng = Rng::new(&[seed]);
    let mut bytes = Vec::new();
    let mut expected = 0;
    for _ in 0..LINES {
        let line: Vec<u8> = match rng.below(10) {
            0..=4 => COMMANDS[rng.below(COMMANDS.len())].as_bytes().to_vec(),
            5..=7 => {
                let n = rng.below(6);
                let words: Vec<&str> = (0..n).map(|_| WORDS[rng.below(WORDS.len())]).collect();
                let mut line = words.join(" ");
                // A soup that happens to be `go`/`infinite` alone could
                // wait for ever: keep every search bounded.
                if line.split(' ').any(|w| w == "infinite" || w == "ponder") {
                    line = format!("bogus {line}");
                }
                line.into_bytes()
            }
            _ => (0..rng.below(40))
                .map(|_| rng.below(256) as u8)
                .filter(|&b| b != b'\n')
                .collect(),
        };
        let blank = match std::str::from_utf8(&line) {
            Ok(text) => text
                .trim_matches(|c: char| c.is_ascii_whitespace())
                .is_empty(),
            Err(_) => false,
        };
        if !blank {
            expected += 1;
        }
        bytes.extend_from_slice(&line);
        bytes.push(b'\n');
    }
    (bytes, expected)
}

/// Sends the script, closes the input, reads to the end; the final lines.
fn replay(peer: &Peer, bytes: &[u8]) -> Vec<String> {
    for chunk in bytes.chunks(64 * 1024) {
        peer.send_bytes(chunk);
    }
    peer.close_input();
    let mut finals = Vec::new();
    loop {
        match peer.recv_within(Duration::from_secs(60)) {
            Recv::Line(line) if is_final_line(&line) => finals.push(line),
            Recv::Line(_) => {}
            Recv::Eof => return finals,
            Recv::Timeout => panic!("no output for 60 s after {} final lines", finals.len()),
        }
    }
}

#[test]
fn every_line_gets_one_final_line_over_stdio() {
    let (bytes, expected) = script(7);
    let mut process = StdioProcess::spawn(&[]);
    let finals = replay(&process.peer, &bytes);
    assert_eq!(finals.len(), expected);
    let status = wait_exit(&mut process.child, Duration::from_secs(10));
    assert!(status.is_some_and(|s| s.success()), "{status:?}");
}

#[test]
fn every_line_gets_one_final_line_over_tcp() {
    let (bytes, expected) = script(11);
    let server = ServerProcess::spawn(&[]);
    let peer = Peer::connect(server.addr);
    let finals = replay(&peer, &bytes);
    assert_eq!(finals.len(), expected);
    // The server is still there for the next one.
    let next = Peer::connect(server.addr);
    next.send("isready");
    assert_eq!(next.line(), "readyok");
}
