//! HTTP beside TCP: a page at `/` and the line protocol over a WebSocket at
//! `/ws`, one session actor per socket with the same limits, scheduler and
//! shutdown as a TCP connection. The browser is just another client: each
//! text message is one or more lines of input, each line of output one
//! text message. The page's files (`web/`) are compiled into the binary.

use super::config::{ServerConfig, Transport};
use super::connection::{self, Settings, Shared};
use axum::Router;
use axum::extract::State;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::{SinkExt, StreamExt};
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;
use tracing::{debug, info};

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";
const TEXT: &str = "text/plain; charset=utf-8";

/// Every file the page loads, in the binary: `serve --http` needs nothing
/// else. `/` is `index.html`.
macro_rules! files {
    ($($path:literal => $kind:expr),* $(,)?) => {
        &[$(($path, $kind, include_bytes!(concat!("web/", $path)) as &[u8])),*]
    };
}
const FILES: &[(&str, &str, &[u8])] = files![
    "index.html" => HTML,
    "style.css" => CSS,
    "app.js" => JS,
    "protocol.js" => JS,
    "notation.js" => JS,
    "pgn.js" => JS,
    "board.js" => JS,
    "play.js" => JS,
    "thinking.js" => JS,
    "analysis.js" => JS,
    "console.js" => JS,
    "explorer.js" => JS,
    "replay.js" => JS,
    "graph.js" => JS,
    "favicon.svg" => SVG,
    "vendor/cm-chessboard/LICENSE" => TEXT,
    "vendor/cm-chessboard/src/Chessboard.js" => JS,
    "vendor/cm-chessboard/src/model/ChessboardState.js" => JS,
    "vendor/cm-chessboard/src/model/Extension.js" => JS,
    "vendor/cm-chessboard/src/model/Position.js" => JS,
    "vendor/cm-chessboard/src/view/ChessboardView.js" => JS,
    "vendor/cm-chessboard/src/view/PositionAnimationsQueue.js" => JS,
    "vendor/cm-chessboard/src/view/VisualMoveInput.js" => JS,
    "vendor/cm-chessboard/src/lib/Svg.js" => JS,
    "vendor/cm-chessboard/src/lib/Utils.js" => JS,
    "vendor/cm-chessboard/src/extensions/markers/Markers.js" => JS,
    "vendor/cm-chessboard/assets/chessboard.css" => CSS,
    "vendor/cm-chessboard/assets/extensions/markers/markers.css" => CSS,
    "vendor/cm-chessboard/assets/extensions/markers/markers.svg" => SVG,
    "vendor/cm-chessboard/assets/pieces/standard.svg" => SVG,
];

/// Bytes in flight between a socket and its session, each way.
const PIPE: usize = 64 * 1024;

#[derive(Clone)]
struct Http {
    settings: Settings,
    shared: Shared,
    connections: Arc<Semaphore>,
    max_connections: usize,
    tracker: TaskTracker,
    /// The largest WebSocket message taken: a few lines' worth.
    max_message: usize,
}

/// Serves `listener` until the server's shutdown; sessions it starts are
/// counted in `connections` with TCP's and waited for through `tracker`.
pub(crate) async fn serve(
    listener: TcpListener,
    config: &ServerConfig,
    shared: Shared,
    connections: Arc<Semaphore>,
    tracker: TaskTracker,
) -> std::io::Result<()> {
    let shutdown = shared.shutdown.clone();
    let state = Http {
        settings: config.session_settings(Transport::WebSocket),
        shared,
        connections,
        max_connections: config.max_connections,
        tracker,
        max_message: config.max_line_length.saturating_mul(4).max(1024),
    };
    let app = Router::new()
        .route("/ws", get(upgrade))
        .fallback(get(file))
        .with_state(state);
    axum::serve(listener, app)
        .with_graceful_shutdown(shutdown.cancelled_owned())
        .await
}

/// A file of the page by its path, `/` being `index.html`; 404 otherwise.
async fn file(uri: Uri) -> Response {
    let path = match uri.path().trim_start_matches('/') {
        "" => "index.html",
        // Browsers ask for it whatever the page's <link> says.
        "favicon.ico" => "favicon.svg",
        path => path,
    };
    let found = match path {
        "vocabulary.js" => Some((JS, super::vocabulary::SCRIPT.as_bytes())),
        _ => FILES
            .iter()
            .find(|(name, _, _)| *name == path)
            .map(|(_, kind, body)| (*kind, *body)),
    };
    match found {
        Some((kind, body)) => (
            [
                (header::CONTENT_TYPE, kind),
                // The files change with the binary: always ask again.
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "not found\n").into_response(),
    }
}

async fn upgrade(ws: WebSocketUpgrade, State(http): State<Http>) -> Response {
    let Ok(permit) = Arc::clone(&http.connections).try_acquire_owned() else {
        info!(
            "WebSocket refused: at the limit of {} connections",
            http.max_connections
        );
        http.shared.stats.count_rejected();
        let why = format!("too many connections (limit {})", http.max_connections);
        return (StatusCode::SERVICE_UNAVAILABLE, why).into_response();
    };
    let tracker = http.tracker.clone();
    ws.max_message_size(http.max_message)
        .on_upgrade(move |socket| {
            tracker.track_future(async move {
                debug!("WebSocket session starts");
                run(socket, http.settings, http.shared).await;
                drop(permit);
                debug!("WebSocket session ends");
            })
        })
        .into_response()
}

/// One session over `socket`: messages in become lines through one pipe,
/// lines out become messages through another, so the session actor is the
/// same as over TCP.
async fn run(socket: WebSocket, settings: Settings, shared: Shared) {
    let (mut sink, mut stream) = socket.split();
    let (mut input, session_in) = tokio::io::duplex(PIPE);
    let (session_out, output) = tokio::io::duplex(PIPE);

    let send_lines = tokio::spawn(async move {
        let mut lines = BufReader::new(output).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if sink.send(Message::Text(line.into())).await.is_err() {
                // The peer is gone; dropping the pipe tells the session.
                return;
            }
        }
        let _ = sink.close().await;
    });
    let take_lines = async move {
        while let Some(Ok(message)) = stream.next().await {
            let bytes = match &message {
                Message::Text(text) => text.as_bytes(),
                Message::Binary(bytes) => bytes.as_ref(),
                Message::Close(_) => break,
                Message::Ping(_) | Message::Pong(_) => continue,
            };
            let written = async {
                input.write_all(bytes).await?;
                input.write_all(b"\n").await
            };
            if written.await.is_err() {
                break;
            }
        }
        // Dropping `input` is the session's end of input.
    };

    let session = connection::run(session_in, session_out, settings, shared);
    tokio::pin!(session, take_lines);
    let mut reading = true;
    loop {
        tokio::select! {
            _ = &mut session => break,
            _ = &mut take_lines, if reading => reading = false,
        }
    }
    let _ = send_lines.await;
}

#[cfg(test)]
mod tests {
    use super::FILES;
    use std::path::Path;

    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("read web/") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_none_or(|e| e != "md") {
                let relative = path.strip_prefix(root).expect("under web/");
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }

    /// A file put in `web/` and not in the table would be a 404 in the
    /// browser; one in the table and not in `web/` would not compile.
    #[test]
    fn every_file_of_the_page_is_served() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/server/web");
        let mut on_disk = Vec::new();
        walk(&root, &root, &mut on_disk);
        on_disk.sort();
        let mut served: Vec<String> = FILES.iter().map(|(p, _, _)| p.to_string()).collect();
        served.sort();
        assert_eq!(on_disk, served);
    }
}
