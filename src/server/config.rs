//! Limits and settings of a server.

use super::connection::Settings;
use crate::protocol::SessionOptions;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Sessions served at once; a connection over the cap is told
    /// `error busy ...` and closed.
    pub max_connections: usize,
    /// Longest accepted input line in bytes, without its line ending.
    pub max_line_length: usize,
    /// A session with no input for this long, and nothing running but a
    /// search only `stop` would end, is closed (the search stopped first).
    /// `None` (or zero) never closes an idle session.
    pub idle_timeout: Option<Duration>,
    /// Search threads computing at once across all sessions, shared out
    /// earliest deadline first (see `scheduler`).
    pub max_searches: usize,
    /// How long a shutdown waits for sessions to wind down before giving up.
    pub shutdown_grace: Duration,
    /// A write to a peer that makes no progress for this long means the
    /// peer is not reading: its session ends rather than keep its search
    /// (and our memory) forever.
    pub write_stall: Duration,
    /// Log the server's counters (sessions, connections, jobs) this often,
    /// at info level; `None` never.
    pub stats_interval: Option<Duration>,
    pub session: SessionOptions,
}

/// How long a closing TCP session keeps reading (and dropping) input: a
/// socket closed with unread input resets, which can destroy our last
/// lines before the peer reads them.
const LINGER: Duration = Duration::from_millis(500);

/// What a session runs over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Transport {
    /// stdin/stdout: no idle timeout, since the peer is whoever started
    /// us and may think for a long time between games; nothing to linger
    /// for.
    Stdio,
    Tcp,
    /// A WebSocket (`serve --http`): idle sessions time out as over TCP;
    /// the socket's close handshake needs no lingering.
    WebSocket,
}

impl ServerConfig {
    /// The idle timeout if one applies.
    pub(crate) fn idle_timeout(&self) -> Option<Duration> {
        self.idle_timeout.filter(|d| !d.is_zero())
    }

    /// Every session's settings over `transport`, built once per server.
    pub(crate) fn session_settings(&self, transport: Transport) -> Settings {
        let remote = transport != Transport::Stdio;
        Settings {
            max_line_length: self.max_line_length,
            idle_timeout: self.idle_timeout().filter(|_| remote),
            linger: Some(LINGER).filter(|_| transport == Transport::Tcp),
            write_stall: self.write_stall,
            options: SessionOptions {
                // Only the engine on stdin/stdout, which whoever started
                // it controls, reads a file it is told of (VariantPath): a
                // network peer may not read the server's files.
                local_files: !remote,
                ..self.session.clone()
            },
        }
    }
}

impl Default for ServerConfig {
    fn default() -> ServerConfig {
        ServerConfig {
            max_connections: 64,
            max_line_length: 4096,
            idle_timeout: Some(Duration::from_secs(10 * 60)),
            max_searches: default_max_searches(),
            shutdown_grace: Duration::from_secs(10),
            stats_interval: None,
            write_stall: Duration::from_secs(30),
            session: SessionOptions::default(),
        }
    }
}

/// One search per core: searches are CPU-bound, more would only slow each
/// other down.
pub fn default_max_searches() -> usize {
    crate::solver::cores()
}
