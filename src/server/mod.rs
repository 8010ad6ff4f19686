//! The tokio server: session actors over stdio, TCP and WebSocket.
//!
//! Modelled on tokio-rs/mini-redis: an accept loop with an injected
//! shutdown future, one actor task per connection, a cancellation token to
//! tell every session, and a task tracker to wait for them.

mod codec;
mod config;
mod http;
mod scheduler;
mod session;
mod stats;
pub mod stdio;
mod tcp;

pub use codec::{Frame, LineFramer};
pub use config::{ServerConfig, default_max_searches};
pub use stats::Stats;
pub use tcp::{Server, serve};

/// Completes on Ctrl-C or, on Unix, SIGTERM. If a handler cannot be
/// installed that signal is just never seen: serving goes on.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut sigterm) => {
                sigterm.recv().await;
            }
            Err(e) => {
                tracing::warn!("cannot listen for SIGTERM: {e}");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = terminate => {}
    }
    tracing::info!("shutting down");
}
