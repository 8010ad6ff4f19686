//! The TCP server: accept, cap, spawn a session per connection, shut down.

use super::config::ServerConfig;
use super::session::{self, Settings, Shared};
use super::stats::Stats;
use std::future::Future;
use std::io;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::task::TaskTracker;
use tracing::{debug, info, warn};

/// See `Settings::linger`.
const LINGER: Duration = Duration::from_millis(500);

/// A rejected peer gets this long to take our one line.
const REJECT_TIMEOUT: Duration = Duration::from_secs(2);

/// Serves `listener` until `shutdown` completes, then tells every session,
/// waits for them (at most `config.shutdown_grace`) and returns.
pub async fn serve(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future,
) -> io::Result<()> {
    Server::new(config).run(listener, shutdown).await
}

/// A server whose counters can be watched while it runs.
pub struct Server {
    config: ServerConfig,
    stats: Arc<Stats>,
}

impl Server {
    pub fn new(config: ServerConfig) -> Server {
        Server {
            config,
            stats: Arc::default(),
        }
    }

    pub fn stats(&self) -> Arc<Stats> {
        Arc::clone(&self.stats)
    }

    pub async fn run(self, listener: TcpListener, shutdown: impl Future) -> io::Result<()> {
        let config = self.config;
        let shared = Shared::new(config.max_searches, self.stats);
        let settings = Settings {
            max_line_length: config.max_line_length,
            idle_timeout: config.idle_timeout(),
            linger: Some(LINGER),
            options: config.session.clone(),
        };
        let connections = Arc::new(Semaphore::new(config.max_connections));
        let tracker = TaskTracker::new();
        tokio::pin!(shutdown);

        loop {
            let accepted = tokio::select! {
                _ = &mut shutdown => break,
                accepted = listener.accept() => accepted,
            };
            let (stream, peer) = match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Mostly out of file descriptors or a connection reset
                    // before we took it: both pass, so wait and go on.
                    warn!("accept failed: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let _ = stream.set_nodelay(true);
            match Arc::clone(&connections).try_acquire_owned() {
                Ok(permit) => {
                    debug!(%peer, "session starts");
                    let (settings, shared) = (settings.clone(), shared.clone());
                    tracker.spawn(async move {
                        let (reader, writer) = stream.into_split();
                        session::run(reader, writer, settings, shared).await;
                        drop(permit);
                        debug!(%peer, "session ends");
                    });
                }
                Err(_) => {
                    info!(%peer, "connection refused: at the limit of {}", config.max_connections);
                    shared.stats.count_rejected();
                    tracker.spawn(reject(stream, config.max_connections));
                }
            }
        }

        drop(listener);
        shared.shutdown.cancel();
        tracker.close();
        if tokio::time::timeout(config.shutdown_grace, tracker.wait())
            .await
            .is_err()
        {
            warn!(
                "{} sessions still open after {} s of shutdown; leaving them",
                tracker.len(),
                config.shutdown_grace.as_secs_f64()
            );
        }
        Ok(())
    }
}

/// Tells a peer over the cap why, instead of leaving it hanging.
async fn reject(mut stream: TcpStream, limit: usize) {
    let line = crate::protocol::reply::error(
        crate::protocol::ErrorCode::Busy,
        format!("too many connections (limit {limit})"),
    );
    let _ = tokio::time::timeout(REJECT_TIMEOUT, async {
        stream.write_all(format!("{line}\n").as_bytes()).await?;
        stream.shutdown().await?;
        // Drain what the peer already sent, so closing does not reset the
        // connection and take our line with it.
        let mut sink = [0u8; 1024];
        while stream.read(&mut sink).await? > 0 {}
        io::Result::Ok(())
    })
    .await;
}
