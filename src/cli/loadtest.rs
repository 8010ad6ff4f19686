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

use clap::Args;
use pawnrace::rng::Rng;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as AsyncBufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
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

/// Where the timed sessions search: off the book, so that a search takes
/// its whole time rather than answering from a table.
const START: &str = "position startpos gaps AH moves b2b3 g7g6 c2c3";

/// How much later than its move time an answer may come before the
/// session gives up on it and counts a failure.
const PATIENCE: Duration = Duration::from_secs(10);

struct Client {
    lines: Lines<AsyncBufReader<OwnedReadHalf>>,
    writer: OwnedWriteHalf,
}

impl Client {
    async fn connect(addr: &str) -> Result<Client, Failure> {
        let stream = TcpStream::connect(addr)
            .await
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        let _ = stream.set_nodelay(true);
        let (reader, writer) = stream.into_split();
        Ok(Client {
            lines: AsyncBufReader::new(reader).lines(),
            writer,
        })
    }

    async fn send(&mut self, line: &str) -> Result<(), Failure> {
        self.writer
            .write_all(format!("{line}\n").as_bytes())
            .await
            .map_err(|e| format!("write failed: {e}"))
    }

    /// Reads until a line starting with `prefix`; returns it. An `error`
    /// line on the way is a failure.
    async fn until(&mut self, prefix: &str) -> Result<String, Failure> {
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .map_err(|e| format!("read failed: {e}"))?
                .ok_or_else(|| format!("connection closed while waiting for {prefix}"))?;
            if line.starts_with(prefix) {
                return Ok(line);
            }
            if line.starts_with("error") {
                return Err(line);
            }
        }
    }

    async fn ask(&mut self, line: &str, reply: &str) -> Result<String, Failure> {
        self.send(line).await?;
        self.until(reply).await
    }
}

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
        let (addr, done) = (Arc::clone(&addr), done.clone());
        background.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr).await?;
            c.ask(START, "ok position").await?;
            c.send("go infinite").await?;
            done.cancelled().await;
            c.ask("stop", "bestmove").await?;
            Ok::<(), Failure>(())
        }));
    }
    for _ in 0..args.churn {
        let (addr, done) = (Arc::clone(&addr), done.clone());
        background.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr).await?;
            c.ask(START, "ok position").await?;
            while !done.is_cancelled() {
                for hash in ["1024", "1"] {
                    // Refused when the memory budget has not that much left.
                    c.send(&format!("setoption name Hash value {hash}")).await?;
                    let said = c.lines.next_line().await.map_err(|e| e.to_string())?;
                    if !said.is_some_and(|l| {
                        l.starts_with("ok") || l.starts_with("error bad-argument Hash")
                    }) {
                        return Err("setoption Hash got no answer".into());
                    }
                    // An untimed search makes tables of the new size.
                    c.ask("go depth 1", "bestmove").await?;
                    c.ask(START, "ok position").await?;
                }
            }
            Ok(())
        }));
    }
    let probe = {
        let (addr, done, every) = (Arc::clone(&addr), done.clone(), args.probe_every);
        tokio::spawn(async move {
            let mut c = Client::connect(&addr).await?;
            let mut each = Sample::default();
            while !done.is_cancelled() {
                let t = Instant::now();
                c.ask("isready", "readyok").await?;
                each.0.push(ms(t));
                tokio::time::sleep(Duration::from_millis(every)).await;
            }
            Ok::<Sample, Failure>(each)
        })
    };
    // Let the churners and hogs get going first.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let mut searchers = Vec::new();
    for index in 0..args.searchers {
        let addr = Arc::clone(&addr);
        let (rounds, fixed) = (args.rounds, args.movetime);
        // Reproducible move times, the same for a seed as ever.
        let mut rng = Rng::from_state(args.seed.wrapping_mul(1000).wrapping_add(index as u64));
        searchers.push(tokio::spawn(async move {
            let mut c = Client::connect(&addr).await?;
            c.ask(START, "ok position").await?;
            let mut late = Vec::new();
            for _ in 0..rounds {
                let movetime = fixed.unwrap_or_else(|| 100 + rng.next_u64() % 1901);
                let t = Instant::now();
                let go_line = format!("go movetime {movetime}");
                let go = c.ask(&go_line, "bestmove");
                let patience = Duration::from_millis(movetime) + PATIENCE;
                let best = tokio::time::timeout(patience, go)
                    .await
                    .map_err(|_| format!("no bestmove within {} ms", patience.as_millis()))??;
                late.push(ms(t) - movetime as f64);
                if best.contains("(none)") {
                    c.ask(START, "ok position").await?;
                }
            }
            c.ask("quit", "ok bye").await?;
            Ok::<Vec<f64>, Failure>(late)
        }));
    }
    let started = Instant::now();
    let mut lateness = Sample::default();
    let mut failures = Vec::new();
    for task in searchers {
        match task.await {
            Ok(Ok(late)) => lateness.0.extend(late),
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let wall = started.elapsed();
    done.cancel();
    for task in background {
        match task.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(e.to_string()),
        }
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
    let times = match args.movetime {
        Some(ms) => format!("{ms} ms"),
        None => "100..2000 ms".into(),
    };
    println!(
        "sessions {} (searchers {}, churners {}, hogs {}, idle {idle_count}); {} rounds of go movetime {times} in {:.1} s",
        args.sessions,
        args.searchers,
        args.churn,
        args.hogs,
        args.rounds,
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
