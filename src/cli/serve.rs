//! The protocol itself: on stdin/stdout (`pawnrace` with no subcommand),
//! or over TCP and WebSocket (`pawnrace serve`). Only these take the
//! server's flags.

use super::args::SessionTable;
use clap::Args;
use pawnrace::protocol::SessionOptions;
use pawnrace::server::{self, ServerConfig};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;
use tokio::net::TcpListener;

/// What every session of a server is allowed, whatever carries it.
#[derive(Args, Debug)]
pub struct ServerArgs {
    #[command(flatten)]
    table: SessionTable,
    /// The most `setoption name Hash` may ask for, MiB.
    #[arg(long, default_value_t = SessionOptions::default().max_hash_mib)]
    max_hash: usize,
    /// MiB that all sessions' tables together may take (default: half the
    /// machine's memory). A session's tables start small and grow with its
    /// searches, up to Hash, while the budget lasts; past it they are made
    /// smaller, down to a few buckets, and `setoption name Hash` beyond what
    /// is left is refused.
    #[arg(long, default_value_t = pawnrace::memory::default_budget_mib())]
    max_memory: usize,
    /// Longest accepted input line, bytes.
    #[arg(long, default_value_t = ServerConfig::default().max_line_length)]
    max_line_length: usize,
    /// Search threads computing at once (default: one per core). The turn
    /// goes to the jobs due first: a timed search by its deadline (weaker
    /// when crowded, never later), untimed work a second after its last
    /// turn.
    #[arg(long)]
    max_searches: Option<usize>,
}

impl ServerArgs {
    fn config(&self) -> ServerConfig {
        let mut config = ServerConfig {
            max_line_length: self.max_line_length,
            session: SessionOptions {
                hash_mib: self.table.mib,
                max_hash_mib: self.max_hash,
                memory: pawnrace::memory::MemoryBudget::new(self.max_memory),
                // Set per transport by the server (stdio only).
                local_files: false,
            },
            ..ServerConfig::default()
        };
        if let Some(n) = self.max_searches {
            config.max_searches = n.max(1);
        }
        config
    }
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, default_value = "127.0.0.1:7878")]
    listen: SocketAddr,
    /// Also serve HTTP here: a page at `/` and the protocol over a
    /// WebSocket at `/ws`, one session per socket under the same limits
    /// (e.g. 127.0.0.1:8080; port 0 picks a free port).
    #[arg(long)]
    http: Option<SocketAddr>,
    /// Sessions at once; more connections are told `error busy` and closed.
    #[arg(long, default_value_t = ServerConfig::default().max_connections)]
    max_connections: usize,
    /// Close a session after this many seconds without input (0: never);
    /// a silent `go infinite` is stopped and answered first.
    #[arg(long, default_value_t = ServerConfig::default().idle_timeout.map_or(0, |d| d.as_secs()))]
    idle_timeout: u64,
    /// On shutdown, wait at most this many seconds for sessions to end.
    #[arg(long, default_value_t = ServerConfig::default().shutdown_grace.as_secs())]
    grace: u64,
    /// Log the server's counters to stderr every this many seconds (0:
    /// never): `stats sessions 20 accepted 45 rejected 0 jobs-running 2
    /// jobs-waiting 0 pauses 0`. Behind a load balancer, each replica's
    /// share.
    #[arg(long, default_value_t = 0)]
    stats_interval: u64,
    #[command(flatten)]
    server: ServerArgs,
}

/// `pawnrace`: one session on stdin/stdout.
pub fn stdio(args: &ServerArgs) -> ExitCode {
    super::init_tracing("warn");
    let config = args.config();
    on_runtime(|runtime| {
        runtime.block_on(async { server::stdio::run(config, server::shutdown_signal()).await });
        ExitCode::SUCCESS
    })
}

/// `pawnrace serve`: sessions over TCP (and WebSocket with --http).
pub fn run(args: ServeArgs) -> ExitCode {
    super::init_tracing("info");
    let mut config = args.server.config();
    config.max_connections = args.max_connections;
    config.idle_timeout = Some(Duration::from_secs(args.idle_timeout));
    config.shutdown_grace = Duration::from_secs(args.grace);
    config.stats_interval = Some(Duration::from_secs(args.stats_interval));
    on_runtime(|runtime| runtime.block_on(serve(args.listen, args.http, config)))
}

/// Runs `body` on a multi-threaded runtime, then lets the runtime go
/// without waiting on a blocked stdin reader.
fn on_runtime(body: impl FnOnce(&tokio::runtime::Runtime) -> ExitCode) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("pawnrace: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = body(&runtime);
    // Every session has ended and taken its job with it, but tokio's stdin
    // reader may still sit in a blocking read nobody can cancel; waiting for
    // it would keep us alive until the next line of input.
    runtime.shutdown_timeout(Duration::from_millis(100));
    code
}

async fn serve(addr: SocketAddr, http: Option<SocketAddr>, config: ServerConfig) -> ExitCode {
    // Before the listeners say where they are: a client may signal at once.
    let shutdown = server::shutdown_signal();
    let Some(listener) = bind(addr, "").await else {
        return ExitCode::FAILURE;
    };
    let mut server = server::Server::new(config);
    if let Some(http) = http {
        let Some(listener) = bind(http, " (http)").await else {
            return ExitCode::FAILURE;
        };
        server = server.with_http(listener);
    }
    match server.run(listener, shutdown).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Binds `addr` and says where, or why not.
async fn bind(addr: SocketAddr, what: &str) -> Option<TcpListener> {
    let listener = match TcpListener::bind(addr).await {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("pawnrace: cannot listen on {addr}{what}: {e}");
            return None;
        }
    };
    // Not through tracing: scripts and tests look for this exact line, and
    // with port 0 it is the only way to learn the port.
    match listener.local_addr() {
        Ok(bound) => eprintln!("pawnrace listening on {bound}{what}"),
        Err(_) => eprintln!("pawnrace listening on {addr}{what}"),
    }
    Some(listener)
}
