//! One session over stdin and stdout.

use super::config::ServerConfig;
use super::session::{self, Settings, Shared};
use super::stats::Stats;
use std::future::Future;
use std::sync::Arc;

/// Speaks the protocol on stdin/stdout until `quit`, end of input or
/// `shutdown`. No idle timeout here: the peer is whoever started us, and
/// it may well think for a long time between games.
pub async fn run(config: ServerConfig, shutdown: impl Future) {
    let shared = Shared::new(config.max_searches, Arc::new(Stats::default()));
    let settings = Settings {
        max_line_length: config.max_line_length,
        idle_timeout: None,
        linger: None,
        options: config.session.clone(),
    };
    let token = shared.shutdown.clone();
    let session = session::run(tokio::io::stdin(), tokio::io::stdout(), settings, shared);
    tokio::pin!(session, shutdown);
    tokio::select! {
        _ = &mut session => return,
        _ = &mut shutdown => token.cancel(),
    }
    session.await;
}
