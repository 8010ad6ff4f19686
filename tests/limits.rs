//! The server's limits on one peer, on real servers on loopback ports: the
//! lines a session keeps waiting behind a job, a peer that stops reading,
//! and the largest WebSocket message.

mod common;

use common::{InProcess, Peer, ServerProcess, eventually};
use futures::{SinkExt, StreamExt};
use pawnrace::server::ServerConfig;
use std::io::Write;
use std::net::TcpStream;
use std::thread;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

const PATIENCE: Duration = Duration::from_secs(30);

/// protocol.md, "Replies": "A session keeps at most 1000 waiting lines".
const DOCUMENTED_QUEUE: usize = 1000;

#[test]
fn lines_past_the_queue_cap_are_refused_and_the_rest_still_run() {
    let server = InProcess::start(ServerConfig {
        idle_timeout: None,
        ..ServerConfig::default()
    });
    let peer = Peer::connect(server.addr);
    peer.send("newgame");
    assert!(peer.reply().starts_with("ok newgame "));
    peer.send("gaps AH");
    assert_eq!(peer.reply(), "ok gaps AH");
    peer.send("go infinite");
    // Answered at once while a job runs: the search is out.
    peer.send("isready");
    assert_eq!(peer.reply(), "readyok");
    let over = 3;
    let mut script = String::new();
    for _ in 0..DOCUMENTED_QUEUE + over {
        script.push_str("fen\n");
    }
    peer.send_bytes(script.as_bytes());
    for _ in 0..over {
        let refused = peer.reply();
        assert!(
            refused.starts_with(&format!("error busy {DOCUMENTED_QUEUE} lines already wait")),
            "{refused}"
        );
    }
    // The refusals came while the search ran; the waiting lines run after it.
    peer.send("stop");
    assert!(peer.reply().starts_with("bestmove "));
    assert_eq!(peer.reply(), "ok stop");
    for i in 0..DOCUMENTED_QUEUE {
        let line = peer.reply();
        assert!(line.starts_with("ok fen "), "waiting line {i}: {line}");
    }
    peer.send("isready");
    assert_eq!(peer.reply(), "readyok", "nothing more than the cap ran");
}

#[test]
fn a_peer_that_stops_reading_is_dropped_after_the_write_stall() {
    let stall = Duration::from_secs(1);
    let server = InProcess::start(ServerConfig {
        idle_timeout: None,
        write_stall: stall,
        ..ServerConfig::default()
    });
    // Asks for far more output than the socket buffers hold, and never
    // reads any of it.
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    let writer = thread::spawn(move || {
        let chunk = "help\n".repeat(1000);
        for _ in 0..40 {
            if stream.write_all(chunk.as_bytes()).is_err() {
                break;
            }
        }
        stream
    });
    let started = Instant::now();
    assert!(
        eventually(PATIENCE, || server.stats.active_sessions() == 1),
        "the session started"
    );
    assert!(
        eventually(PATIENCE, || server.stats.active_sessions() == 0),
        "a peer that stopped reading was still served after {:?}",
        started.elapsed()
    );
    assert!(started.elapsed() >= stall, "{:?}", started.elapsed());
    // The server is well: a reading peer is served.
    let other = Peer::connect(server.addr);
    other.send("isready");
    assert_eq!(other.line(), "readyok");
    drop(writer.join());
}

/// Over `socket`: whether `message` is taken (every one of its `isready`
/// lines answered) or ends the session (the socket closes unanswered).
async fn taken<S>(socket: &mut S, message: String, lines: usize) -> bool
where
    S: StreamExt<Item = Result<Message, tokio_tungstenite::tungstenite::Error>>
        + SinkExt<Message>
        + Unpin,
{
    if socket.send(Message::text(message)).await.is_err() {
        return false;
    }
    let mut answered = 0;
    while answered < lines {
        match tokio::time::timeout(PATIENCE, socket.next())
            .await
            .expect("an answer or a close in time")
        {
            Some(Ok(Message::Text(text))) if text.as_str() == "readyok" => answered += 1,
            Some(Ok(Message::Text(text))) => panic!("unexpected {text}"),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {
                assert_eq!(answered, 0, "a message half taken");
                return false;
            }
            Some(Ok(_)) => {}
        }
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_message_is_taken_up_to_four_lines_worth_and_no_further() {
    // The limit is four times the line limit (at least 1 KiB): 1024 bytes.
    let served = ServerProcess::spawn_with_http(&["--max-line-length", "256"]);
    let http = served.http.expect("an HTTP address");
    let url = format!("ws://{http}/ws");
    let limit = 1024;
    // 128 lines of `isready\n` are exactly the limit.
    let lines = limit / "isready\n".len();
    let at_limit = "isready\n".repeat(lines);
    assert_eq!(at_limit.len(), limit);

    let (mut socket, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("WebSocket handshake");
    assert!(taken(&mut socket, at_limit.clone(), lines).await);
    // The same socket goes on; one byte more ends it.
    assert!(taken(&mut socket, at_limit.clone(), lines).await);
    assert!(!taken(&mut socket, format!("{at_limit} "), lines).await);

    // Another socket and the TCP listener still answer beside it.
    let (mut fresh, _) = tokio_tungstenite::connect_async(&url)
        .await
        .expect("WebSocket handshake");
    assert!(taken(&mut fresh, "isready".into(), 1).await);
    let tcp = Peer::connect(served.addr);
    tcp.send("isready");
    assert_eq!(tcp.reply(), "readyok");
}
