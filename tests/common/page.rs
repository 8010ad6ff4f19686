//! What the browser tests read from the page (the board's pieces, the
//! move list, the page's protocol traffic) and how they replay that traffic
//! over TCP. Only the browser tests (`tests/browser.rs`, `tests/board*.rs`)
//! include this module.

// Each browser test crate uses its own subset of these helpers.
#![allow(dead_code)]

use crate::browser::{Browser, Screen};
use crate::common::{Peer, Recv, ServerProcess};
use fantoccini::Locator;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::time::Duration;

/// The real server with its page, and a browser on `screen` that opened
/// it and saw its first game start (white, gaps AH, a person to move).
/// `None` where there is no browser outside CI.
pub async fn open_page(test: &str, screen: Screen) -> Option<(ServerProcess, Browser)> {
    let browser = Browser::start_on(test, screen).await?;
    let server = ServerProcess::spawn_with_http(&[]);
    let http = server.http.expect("an HTTP address");
    browser
        .client
        .goto(&format!("http://{http}/"))
        .await
        .expect("open the page");
    browser
        .wait_until("document.body.dataset.state === 'your-move'")
        .await;
    Some((server, browser))
}

/// Sends `line` and reads its reply: the lines before the final one (but
/// `info` lines), and the final line.
pub fn ask(peer: &Peer, line: &str) -> (Vec<String>, String) {
    peer.send(line);
    let mut lines = Vec::new();
    loop {
        let got = peer.line();
        if pawnrace::protocol::is_final_line(&got) {
            return (lines, got);
        }
        if !got.starts_with("info ") {
            lines.push(got);
        }
    }
}

/// Square -> piece (`wp`, `bp`), as the board widget draws it.
pub async fn pieces_on_board(b: &Browser) -> BTreeMap<String, String> {
    let drawn = b
        .js(
            "return [...document.querySelectorAll('#board g[data-piece][data-square]')]
               .filter(g => g.getAttribute('visibility') !== 'hidden')
               .map(g => [g.dataset.square, g.dataset.piece]);",
            vec![],
        )
        .await;
    serde_json::from_value::<Vec<(String, String)>>(drawn)
        .expect("pieces")
        .into_iter()
        .collect()
}

/// Square -> piece, from the placement of position text.
pub fn pieces_in_fen(fen: &str) -> BTreeMap<String, String> {
    let mut pieces = BTreeMap::new();
    let placement = fen.split(' ').next().unwrap_or_default();
    for (row, rank) in placement.split('/').enumerate() {
        let mut file = 0u8;
        for c in rank.chars() {
            if let Some(n) = c.to_digit(10) {
                file += n as u8;
                continue;
            }
            let square = format!("{}{}", (b'a' + file) as char, 8 - row);
            let piece = if c == 'P' { "wp" } else { "bp" };
            pieces.insert(square, piece.to_string());
            file += 1;
        }
    }
    pieces
}

/// Waits until the board shows `fen`'s pieces (moves are animated).
pub async fn board_shows(b: &Browser, fen: &str) {
    let want = pieces_in_fen(fen);
    for _ in 0..100 {
        if pieces_on_board(b).await == want {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(pieces_on_board(b).await, want, "the board is not {fen}");
}

/// The SAN of each ply in a move list (`#moves`, `#analysis-moves`).
pub async fn move_list(b: &Browser, list: &str) -> Vec<String> {
    let plies = b
        .js(
            "return [...document.querySelectorAll(arguments[0] + ' .ply')].map(e => e.textContent);",
            vec![json!(list)],
        )
        .await;
    serde_json::from_value(plies).expect("plies")
}

/// One session's lines both ways, as the page saw them: (">" or "<", line).
pub async fn traffic(b: &Browser, client: &str) -> Vec<(String, String)> {
    let lines = b
        .js(
            &format!("return pawnrace.{client}.traffic.map(t => [t.dir, t.line]);"),
            vec![],
        )
        .await;
    serde_json::from_value(lines).expect("traffic")
}

/// The value of the last line received that starts with `key `.
pub fn last_received(traffic: &[(String, String)], key: &str) -> Option<String> {
    traffic.iter().rev().find_map(|(dir, line)| {
        line.strip_prefix(key)
            .and_then(|rest| rest.strip_prefix(' '))
            .filter(|_| dir == "<")
            .map(str::to_string)
    })
}

/// `1. e4 d5 2. exd5` -> the SAN of each ply.
pub fn history_sans(history: &str) -> Vec<String> {
    history
        .split(' ')
        .filter(|w| *w != "-" && !w.ends_with('.'))
        .map(str::to_string)
        .collect()
}

/// The legal moves the page offers now, in coordinates.
pub async fn legal_moves(b: &Browser) -> Vec<String> {
    let legal = b
        .js("return pawnrace.play.legal.map(m => m.uci);", vec![])
        .await;
    serde_json::from_value(legal).expect("legal moves")
}

/// A simple player: win at once if it can, capture if it can, otherwise
/// push its most advanced pawn. Deterministic given the legal moves.
pub fn choose(legal: &[String], white: bool) -> String {
    let rank = |m: &String| i32::from(m.as_bytes()[3]) - i32::from(b'0');
    let progress = |m: &String| if white { rank(m) } else { 9 - rank(m) };
    let capture = |m: &String| m.as_bytes()[0] != m.as_bytes()[2];
    legal
        .iter()
        .max_by_key(|m| (progress(m) == 8, capture(m), progress(m)))
        .cloned()
        .expect("a legal move")
}

fn square(css_square: &str) -> String {
    format!("#board rect[data-square='{css_square}']")
}

/// A move by two clicks, on the square of the pawn and on its target.
pub async fn click_move(b: &Browser, uci: &str) {
    b.click(&square(&uci[0..2])).await;
    b.click(&square(&uci[2..4])).await;
}

/// A move by dragging the pawn to its target.
pub async fn drag_move(b: &Browser, uci: &str) {
    let from = b
        .client
        .find(Locator::Css(&square(&uci[0..2])))
        .await
        .expect("from");
    let to = b
        .client
        .find(Locator::Css(&square(&uci[2..4])))
        .await
        .expect("to");
    let drag = MouseActions::new("mouse".into())
        .then(PointerAction::MoveToElement {
            element: from,
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveToElement {
            element: to,
            duration: Some(Duration::from_millis(200)),
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    b.client.perform_actions(drag).await.expect("drag");
    b.client.release_actions().await.expect("release");
}

/// Sends a session's recorded lines over TCP to `addr` at the same points
/// and checks every reply line but `info` lines (timings, node counts)
/// against the recording. Returns the transcript (tests/transcripts/'s
/// format) of what was checked.
pub fn replay_over_tcp(addr: SocketAddr, traffic: &[(String, String)]) -> String {
    let peer = Peer::connect(addr);
    let mut transcript = String::new();
    for (dir, line) in traffic {
        if dir == ">" {
            peer.send(line);
            transcript.push_str(&format!("> {line}\n"));
            continue;
        }
        if line.starts_with("info ") {
            continue;
        }
        let got = loop {
            match peer.recv() {
                Recv::Line(got) if got.starts_with("info ") => continue,
                Recv::Line(got) => break got,
                other => panic!("over TCP, expected {line:?}, got {other:?}"),
            }
        };
        assert_eq!(&got, line, "over TCP the reply differs from the page's");
        transcript.push_str(&format!("< {line}\n"));
    }
    transcript
}

/// Whether `value` (from a script) is the JSON string `text`.
pub fn is(value: &Value, text: &str) -> bool {
    value.as_str() == Some(text)
}

/// Whether the field to type a move in is disabled (no move to play now).
pub async fn move_field_disabled(b: &Browser) -> bool {
    b.js(
        "return document.getElementById('move-input').disabled;",
        vec![],
    )
    .await
        == Value::Bool(true)
}
