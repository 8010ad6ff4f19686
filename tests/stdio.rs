//! The binary serving one session on its stdin and stdout: how it ends
//! (end of input, `quit`, end of input mid-search) and piped scripts.
//! Tests marked "(protocol)" need the real protocol session.

mod common;

use common::{StdioProcess, assert_glob, wait_exit};
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(10);

/// The process ends within [`SETTLE`] with status 0; `why` names what
/// should have ended it.
fn exits_0(process: &mut StdioProcess, why: &str) {
    let status = wait_exit(&mut process.child, SETTLE).expect(why);
    assert!(status.success(), "exit status {status}");
}

#[test]
fn stdio_eof_exits_0() {
    let mut process = StdioProcess::spawn(&[]);
    process.peer.send("isready");
    assert_eq!(process.peer.line(), "readyok");
    process.peer.close_input();
    process.peer.expect_eof();
    exits_0(&mut process, "no exit after EOF");
}

/// `quit` ends the process even though stdin stays open.
#[test]
fn stdio_quit_exits_0_with_stdin_open() {
    let mut process = StdioProcess::spawn(&[]);
    process.peer.send("quit");
    assert_eq!(process.peer.line(), "ok bye");
    process.peer.expect_eof();
    exits_0(&mut process, "no exit after quit");
}

/// (protocol) EOF during a search stops it, answers it, and exits 0.
#[test]
fn stdio_eof_mid_search_exits_0() {
    let mut process = StdioProcess::spawn(&[]);
    let peer = &process.peer;
    peer.send("newgame");
    assert_glob("ok newgame pawnrace*", &peer.reply());
    // With no gaps chosen, `go` chooses them and answers `ok gaps XY`.
    peer.send("go");
    assert_glob("ok gaps *", &peer.reply());
    peer.send("go infinite");
    peer.send("isready");
    assert_eq!(peer.reply(), "readyok");
    peer.close_input();
    assert_glob("bestmove *", &peer.reply());
    exits_0(&mut process, "no exit after EOF");
}

/// (protocol) Piped input: lines sent during a search wait their turn, and
/// the end of input lets a bounded search finish (an unbounded one is
/// stopped), then the queued lines run.
#[test]
fn piped_input_gets_every_answer_and_bounded_work_finishes() {
    let script = "position startpos gaps AH\ngo depth 9\nfen\ngo infinite\nboard\n";
    let (ok, stdout, stderr) = common::run_binary(&[], script.as_bytes());
    assert!(ok, "{stderr}");
    let finals: Vec<&str> = stdout.lines().filter(|l| !l.starts_with("info ")).collect();
    assert_glob("ok position *", finals[0]);
    assert_glob("bestmove *", finals[1]);
    assert_glob("ok fen * b -", finals[2]);
    assert_glob("bestmove *", finals[3]);
    assert_eq!(finals.last(), Some(&"ok board"));
    assert!(
        stdout.contains("info depth 9 "),
        "the bounded search reached its depth: {stdout}"
    );
}

/// (protocol) The engine on stdin reads the variants file a GUI names,
/// checks its pawnrace section, and says why a file will not do; the
/// session goes on either way.
#[test]
fn variant_path_is_read_and_checked() {
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/fairy-stockfish/pawnrace.ini");
    let mut process = StdioProcess::spawn(&[]);
    let peer = &process.peer;
    peer.send(&format!("setoption name VariantPath value {shipped}"));
    assert_eq!(peer.reply(), format!("ok setoption VariantPath {shipped}"));
    peer.send("setoption name VariantPath value /nonexistent/variants.ini");
    assert_glob(
        "error bad-argument VariantPath /nonexistent/variants.ini: *",
        &peer.reply(),
    );
    let cargo_toml = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    peer.send(&format!("setoption name VariantPath value {cargo_toml}"));
    assert_glob(
        "error bad-argument VariantPath *: no [pawnrace] section*",
        &peer.reply(),
    );
    // In UCI mode a good file is taken silently, a bad one explained in
    // an info string; the next command is answered as ever.
    peer.send("uci");
    while peer.line() != "uciok" {}
    peer.send(&format!("setoption name VariantPath value {shipped}"));
    peer.send("setoption name VariantPath value /nonexistent/variants.ini");
    assert_glob("info string error bad-argument VariantPath *", &peer.line());
    peer.send("isready");
    assert_eq!(peer.line(), "readyok");
    peer.send("quit");
    exits_0(&mut process, "no exit after quit");
}
