//! `pawnrace loadtest`: many protocol sessions against a server, to measure
//! what the server promises: a timed `go` answers in time however many
//! sessions search, `isready` is answered at once whatever the others do,
//! and the tables stay within the memory budget.
//!
//! Without `--connect` it starts `pawnrace serve` itself on loopback (so
//! that it can read the server's memory) with `--max-memory`. Then, side by
//! side: idle sessions (all `--sessions` are opened and held), *searchers*
//! that send `go movetime T` over and over (T drawn from 100..2000 ms, or
//! `--movetime`), *churners* that switch `Hash` between 1024 and 1 MiB with
//! a search after each switch, so that tables really are made and dropped,
//! *hogs* holding a `go infinite`, and one probe sending `isready` every few
//! milliseconds. It reports `isready` latency, how late each timed answer
//! came (answer time less its move time), and the server's peak memory.

mod sessions;

use clap::Args;
use pawnrace::rng::Rng;
use sessions::{Client, churner, hog, probe, searcher};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// A running server to load; by default one is started on loopback.
    #[arg(long)]
    connect: Option<String>,
    /// Sessions opened and held for the whole run (searchers, churners and
    /// hogs among them; the rest stay idle).
    #[arg(long, default_value_t = 1000)]
    sessions: usize,
    /// Sessions searching at once, each `--rounds` timed searches.
    #[arg(long, default_value_t = 8)]
    searchers: usize,
    /// Timed searches per searcher.
    #[arg(long, default_value_t = 5)]
    rounds: usize,
    /// Every timed search's move time, ms (default: drawn from 100..2000).
    #[arg(long)]
    movetime: Option<u64>,
    /// Sessions switching Hash between 1024 and 1 MiB, searching after each.
    #[arg(long, default_value_t = 2)]
    churn: usize,
    /// Sessions holding a `go infinite` for the whole run.
    #[arg(long, default_value_t = 0)]
    hogs: usize,
    /// The probe's pause between two `isready`, ms.
    #[arg(long, default_value_t = 10)]
    probe_every: u64,
    /// The started server's `--max-memory`, MiB.
    #[arg(long, default_value_t = 4096)]
    max_memory: usize,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 300)]
    time_limit: u64,
    /// Seed of the move times.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

type Failure = String;

/// Where the timed sessions search: off the proof tables, and a position
/// no proof settles within a second (of the deep hard keep set), so that a
/// search takes its whole time rather than answering from a table. The
/// book grows; the position it had here before (AH b2b3 g7g6 c2c3) came
/// into it, and the searches it timed answered at once. A test below holds
/// the tables to not knowing this one.
const START: &str = "position startpos gaps AH moves h2h3 e7e6 c2c4 c7c6 d2d3";

/// How much later than its move time an answer may come before the
/// session gives up on it and counts a failure.
const PATIENCE: Duration = Duration::from_secs(10);

/// Latencies of one kind, ms.
#[derive(Default)]
struct Sample(Vec<f64>);

impl Sample {
    fn summary(&mut self) -> String {
        if self.0.is_empty() {
            return "none".into();
        }
        self.0.sort_by(f64::total_cmp);
        let at = |q: f64| self.0[((self.0.len() - 1) as f64 * q).round() as usize];
        format!(
            "n {} p50 {:.1} p99 {:.1} max {:.1} ms",
            self.0.len(),
            at(0.5),
            at(0.99),
            at(1.0)
        )
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// The server this run started, stopped when dropped.
struct Started {
    child: Child,
}

impl Started {
    fn spawn(args: &LoadtestArgs) -> Result<(Started, String), Failure> {
        let exe = std::env::current_exe().map_err(|e| format!("cannot find pawnrace: {e}"))?;
        let connections = (args.sessions + args.churn + args.hogs + 16).to_string();
        let mut child = Command::new(exe)
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(["--max-connections", &connections])
            .args(["--max-memory", &args.max_memory.to_string()])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let mut stderr = BufReader::new(child.stderr.take().ok_or("no stderr")?);
        let mut first = String::new();
        let _ = stderr.read_line(&mut first);
        // Keep draining its log, or a full pipe would stall it.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        let addr = first
            .trim()
            .strip_prefix("pawnrace listening on ")
            .ok_or_else(|| format!("the server said {first:?}"))?
            .to_string();
        Ok((Started { child }, addr))
    }

    /// Peak and current resident memory, MiB (Linux).
    fn memory_mib(&self) -> Option<(u64, u64)> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let kib = |key: &str| -> Option<u64> {
            let line = status.lines().find(|l| l.starts_with(key))?;
            line.split_whitespace().nth(1)?.parse().ok()
        };
        Some((kib("VmHWM:")? / 1024, kib("VmRSS:")? / 1024))
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn run(args: LoadtestArgs) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pawnrace loadtest: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let (server, addr) = match &args.connect {
        Some(addr) => (None, addr.clone()),
        None => match Started::spawn(&args) {
            Ok((server, addr)) => (Some(server), addr),
            Err(e) => {
                eprintln!("pawnrace loadtest: {e}");
                return ExitCode::FAILURE;
            }
        },
    };
    let limit = Duration::from_secs(args.time_limit);
    let outcome = runtime.block_on(async {
        tokio::time::timeout(limit, load(&args, &addr))
            .await
            .unwrap_or_else(|_| Err(format!("not done in {} s", args.time_limit)))
    });
    match (&server, outcome) {
        (_, Err(e)) => {
            eprintln!("pawnrace loadtest: {e}");
            ExitCode::FAILURE
        }
        (Some(server), Ok(failures)) => {
            match server.memory_mib() {
                Some((peak, now)) => println!(
                    "server memory: peak {peak} MiB, now {now} MiB (--max-memory {} MiB for tables)",
                    args.max_memory
                ),
                None => println!("server memory: unknown here"),
            }
            exit_code(failures)
        }
        (None, Ok(failures)) => exit_code(failures),
    }
}

fn exit_code(failures: usize) -> ExitCode {
    if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Runs the load; prints the report; returns the number of failures.
async fn load(args: &LoadtestArgs, addr: &str) -> Result<usize, Failure> {
    let done = CancellationToken::new();
    let addr: Arc<str> = addr.into();
    let busy = args.searchers + args.churn + args.hogs + 1;
    let idle_count = args.sessions.saturating_sub(busy);

    // The idle crowd first: held open, each having said hello once.
    let mut idle = Vec::with_capacity(idle_count);
    for _ in 0..idle_count {
        let mut c = Client::connect(&addr).await?;
        c.ask("isready", "readyok").await?;
        idle.push(c);
    }
    let mut background = Vec::new();
    for _ in 0..args.hogs {
        background.push(tokio::spawn(hog(Arc::clone(&addr), done.clone())));
    }
    for _ in 0..args.churn {
        background.push(tokio::spawn(churner(Arc::clone(&addr), done.clone())));
    }
    let probe = tokio::spawn(probe(Arc::clone(&addr), done.clone(), args.probe_every));
    // Let the churners and hogs get going first.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let searchers: Vec<_> = (0..args.searchers)
        .map(|index| {
            // Reproducible move times, the same for a seed as ever.
            let rng = Rng::from_state(args.seed.wrapping_mul(1000).wrapping_add(index as u64));
            let search = searcher(Arc::clone(&addr), args.rounds, args.movetime, rng);
            tokio::spawn(search)
        })
        .collect();
    let started = Instant::now();
    let mut lateness = Sample::default();
    let mut failures = Vec::new();
    for task in searchers {
        if let Some(late) = outcome(task.await, &mut failures) {
            lateness.0.extend(late);
        }
    }
    let wall = started.elapsed();
    done.cancel();
    for task in background {
        outcome(task.await, &mut failures);
    }
    let mut probe = match probe.await {
        Ok(Ok(s)) => s,
        Ok(Err(e)) => {
            failures.push(format!("probe: {e}"));
            Sample::default()
        }
        Err(e) => return Err(e.to_string()),
    };
    drop(idle);
    println!(
        "sessions {} (searchers {}, churners {}, hogs {}, idle {idle_count}); {} rounds of go movetime {} in {:.1} s",
        args.sessions,
        args.searchers,
        args.churn,
        args.hogs,
        args.rounds,
        args.movetime
            .map_or("100..2000 ms".into(), |ms| format!("{ms} ms")),
        wall.as_secs_f64()
    );
    println!("isready: {}", probe.summary());
    let late_by_50 = lateness.0.iter().filter(|&&l| l > 50.0).count();
    println!(
        "timed search lateness (answer less move time): {}; more than 50 ms late: {late_by_50}",
        lateness.summary()
    );
    println!("failures: {}", failures.len());
    for f in failures.iter().take(5) {
        println!("  {f}");
    }
    Ok(failures.len())
}

/// A session's result, its failure (or its task's) put with the others.
fn outcome<T>(
    joined: Result<Result<T, Failure>, tokio::task::JoinError>,
    failures: &mut Vec<Failure>,
) -> Option<T> {
    match joined {
        Ok(Ok(value)) => Some(value),
        Ok(Err(e)) => {
            failures.push(e);
            None
        }
        Err(e) => {
            failures.push(e.to_string());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::START;
    use pawnrace::protocol::{Action, Session, SessionOptions};
    use pawnrace::rules::{Position, RuleSet};

    /// The position `START` sets, as a session reads it (the server's own
    /// reading, not a second one): its reply `ok position <fen>`.
    fn start_position() -> Position {
        let mut session = Session::new(SessionOptions::default());
        let Action::Reply(replies) = session.handle_line(START) else {
            panic!("`{START}` is answered at once");
        };
        let reply = replies.first().expect("a reply").to_string();
        let fen = reply.strip_prefix("ok position ").expect(&reply);
        Position::from_fen(fen, RuleSet::PAWNRACE).expect("the reply's position")
    }

    #[test]
    fn the_timed_searches_start_off_the_proof_tables() {
        let pos = start_position();
        assert!(
            pawnrace::proofs::known(&pos).is_none(),
            "the tables know {pos:?}"
        );
    }
}
