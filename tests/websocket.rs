//! `pawnrace serve --http`: the page, and the protocol over a WebSocket
//! against the real binary, beside its TCP listener.

mod common;

use common::{ServerProcess, wait_exit};
use futures::{SinkExt, StreamExt};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Command;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

const PATIENCE: Duration = Duration::from_secs(30);

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(http: SocketAddr) -> Socket {
    let (socket, _) = tokio_tungstenite::connect_async(format!("ws://{http}/ws"))
        .await
        .expect("WebSocket handshake");
    socket
}

/// The next text message, skipping `info` lines.
async fn reply(socket: &mut Socket) -> String {
    loop {
        let message = tokio::time::timeout(PATIENCE, socket.next())
            .await
            .expect("a reply in time")
            .expect("socket open")
            .expect("a message");
        if let Message::Text(text) = message
            && !text.starts_with("info ")
        {
            return text.to_string();
        }
    }
}

async fn send(socket: &mut Socket, text: &str) {
    socket
        .send(Message::text(text))
        .await
        .expect("send a message");
}

fn http_get(addr: SocketAddr, path: &str) -> String {
    let mut stream = TcpStream::connect(addr).expect("connect");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("request");
    let mut response = String::new();
    stream.read_to_string(&mut response).expect("response");
    response
}

#[test]
fn the_page_and_its_files_are_served_from_the_binary() {
    let served = ServerProcess::spawn_with_http(&[]);
    let http = served.http.expect("an HTTP address");
    let page = http_get(http, "/");
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("content-type: text/html"), "{page}");
    assert!(page.contains("<title>pawnrace</title>"), "{page}");
    // Every file the page names is there, with its type.
    for (path, kind) in [
        ("/app.js", "text/javascript"),
        ("/style.css", "text/css"),
        ("/vendor/cm-chessboard/src/Chessboard.js", "text/javascript"),
        (
            "/vendor/cm-chessboard/assets/pieces/standard.svg",
            "image/svg+xml",
        ),
        ("/vendor/cm-chessboard/LICENSE", "text/plain"),
    ] {
        let response = http_get(http, path);
        assert!(response.starts_with("HTTP/1.1 200"), "{path}: {response}");
        assert!(
            response.contains(&format!("content-type: {kind}")),
            "{path}: {response}"
        );
    }
    assert!(
        http_get(http, "/app.js").contains("/ws"),
        "the page talks to /ws"
    );
    assert!(http_get(http, "/nowhere").starts_with("HTTP/1.1 404"));
    assert!(http_get(http, "/vendor/../Cargo.toml").starts_with("HTTP/1.1 404"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_speaks_the_protocol_as_tcp_does() {
    let served = ServerProcess::spawn_with_http(&[]);
    let http = served.http.expect("an HTTP address");
    let mut a = connect(http).await;
    let mut b = connect(http).await;
    send(&mut a, "newgame").await;
    assert_eq!(reply(&mut a).await, "ok newgame pawnrace awaiting gaps");
    send(&mut a, "gaps AH").await;
    assert_eq!(reply(&mut a).await, "ok gaps AH");
    // Each session is its own: b has no game yet.
    send(&mut b, "fen").await;
    assert!(reply(&mut b).await.starts_with("error wrong-state "));
    send(&mut a, "go depth 3").await;
    assert!(reply(&mut a).await.starts_with("bestmove "));
    // One message may carry several lines.
    send(&mut a, "isready\nisready").await;
    assert_eq!(reply(&mut a).await, "readyok");
    assert_eq!(reply(&mut a).await, "readyok");
    send(&mut a, "frobnicate").await;
    assert!(reply(&mut a).await.starts_with("error unknown-command "));
    send(&mut a, "quit").await;
    assert_eq!(reply(&mut a).await, "ok bye");
    // The largest message a socket takes is tests/limits.rs's.
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_count_against_the_connection_cap_and_hear_the_shutdown() {
    let mut served = ServerProcess::spawn_with_http(&["--max-connections", "1"]);
    let http = served.http.expect("an HTTP address");
    let mut a = connect(http).await;
    send(&mut a, "isready").await;
    assert_eq!(reply(&mut a).await, "readyok");
    let refused = tokio_tungstenite::connect_async(format!("ws://{http}/ws")).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => {
            assert_eq!(response.status(), 503)
        }
        other => panic!("a second socket past the cap: {other:?}"),
    }
    let kill = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    // The notice, then the socket closes.
    let notice = tokio::time::timeout(PATIENCE, a.next())
        .await
        .expect("in time");
    match notice {
        Some(Ok(Message::Text(text))) => {
            assert_eq!(text.as_str(), "info string server shutting down")
        }
        other => panic!("no shutdown notice: {other:?}"),
    }
    match tokio::time::timeout(PATIENCE, a.next())
        .await
        .expect("closed in time")
    {
        Some(Ok(Message::Close(_))) | None | Some(Err(_)) => {}
        Some(Ok(other)) => panic!("after the notice: {other:?}"),
    }
    let status = wait_exit(&mut served.child, PATIENCE).expect("exit after SIGTERM");
    assert!(status.success(), "{status}");
}

/// The queue's cap is the same over a WebSocket as over stdio and TCP
/// (tests/lockstep.rs): behind a `go infinite`, 1000 lines wait their
/// turn and the rest are answered `error busy` at once; after `stop`, the
/// search's `bestmove`, `ok stop`, then each waiting line's one final line.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_behind_a_search_is_capped_as_over_tcp() {
    let served = ServerProcess::spawn_with_http(&[]);
    let http = served.http.expect("an HTTP address");
    let mut s = connect(http).await;
    send(&mut s, "newgame\ngaps AH\ngo infinite").await;
    assert_eq!(reply(&mut s).await, "ok newgame pawnrace awaiting gaps");
    assert_eq!(reply(&mut s).await, "ok gaps AH");
    let lines = [
        "fen",
        "moves",
        "board",
        "position startpos gaps AH",
        "bogus",
    ];
    // 1500 lines, ten to a message (a message may be up to four lines' limit).
    for batch in 0..150 {
        let text: Vec<&str> = (0..10)
            .map(|i| lines[(batch * 10 + i) % lines.len()])
            .collect();
        send(&mut s, &text.join("\n")).await;
    }
    let final_line = |l: &str| pawnrace::protocol::is_final_line(l);
    let mut busy = 0;
    while busy < 500 {
        let line = reply(&mut s).await;
        if final_line(&line) {
            assert!(line.starts_with("error busy "), "{line}");
            busy += 1;
        }
    }
    send(&mut s, "stop").await;
    let mut finals = Vec::new();
    while finals.len() < 1002 {
        let line = reply(&mut s).await;
        if final_line(&line) {
            finals.push(line);
        }
    }
    assert!(finals[0].starts_with("bestmove "), "{}", finals[0]);
    assert_eq!(finals[1], "ok stop");
    assert!(finals[2..].iter().all(|l| !l.starts_with("error busy")));
    send(&mut s, "isready").await;
    assert_eq!(reply(&mut s).await, "readyok");
}
