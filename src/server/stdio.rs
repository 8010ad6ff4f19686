//! One session over stdin and stdout.

use super::config::{ServerConfig, Transport};
use super::connection::{self, Shared};
use super::stats::Stats;
use std::future::Future;
use std::sync::Arc;

/// Speaks the protocol on stdin/stdout until `quit`, end of input or
/// `shutdown` (no idle timeout: see `Transport::Stdio`).
pub async fn run(config: ServerConfig, shutdown: impl Future) {
    let shared = Shared::new(config.max_searches, Arc::new(Stats::default()));
    let settings = config.session_settings(Transport::Stdio);
    let token = shared.shutdown.clone();
    let session = connection::run(tokio::io::stdin(), tokio::io::stdout(), settings, shared);
    tokio::pin!(session, shutdown);
    tokio::select! {
        _ = &mut session => return,
        _ = &mut shutdown => token.cancel(),
    }
    session.await;
}
