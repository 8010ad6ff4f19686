//! Limits and settings of a server.

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
    pub session: SessionOptions,
}

impl ServerConfig {
    /// The idle timeout if one applies.
    pub(crate) fn idle_timeout(&self) -> Option<Duration> {
        self.idle_timeout.filter(|d| !d.is_zero())
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
            session: SessionOptions::default(),
        }
    }
}

/// One search per core: searches are CPU-bound, more would only slow each
/// other down.
pub fn default_max_searches() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
