//! The server against real TCP connections and the real binary.
//!
//! Tests marked "(protocol)" need the real protocol session (`newgame`,
//! `go`, ...); the rest only need the server layer.

mod common;

use common::{InProcess, Peer, ServerProcess, assert_glob, eventually};
use pawnrace::server::ServerConfig;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const SETTLE: Duration = Duration::from_secs(10);

fn config() -> ServerConfig {
    ServerConfig {
        idle_timeout: None,
        ..ServerConfig::default()
    }
}

/// Plays the engine against itself until the game is over; returns the
/// number of moves played.
fn play_game(peer: &Peer) -> usize {
    peer.send("newgame");
    assert_glob("ok newgame pawnrace*", &peer.reply());
    peer.send("gaps AH");
    assert_eq!(peer.reply(), "ok gaps AH");
    for moves in 0..500 {
        peer.send("go depth 2");
        let reply = peer.reply();
        assert_glob("bestmove *", &reply);
        if reply == "bestmove (none)" {
            return moves;
        }
    }
    panic!("the game did not end in 500 moves");
}

/// (protocol) Many sessions at once, each a whole game, all concurrently.
#[test]
fn concurrent_games() {
    const SESSIONS: usize = 32;
    let server = InProcess::start(config());
    let games: Vec<_> = (0..SESSIONS)
        .map(|_| {
            let addr = server.addr;
            thread::spawn(move || {
                let peer = Peer::connect(addr);
                let moves = play_game(&peer);
                peer.send("quit");
                assert_eq!(peer.reply(), "ok bye");
                peer.expect_eof();
                moves
            })
        })
        .collect();
    for game in games {
        let moves = game.join().expect("a game panicked");
        assert!(moves > 0);
    }
    assert!(eventually(SETTLE, || server.stats.active_sessions() == 0));
    assert_eq!(server.stats.running_jobs(), 0);
    assert_eq!(server.stats.accepted(), SESSIONS as u64);
}

#[test]
fn connection_cap_says_busy_then_closes() {
    let server = InProcess::start(ServerConfig {
        max_connections: 2,
        ..config()
    });
    let first = Peer::connect(server.addr);
    let second = Peer::connect(server.addr);
    for peer in [&first, &second] {
        peer.send("isready");
        assert_eq!(peer.line(), "readyok");
    }
    let third = Peer::connect(server.addr);
    assert_eq!(third.line(), "error busy too many connections (limit 2)");
    third.expect_eof();
    assert_eq!(server.stats.rejected(), 1);

    // A freed slot is usable again.
    first.send("quit");
    assert_eq!(first.line(), "ok bye");
    first.expect_eof();
    assert!(eventually(SETTLE, || server.stats.active_sessions() == 1));
    let fourth = Peer::connect(server.addr);
    fourth.send("isready");
    assert_eq!(fourth.line(), "readyok");
}

#[test]
fn bad_input_does_not_end_the_session() {
    let server = InProcess::start(ServerConfig {
        max_line_length: 64,
        ..config()
    });
    let peer = Peer::connect(server.addr);
    peer.send(&"x".repeat(65));
    assert_glob("error line-too-long *", &peer.line());
    // A huge line, in pieces, is one error.
    for _ in 0..100 {
        peer.send_bytes(&[b'y'; 1000]);
    }
    peer.send_bytes(b"\n");
    assert_glob("error line-too-long *", &peer.line());
    peer.send_bytes(b"\xff\xfe\n");
    assert_glob("error bad-encoding *", &peer.line());
    peer.send_bytes(b"\x00\x01 garbage \x7f\n");
    assert_glob("error *", &peer.line());
    // The limit itself is fine: the line reaches the protocol.
    peer.send(&"z".repeat(64));
    assert_glob("error unknown-command *", &peer.line());
    peer.send_bytes(b"isready\r\n");
    assert_eq!(peer.line(), "readyok");
}

/// A network peer cannot make the server read a file of its machine: the
/// option is refused, the session goes on.
#[test]
fn variant_path_is_refused_over_the_network() {
    let server = InProcess::start(config());
    let peer = Peer::connect(server.addr);
    let shipped = concat!(env!("CARGO_MANIFEST_DIR"), "/fairy-stockfish/pawnrace.ini");
    peer.send(&format!("setoption name VariantPath value {shipped}"));
    assert_glob(
        "error bad-argument VariantPath *: a network session cannot have the server read files*",
        &peer.line(),
    );
    peer.send("isready");
    assert_eq!(peer.line(), "readyok");
}

#[test]
fn idle_timeout_closes_the_session() {
    let server = InProcess::start(ServerConfig {
        idle_timeout: Some(Duration::from_millis(400)),
        ..config()
    });
    let peer = Peer::connect(server.addr);
    // Activity keeps it open.
    for _ in 0..4 {
        thread::sleep(Duration::from_millis(200));
        peer.send("isready");
        assert_eq!(peer.line(), "readyok");
    }
    assert_glob("error idle-timeout *", &peer.line());
    peer.expect_eof();
    assert!(eventually(SETTLE, || server.stats.active_sessions() == 0));
}

/// (protocol)
#[test]
fn disconnect_mid_search_leaves_nothing_running() {
    let server = InProcess::start(config());
    let peer = Peer::connect(server.addr);
    peer.send("newgame");
    assert_glob("ok newgame pawnrace*", &peer.reply());
    peer.send("gaps AH");
    assert_eq!(peer.reply(), "ok gaps AH");
    peer.send("go infinite");
    assert!(
        eventually(SETTLE, || server.stats.running_jobs() == 1),
        "the search never started"
    );
    drop(peer);
    assert!(
        eventually(SETTLE, || server.stats.running_jobs() == 0),
        "the search outlived its peer"
    );
    assert!(eventually(SETTLE, || server.stats.active_sessions() == 0));

    // And the search slot is free for others.
    let peer = Peer::connect(server.addr);
    peer.send("newgame mini4");
    assert_glob("ok newgame mini4*", &peer.reply());
    peer.send("go depth 2");
    assert_glob("bestmove *", &peer.reply());
}

/// (protocol) With one core to share, a second untimed search waits its
/// turn (they then take turns), and a `stop` sent while it waits ends it
/// at once.
#[test]
fn queued_search_waits_and_can_be_stopped() {
    let server = InProcess::start(ServerConfig {
        max_searches: 1,
        ..config()
    });
    let a = Peer::connect(server.addr);
    let b = Peer::connect(server.addr);
    for peer in [&a, &b] {
        // Off every table: the solver works on it for as long as it may.
        peer.send("position startpos gaps DE moves a2a3 h7h6 g2g3");
        assert_glob("ok position *", &peer.reply());
    }
    a.send("go infinite");
    assert!(eventually(SETTLE, || server.stats.running_jobs() == 1));
    b.send("go infinite");
    assert!(eventually(SETTLE, || server.stats.running_jobs() == 2
        && server.stats.queued_jobs() == 1));
    // A waiting search that is stopped does not wait for a's to end.
    b.send("stop");
    assert_glob("bestmove *", &b.reply());
    assert_eq!(b.reply(), "ok stop");
    assert!(eventually(SETTLE, || server.stats.running_jobs() == 1
        && server.stats.queued_jobs() == 0));
    a.send("stop");
    assert_glob("bestmove *", &a.reply());
    assert_eq!(a.reply(), "ok stop");
    assert!(eventually(SETTLE, || server.stats.running_jobs() == 0
        && server.stats.queued_jobs() == 0));
}

#[test]
fn in_process_shutdown_tells_sessions_and_returns() {
    let mut server = InProcess::start(config());
    let peers: Vec<Peer> = (0..3).map(|_| Peer::connect(server.addr)).collect();
    for peer in &peers {
        peer.send("isready");
        assert_eq!(peer.line(), "readyok");
    }
    server.shutdown().expect("serve failed");
    for peer in &peers {
        assert_eq!(peer.line(), "info string server shutting down");
        peer.expect_eof();
    }
    assert_eq!(server.stats.active_sessions(), 0);
}

#[test]
fn sigterm_tells_sessions_and_exits_0() {
    let mut server = ServerProcess::spawn(&[]);
    let peer = Peer::connect(server.addr);
    peer.send("isready");
    assert_eq!(peer.line(), "readyok");
    let status = server.terminate().expect("server did not exit");
    assert!(status.success(), "exit status {status}");
    assert_eq!(peer.line(), "info string server shutting down");
    peer.expect_eof();
}

/// (protocol) A search running at shutdown is stopped and still answered.
#[test]
fn sigterm_mid_search_finishes_the_search() {
    let mut server = ServerProcess::spawn(&[]);
    let peer = Peer::connect(server.addr);
    peer.send("newgame");
    assert_glob("ok newgame pawnrace*", &peer.reply());
    peer.send("gaps AH");
    assert_eq!(peer.reply(), "ok gaps AH");
    peer.send("go infinite");
    peer.send("isready");
    assert_eq!(peer.reply(), "readyok");
    let status = server.terminate().expect("server did not exit");
    assert!(status.success(), "exit status {status}");
    // Search progress may come first.
    while peer.line() != "info string server shutting down" {}
    assert_glob("bestmove *", &peer.reply());
    let rest = peer.rest(Duration::from_secs(10)).expect("no EOF");
    assert!(
        rest.iter()
            .all(|l| l.starts_with("info ") || l == "ok stop"),
        "{rest:?}"
    );
}

#[test]
fn serve_prints_its_address_and_a_taken_port_fails() {
    let server = ServerProcess::spawn(&[]);
    assert!(server.addr.ip().is_loopback());
    assert_ne!(server.addr.port(), 0);
    let output = Command::new(common::BIN)
        .args(["serve", "--listen", &server.addr.to_string()])
        .stdin(Stdio::null())
        .output()
        .expect("run pawnrace");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("cannot listen"), "{stderr}");
}

/// (protocol) A timed search answers even while untimed searches want
/// every core: due sooner, it takes the core from one of them.
#[test]
fn a_timed_go_is_answered_while_infinite_searches_hold_every_slot() {
    let server = InProcess::start(ServerConfig {
        max_searches: 1,
        ..config()
    });
    let hogs: Vec<Peer> = (0..2)
        .map(|_| {
            let hog = Peer::connect(server.addr);
            hog.send("position startpos gaps AH moves b2b3 g7g6 c2c3");
            assert_glob("ok position *", &hog.reply());
            hog.send("go infinite");
            hog
        })
        .collect();
    let timed = Peer::connect(server.addr);
    timed.send("position startpos gaps AH moves b2b3 g7g6 c2c3");
    assert_glob("ok position *", &timed.reply());
    timed.send("go movetime 300");
    // Generous: before, no answer came at all.
    match timed.recv_within(Duration::from_secs(20)) {
        common::Recv::Line(_) => {}
        other => panic!("no answer to a timed go while the slot was held: {other:?}"),
    }
    assert_glob("bestmove *", &timed.reply());
    assert!(server.stats.pauses() >= 1);
    for hog in &hogs {
        hog.send("stop");
        assert_glob("bestmove *", &hog.reply());
        assert_eq!(hog.reply(), "ok stop");
    }
}

/// (protocol) The idle timeout ends a silent `go infinite` (it would hold a
/// search slot for ever), with the search's move first.
#[test]
fn idle_timeout_ends_a_silent_infinite_search() {
    let server = InProcess::start(ServerConfig {
        idle_timeout: Some(Duration::from_millis(500)),
        ..config()
    });
    let peer = Peer::connect(server.addr);
    peer.send("position startpos gaps AH");
    assert_glob("ok position *", &peer.reply());
    peer.send("go infinite");
    let rest = peer
        .rest(Duration::from_secs(20))
        .expect("the session ends");
    let finals: Vec<&String> = rest.iter().filter(|l| !l.starts_with("info ")).collect();
    assert_eq!(finals.len(), 2, "{finals:?}");
    assert_glob("error idle-timeout *", finals[0]);
    assert_glob("bestmove *", finals[1]);
}

/// Out of file descriptors, the server keeps serving its sessions, tells
/// newcomers `error busy ...` instead of leaving them waiting in silence,
/// and logs the episode once, not every failed accept.
#[test]
fn out_of_descriptors_newcomers_are_told_and_sessions_go_on() {
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let server = ServerProcess::spawn_with_fd_limit(48, std::sync::Arc::clone(&log));
    let peers: Vec<Peer> = (0..60).map(|_| Peer::connect(server.addr)).collect();
    let (mut served, mut told) = (0, 0);
    for peer in &peers {
        peer.send("isready");
        match peer.line().as_str() {
            "readyok" => served += 1,
            line => {
                assert_glob("error busy out of file descriptors*", line);
                told += 1;
            }
        }
    }
    assert!(served > 20 && told > 0, "served {served}, told {told}");
    // The sessions already open still answer.
    for peer in peers.iter().take(5) {
        peer.send("isready");
        assert_eq!(peer.line(), "readyok");
    }
    let log = log.lock().unwrap_or_else(|e| e.into_inner()).clone();
    let warned = log
        .iter()
        .filter(|l| l.contains("out of file descriptors"))
        .count();
    assert_eq!(warned, 1, "{log:?}");
}
