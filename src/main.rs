//! `pawnrace`: the protocol on stdin/stdout, or `pawnrace serve` over TCP.

mod cli;

use clap::{Args, Parser, Subcommand};
use pawnrace::autorunner;
use pawnrace::engine::Limits;
use pawnrace::lab::bench;
use pawnrace::problems;
use pawnrace::protocol::SessionOptions;
use pawnrace::rules::Color;
use pawnrace::server::{self, ServerConfig};
use std::io::{self, Stderr, StdinLock, StdoutLock};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;
use tokio::net::TcpListener;

#[derive(Parser, Debug)]
#[command(
    name = "pawnrace",
    version,
    about = "A Pawn Race engine speaking a UCI-like line protocol"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    common: CommonArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the protocol over TCP, one session per connection.
    Serve(ServeArgs),
    /// Search a fixed set of positions to a fixed depth and report the node
    /// total (a signature of the search) and the speed.
    Bench(BenchArgs),
    /// Full-chess move validator: `e2 e4` lines on stdin, boards on stdout.
    ChessValidator,
    /// Pawn move validator: games on stdin, first incorrect move per game.
    PawnValidator,
    /// The exact value of a position (or of every gap opening), with the
    /// winner's shortest win and the loser's longest loss.
    Solve(cli::solve::SolveArgs),
    /// Grow the book of proven positions near an opening's start, where
    /// proofs take longer than a move's time (data/book.txt).
    Book(cli::book::BookArgs),
    /// Merge book files (runs made in parallel) into the book, checking a
    /// sample of what they add.
    BookMerge(cli::book_merge::MergeArgs),
    /// Make the keep-rate benchmark's positions: random walks into every
    /// opening where the side to move holds a win or draw, each move
    /// labelled keep or spoil by the solver (data/keep-set.txt).
    KeepSet(cli::keep::KeepSetArgs),
    /// Tune the search's leaf evaluation: label positions with their
    /// proven values (`tune make`), fit the weights to them (`tune fit`).
    Tune(cli::tune::TuneArgs),
    /// Count move sequences from a position, with the speed.
    Perft(cli::perft::PerftArgs),
    /// One pawn each: `duel e2 e7 w` prints white, black or draw; with no
    /// query, one query per stdin line.
    Duel {
        /// White's square, black's square, side to move (w or b).
        query: Vec<String>,
    },
    /// UVa 10838, the 4x4 pawn game: boards on stdin, `white (N)` or
    /// `black (N)` per board.
    Mini4,
    /// Play one game in the Imperial College autorunner's protocol: gaps,
    /// then SAN moves, one a line (`autorunner W` or `autorunner B`).
    Autorunner(AutorunnerArgs),
    /// Play a match between two engines, refereed by pawnrace's rules:
    /// openings, clocks, faults, Elo with error bars, PGN, SPRT.
    Match(Box<cli::match_cmd::MatchArgs>),
    /// The proven value before and after every move of recorded games (PGN
    /// or plain), with each move kept, spoiled or a chance taken.
    #[command(after_long_help = cli::analyse::HELP)]
    Analyse(cli::analyse::AnalyseArgs),
    /// Load a running server with many sessions (timed searches, infinite
    /// searches, table churn) and report answer and `isready` latencies.
    Loadtest(cli::loadtest::LoadtestArgs),
}

/// Settings of every session, whatever carries it.
#[derive(Args, Debug)]
struct CommonArgs {
    /// Transposition table size of a new session, MiB.
    #[arg(long, global = true, default_value_t = SessionOptions::default().hash_mib)]
    hash: usize,
    /// The most `setoption name Hash` may ask for, MiB.
    #[arg(long, global = true, default_value_t = SessionOptions::default().max_hash_mib)]
    max_hash: usize,
    /// MiB that all sessions' tables together may take (default: half the
    /// machine's memory). A session's tables start small and grow with its
    /// searches, up to Hash, while the budget lasts; past it they are made
    /// smaller, down to a few buckets, and `setoption name Hash` beyond what
    /// is left is refused.
    #[arg(long, global = true, default_value_t = pawnrace::memory::default_budget_mib())]
    max_memory: usize,
    /// Longest accepted input line, bytes.
    #[arg(long, global = true, default_value_t = ServerConfig::default().max_line_length)]
    max_line_length: usize,
    /// Search threads computing at once (default: one per core). The turn
    /// goes to the jobs due first: a timed search by its deadline (weaker
    /// when crowded, never later), untimed work a second after its last
    /// turn.
    #[arg(long, global = true)]
    max_searches: Option<usize>,
}

#[derive(Args, Debug)]
struct ServeArgs {
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
}

#[derive(Args, Debug)]
struct AutorunnerArgs {
    /// The colour to play: W or B (also white, black, any case).
    #[arg(value_parser = autorunner::parse_colour)]
    colour: Color,
    /// Thinking time per move (and for black's choice of gaps), ms; the
    /// tournament allows 5000. Default 1000, unless --depth is given.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search every move to this depth. Alone, it makes games reproducible
    /// (no clock, so no proof lookup either); with --movetime, whichever
    /// limit comes first ends the search.
    #[arg(long)]
    depth: Option<u32>,
    /// Do not think on the opponent's time (by default, with a clock, the
    /// engine proves what it can while the opponent's move is awaited).
    #[arg(long)]
    no_ponder: bool,
}

#[derive(Args, Debug)]
struct BenchArgs {
    /// Depth to search every position to.
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH)]
    depth: u32,
    /// Instead: the keep-rate benchmark. The engine moves in each position
    /// of the keep set at --movetime; the share of moves that keep the
    /// proven value, and the spoils.
    #[arg(long)]
    keep: bool,
    /// Instead: the solver benchmark. Each position of the keep set is
    /// solved from an empty table of --hash MiB within --budget, on
    /// --threads (every core unless told); the median and p90 times and
    /// the solver's speed.
    #[arg(long, conflicts_with = "keep")]
    solve: bool,
    #[command(flatten)]
    keep_args: cli::keep::KeepBenchArgs,
    #[command(flatten)]
    solve_args: cli::solve_bench::SolveBenchArgs,
}

fn main() -> ExitCode {
    let parsed = Cli::parse();
    // Only the protocol needs the async runtime; the rest answer and exit.
    let serve_args = match parsed.command {
        None => None,
        Some(Command::Serve(args)) => Some(args),
        Some(Command::Bench(args)) if args.keep => {
            return cli::keep::bench(&args.keep_args, parsed.common.hash);
        }
        Some(Command::Bench(args)) if args.solve => {
            return match cli::keep::load(&args.keep_args) {
                Ok(cases) => cli::solve_bench::run(
                    cases,
                    &args.solve_args,
                    parsed.common.hash,
                    args.keep_args.threads_or(pawnrace::solver::cores),
                ),
                Err(e) => {
                    eprintln!("pawnrace bench: {e}");
                    ExitCode::FAILURE
                }
            };
        }
        Some(Command::Bench(args)) => return run_bench(args.depth, parsed.common.hash),
        Some(Command::KeepSet(args)) => return cli::keep::make(args),
        Some(Command::Solve(args)) => return cli::solve::run(args),
        Some(Command::Book(args)) => return cli::book::run(args),
        Some(Command::BookMerge(args)) => return cli::book_merge::run(args),
        Some(Command::Perft(args)) => return cli::perft::run(args),
        Some(Command::Tune(args)) => return cli::tune::run(args),
        Some(Command::ChessValidator) => return run_problem(problems::chess_validator::run),
        Some(Command::PawnValidator) => return run_problem(problems::pawn_validator::run),
        Some(Command::Mini4) => return run_problem(problems::mini4::run),
        Some(Command::Duel { query }) if query.is_empty() => {
            return run_problem(problems::duel::run);
        }
        Some(Command::Duel { query }) => return cli::duel_once(&query.join(" ")),
        Some(Command::Autorunner(args)) => return run_autorunner(args, parsed.common.hash),
        Some(Command::Match(args)) => return cli::match_cmd::run(*args),
        Some(Command::Analyse(args)) => return cli::analyse::run(args),
        Some(Command::Loadtest(args)) => return cli::loadtest::run(args),
    };
    init_tracing(if serve_args.is_some() { "info" } else { "warn" });
    let common = parsed.common;
    let mut config = ServerConfig {
        max_line_length: common.max_line_length,
        session: SessionOptions {
            hash_mib: common.hash,
            max_hash_mib: common.max_hash,
            memory: pawnrace::memory::MemoryBudget::new(common.max_memory),
        },
        ..ServerConfig::default()
    };
    if let Some(n) = common.max_searches {
        config.max_searches = n.max(1);
    }
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
    let code = match serve_args {
        None => {
            runtime.block_on(async { server::stdio::run(config, server::shutdown_signal()).await });
            ExitCode::SUCCESS
        }
        Some(args) => {
            config.max_connections = args.max_connections;
            config.idle_timeout = Some(Duration::from_secs(args.idle_timeout));
            config.shutdown_grace = Duration::from_secs(args.grace);
            runtime.block_on(serve(args.listen, args.http, config))
        }
    };
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

/// Logs go to stderr: stdout belongs to the protocol. `default` is the
/// level when `RUST_LOG` does not say.
fn init_tracing(default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_env_filter(filter)
        .init();
}

/// `pawnrace autorunner W|B` on the standard streams. The harness only
/// reads stdout, so the lines we skip are shown on stderr at `info` by
/// default: they are what a person debugging a pairing needs to see.
fn run_autorunner(args: AutorunnerArgs, hash_mib: usize) -> ExitCode {
    init_tracing("info");
    let movetime = match (args.movetime, args.depth) {
        (None, None) => Some(autorunner::DEFAULT_MOVETIME_MS),
        (movetime, _) => movetime,
    };
    let config = autorunner::Config {
        limits: Limits {
            movetime_ms: movetime,
            depth: args.depth,
            ..Limits::default()
        },
        hash_mib,
        ponder: movetime.is_some() && !args.no_ponder,
    };
    match autorunner::run(
        args.colour,
        io::stdin().lock(),
        io::stdout().lock(),
        &config,
    ) {
        Ok(_) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace autorunner: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `pawnrace bench`: one line per position, then the totals.
fn run_bench(depth: u32, hash_mib: usize) -> ExitCode {
    let mut index = 0;
    let report = bench::run(depth, hash_mib, &mut |pos, result| {
        index += 1;
        let best = result.best.map_or("(none)".to_string(), |m| m.to_string());
        println!(
            "position {index} {} {} bestmove {best} score {} nodes {}",
            pos.rules(),
            pos.fen(),
            result.score,
            result.nodes
        );
    });
    match report {
        Ok(r) => {
            println!(
                "positions {} depth {depth} nodes {} time {} nps {}",
                r.positions,
                r.nodes,
                r.time_ms,
                r.nps()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawnrace: a benchmark position is invalid: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A problem's front end on the standard streams. Bad input is answered and
/// explained by the problem itself; only a stream that fails ends it early.
fn run_problem(
    run: fn(StdinLock<'static>, StdoutLock<'static>, Stderr) -> io::Result<()>,
) -> ExitCode {
    match run(io::stdin().lock(), io::stdout().lock(), io::stderr()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace: {e}");
            ExitCode::FAILURE
        }
    }
}
