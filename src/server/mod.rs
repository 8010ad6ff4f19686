//! The tokio server: session actors over stdio, TCP and WebSocket.
//!
//! Modelled on tokio-rs/mini-redis: an accept loop with an injected
//! shutdown future, one actor task per connection, a cancellation token to
//! tell every session, and a task tracker to wait for them.

mod codec;
mod config;
mod connection;
mod http;
mod job_thread;
mod output;
mod scheduler;
mod stats;
pub mod stdio;
mod tcp;
mod vocabulary;
pub mod xboard;

pub use codec::{Frame, LineFramer};
pub use config::{ServerConfig, default_max_searches};
pub use stats::Stats;
pub use tcp::{Server, serve};

/// Completes on Ctrl-C or, on Unix, SIGTERM. The handlers are installed
/// when this is called, not when the future is first polled: a server says
/// it is listening before its accept loop first looks at the future, and a
/// SIGTERM in between would otherwise kill it outright. If a handler
/// cannot be installed that signal is just never seen: serving goes on.
/// Must be called inside the runtime.
#[cfg(unix)]
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    use tokio::signal::unix::{Signal, SignalKind, signal};
    let listen = |kind: SignalKind, name: &str| {
        signal(kind)
            .inspect_err(|e| tracing::warn!("cannot listen for {name}: {e}"))
            .ok()
    };
    let (mut interrupt, mut terminate) = (
        listen(SignalKind::interrupt(), "Ctrl-C"),
        listen(SignalKind::terminate(), "SIGTERM"),
    );
    async move {
        async fn next(signal: &mut Option<Signal>) {
            match signal {
                Some(signal) => {
                    signal.recv().await;
                }
                None => std::future::pending().await,
            }
        }
        tokio::select! {
            _ = next(&mut interrupt) => {}
            _ = next(&mut terminate) => {}
        }
        tracing::info!("shutting down");
    }
}

/// Completes on Ctrl-C; if its handler cannot be installed, never.
#[cfg(not(unix))]
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
        tracing::info!("shutting down");
    }
}
