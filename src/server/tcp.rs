//! The TCP server: accept, cap, spawn a session per connection, shut down.

use super::config::{ServerConfig, Transport};
use super::connection::{self, Settings, Shared};
use super::http;
use super::stats::Stats;
use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;
use tokio_util::task::TaskTracker;
use tracing::{debug, info, warn};

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
    /// Serves the page and WebSocket sessions here too (`serve --http`).
    http: Option<TcpListener>,
}

impl Server {
    pub fn new(config: ServerConfig) -> Server {
        Server {
            config,
            stats: Arc::default(),
            http: None,
        }
    }

    /// Serves HTTP on `listener` beside TCP: the page at `/`, sessions over
    /// a WebSocket at `/ws`, sharing the connection cap, the search
    /// scheduler and the shutdown.
    pub fn with_http(mut self, listener: TcpListener) -> Server {
        self.http = Some(listener);
        self
    }

    pub fn stats(&self) -> Arc<Stats> {
        Arc::clone(&self.stats)
    }

    pub async fn run(self, listener: TcpListener, shutdown: impl Future) -> io::Result<()> {
        let config = self.config;
        let mut door = Doorman {
            shared: Shared::new(config.max_searches, self.stats),
            settings: config.session_settings(Transport::Tcp),
            connections: Arc::new(Semaphore::new(config.max_connections)),
            max_connections: config.max_connections,
            tracker: TaskTracker::new(),
            exhausted: Exhaustion::new(),
        };
        tokio::pin!(shutdown);
        let http = self.http.map(|listener| door.spawn_http(listener, &config));
        let reporter = config
            .stats_interval
            .filter(|d| !d.is_zero())
            .map(|every| tokio::spawn(report_stats(Arc::clone(&door.shared.stats), every)));

        loop {
            let accepted = tokio::select! {
                _ = &mut shutdown => break,
                accepted = listener.accept() => accepted,
            };
            match door.screen(accepted, &listener).await {
                Screened::Admit(stream, peer) => door.admit(stream, peer),
                Screened::Next => {}
                Screened::Pause(pause) => tokio::select! {
                    _ = &mut shutdown => break,
                    _ = tokio::time::sleep(pause) => {}
                },
            }
        }

        drop(listener);
        if let Some(reporter) = reporter {
            reporter.abort();
        }
        door.close(http, config.shutdown_grace).await;
        Ok(())
    }
}

/// Logs the counters every `every`, for operators: behind a load balancer,
/// each replica's share of the sessions.
async fn report_stats(stats: Arc<Stats>, every: Duration) {
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    tick.tick().await;
    loop {
        tick.tick().await;
        info!("stats {}", stats.summary());
    }
}

/// What the accept loop carries from one newcomer to the next: what every
/// session shares, the connection cap, the tasks to wait for at shutdown
/// and the file-descriptor episode in progress.
struct Doorman {
    shared: Shared,
    settings: Settings,
    connections: Arc<Semaphore>,
    max_connections: usize,
    tracker: TaskTracker,
    exhausted: Exhaustion,
}

/// What to do after one accept.
enum Screened {
    /// A newcomer to serve, if the cap allows.
    Admit(TcpStream, SocketAddr),
    /// Nothing to serve: accept the next.
    Next,
    /// Out of descriptors: wait this long (or for the shutdown) before
    /// accepting again.
    Pause(Duration),
}

impl Doorman {
    /// Serves the page and its WebSocket sessions under the same cap,
    /// scheduler and shutdown as the TCP sessions.
    fn spawn_http(&self, listener: TcpListener, config: &ServerConfig) -> JoinHandle<()> {
        let (shared, connections) = (self.shared.clone(), Arc::clone(&self.connections));
        let (config, tracker) = (config.clone(), self.tracker.clone());
        tokio::spawn(async move {
            if let Err(e) = http::serve(listener, &config, shared, connections, tracker).await {
                warn!("HTTP server failed: {e}");
            }
        })
    }

    /// Sorts one accept's outcome, keeping a descriptor in reserve so
    /// that, when they run out, newcomers are told so rather than left
    /// waiting in silence.
    async fn screen(
        &mut self,
        accepted: io::Result<(TcpStream, SocketAddr)>,
        listener: &TcpListener,
    ) -> Screened {
        match accepted {
            Ok((stream, _)) if !self.exhausted.spare_in_hand() => {
                // The descriptor the spare needs went to a newcomer: it
                // is told to come back, and the spare takes its place.
                self.turn_away(stream, OUT_OF_DESCRIPTORS.into(), EXHAUSTED_REJECT_TIMEOUT);
                Screened::Next
            }
            Ok((stream, peer)) => {
                self.exhausted.over();
                Screened::Admit(stream, peer)
            }
            Err(e) if is_out_of_descriptors(&e) => {
                // The newcomer waits in the backlog, and would wait in
                // silence: the spare descriptor makes room to tell it.
                if let Some(stream) = self.exhausted.begin(listener).await {
                    self.turn_away(stream, OUT_OF_DESCRIPTORS.into(), EXHAUSTED_REJECT_TIMEOUT);
                }
                Screened::Pause(self.exhausted.pause())
            }
            Err(e) => {
                // A connection reset before we took it, mostly: it
                // passes, so wait a moment and go on.
                debug!("accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(10)).await;
                Screened::Next
            }
        }
    }

    /// Starts a session for `stream` if the connection cap has room, and
    /// turns it away with the reason otherwise.
    fn admit(&self, stream: TcpStream, peer: SocketAddr) {
        let _ = stream.set_nodelay(true);
        let Ok(permit) = Arc::clone(&self.connections).try_acquire_owned() else {
            let max = self.max_connections;
            info!(%peer, "connection refused: at the limit of {max}");
            let why = format!("too many connections (limit {max})");
            self.turn_away(stream, why, REJECT_TIMEOUT);
            return;
        };
        debug!(%peer, "session starts");
        let (settings, shared) = (self.settings.clone(), self.shared.clone());
        self.tracker.spawn(async move {
            let (reader, writer) = stream.into_split();
            connection::run(reader, writer, settings, shared).await;
            drop(permit);
            debug!(%peer, "session ends");
        });
    }

    /// Counts a refused newcomer and tells it why, off the accept loop.
    fn turn_away(&self, stream: TcpStream, why: String, patience: Duration) {
        self.shared.stats.count_rejected();
        self.tracker.spawn(reject(stream, why, patience));
    }

    /// Tells every session the server is stopping and waits for them (and
    /// the HTTP server) at most `grace`, so a stuck peer cannot hold the
    /// process.
    async fn close(self, http: Option<JoinHandle<()>>, grace: Duration) {
        self.shared.shutdown.cancel();
        if let Some(http) = http {
            // It stops taking connections on the shutdown; its sessions
            // are the tracker's.
            let _ = tokio::time::timeout(grace, http).await;
        }
        self.tracker.close();
        if tokio::time::timeout(grace, self.tracker.wait())
            .await
            .is_err()
        {
            warn!(
                "{} sessions still open after {} s of shutdown; leaving them",
                self.tracker.len(),
                grace.as_secs_f64()
            );
        }
    }
}

/// What a newcomer turned away for want of descriptors is told.
const OUT_OF_DESCRIPTORS: &str = "out of file descriptors, try again later";

fn is_out_of_descriptors(e: &io::Error) -> bool {
    // EMFILE (this process) and ENFILE (the whole system), on Linux and
    // the BSDs alike.
    matches!(e.raw_os_error(), Some(23 | 24))
}

/// Running out of file descriptors: an episode is logged once as it begins
/// and once as it ends (not every failed accept), accepting backs off from
/// 10 to 200 ms, and one descriptor is kept in reserve, so that a newcomer
/// can be accepted, told `error busy ...` and closed rather than left
/// waiting in silence.
struct Exhaustion {
    spare: Option<std::fs::File>,
    failures: u64,
    since: Option<std::time::Instant>,
    last_failure: Option<std::time::Instant>,
}

/// An episode of exhaustion ends after this long without a failed accept.
const EXHAUSTION_QUIET: Duration = Duration::from_secs(1);

/// How long a newcomer turned away for want of descriptors gets to take
/// its line: its descriptor is what the next newcomer needs.
const EXHAUSTED_REJECT_TIMEOUT: Duration = Duration::from_millis(200);

impl Exhaustion {
    fn new() -> Exhaustion {
        Exhaustion {
            spare: open_spare(),
            failures: 0,
            since: None,
            last_failure: None,
        }
    }

    /// One failed accept; returns the newcomer if the spare descriptor let
    /// us take it.
    async fn begin(&mut self, listener: &TcpListener) -> Option<TcpStream> {
        if self.since.is_none() {
            warn!(
                "out of file descriptors: serving the open sessions, telling newcomers to come back"
            );
            self.since = Some(std::time::Instant::now());
        }
        self.failures += 1;
        self.last_failure = Some(std::time::Instant::now());
        if self.spare.is_none() {
            // The last newcomer told has gone: its descriptor is free.
            self.spare = open_spare();
        }
        let spare = self.spare.take()?;
        drop(spare);
        let newcomer = tokio::time::timeout(Duration::from_millis(10), listener.accept()).await;
        let stream = match newcomer {
            Ok(Ok((stream, _))) => Some(stream),
            _ => None,
        };
        // Taken again once the newcomer's descriptor is closed, if not now.
        self.spare = open_spare();
        stream
    }

    /// Whether the spare descriptor is kept (taken again if it was given
    /// up): a session is admitted only then.
    fn spare_in_hand(&mut self) -> bool {
        if self.spare.is_none() {
            self.spare = open_spare();
        }
        // Where no spare can be had at all (no /dev/null), do without.
        self.spare.is_some() || self.since.is_none()
    }

    fn pause(&self) -> Duration {
        Duration::from_millis(10u64 << self.failures.min(5)).min(Duration::from_millis(200))
    }

    /// An accept worked: the episode, if any, is over once no accept has
    /// failed for a while.
    fn over(&mut self) {
        let quiet = self
            .last_failure
            .is_none_or(|t| t.elapsed() >= EXHAUSTION_QUIET);
        if !quiet {
            return;
        }
        if let Some(since) = self.since.take() {
            info!(
                "file descriptors available again after {:.1} s ({} accepts failed)",
                since.elapsed().as_secs_f64(),
                self.failures
            );
        }
        self.failures = 0;
        if self.spare.is_none() {
            self.spare = open_spare();
        }
    }
}

fn open_spare() -> Option<std::fs::File> {
    std::fs::File::open(if cfg!(windows) { "NUL" } else { "/dev/null" }).ok()
}

/// Tells a peer we cannot serve why, instead of leaving it hanging.
async fn reject(mut stream: TcpStream, why: String, patience: Duration) {
    let line = crate::protocol::Reply::error(crate::protocol::ErrorCode::Busy, why);
    let _ = tokio::time::timeout(patience, async {
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
