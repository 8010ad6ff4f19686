//! `pawnrace loadtest`: many protocol sessions against a running server, to
//! measure what issue #10 promises: a timed `go` answers in time however
//! many sessions search, and `isready` is answered at once whatever the
//! others do.
//!
//! Four kinds of client run side by side: *timed* sessions that all send
//! `go movetime M` at the same moment, round after round; *hogs* that hold
//! a `go infinite` for the whole run; *churners* that resize and clear
//! their tables over and over; and one *probe* that sends `isready` every
//! few milliseconds. The report gives each latency's median, p90, p99 and
//! maximum.

use clap::Args;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::Barrier;

#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// The server to load (`pawnrace serve --listen ...`).
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: String,
    /// Sessions sending a timed `go` at the same moment.
    #[arg(long, default_value_t = 100)]
    sessions: usize,
    /// The timed sessions' move time, ms.
    #[arg(long, default_value_t = 100)]
    movetime: u64,
    /// Rounds of timed searches (each session plays its move, then goes again).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Sessions holding a `go infinite` for the whole run.
    #[arg(long, default_value_t = 0)]
    hogs: usize,
    /// Sessions switching `Hash` between 1024 and 1 MiB and starting new
    /// games, for the whole run.
    #[arg(long, default_value_t = 0)]
    churn: usize,
    /// The probe's pause between two `isready`, ms.
    #[arg(long, default_value_t = 20)]
    probe_every: u64,
}

type Failure = String;

/// Where the timed sessions search: off the book, so that a search takes
/// its whole time rather than answering from a table.
const START: &str = "position startpos gaps AH moves b2b3 g7g6 c2c3";

/// How much later than its move time an answer may come before the
/// session gives up on it and counts a failure.
const PATIENCE: Duration = Duration::from_secs(10);

struct Client {
    lines: Lines<BufReader<OwnedReadHalf>>,
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
            lines: BufReader::new(reader).lines(),
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
            "n {} median {:.1} p90 {:.1} p99 {:.1} max {:.1} ms",
            self.0.len(),
            at(0.5),
            at(0.9),
            at(0.99),
            at(1.0)
        )
    }
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
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
    match runtime.block_on(load(args)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace loadtest: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn load(args: LoadtestArgs) -> Result<(), Failure> {
    let args = Arc::new(args);
    let done = tokio_util::sync::CancellationToken::new();

    let mut background = Vec::new();
    for _ in 0..args.hogs {
        let (args, done) = (Arc::clone(&args), done.clone());
        background.push(tokio::spawn(async move {
            let mut c = Client::connect(&args.addr).await?;
            c.ask(START, "ok position").await?;
            c.send("go infinite").await?;
            done.cancelled().await;
            c.ask("stop", "bestmove").await?;
            Ok::<Sample, Failure>(Sample::default())
        }));
    }
    for _ in 0..args.churn {
        let (args, done) = (Arc::clone(&args), done.clone());
        background.push(tokio::spawn(async move {
            let mut c = Client::connect(&args.addr).await?;
            // One search first, so that the session has tables to resize.
            c.ask(START, "ok position").await?;
            c.ask("go depth 1", "bestmove").await?;
            let mut each = Sample::default();
            while !done.is_cancelled() {
                for line in [
                    "setoption name Hash value 1024",
                    "newgame",
                    "setoption name Hash value 1",
                ] {
                    let t = Instant::now();
                    c.ask(line, "ok").await?;
                    each.0.push(ms(t));
                }
            }
            Ok(each)
        }));
    }
    let probe = {
        let (args, done) = (Arc::clone(&args), done.clone());
        tokio::spawn(async move {
            let mut c = Client::connect(&args.addr).await?;
            let mut each = Sample::default();
            while !done.is_cancelled() {
                let t = Instant::now();
                c.ask("isready", "readyok").await?;
                each.0.push(ms(t));
                tokio::time::sleep(Duration::from_millis(args.probe_every)).await;
            }
            Ok::<Sample, Failure>(each)
        })
    };
    // Let the hogs and churners get going first.
    tokio::time::sleep(Duration::from_millis(300)).await;

    let barrier = Arc::new(Barrier::new(args.sessions));
    let mut timed = Vec::new();
    for _ in 0..args.sessions {
        let (args, barrier) = (Arc::clone(&args), Arc::clone(&barrier));
        timed.push(tokio::spawn(async move {
            let mut c = Client::connect(&args.addr).await?;
            c.ask(START, "ok position").await?;
            let mut each = Vec::new();
            let patience = Duration::from_millis(args.movetime) + PATIENCE;
            for _ in 0..args.rounds {
                barrier.wait().await;
                let t = Instant::now();
                let go_line = format!("go movetime {}", args.movetime);
                let go = c.ask(&go_line, "bestmove");
                let best = tokio::time::timeout(patience, go)
                    .await
                    .map_err(|_| format!("no bestmove within {} ms", patience.as_millis()))??;
                each.push(ms(t));
                if best.contains("(none)") {
                    c.ask(START, "ok position").await?;
                }
            }
            c.ask("quit", "ok bye").await?;
            Ok::<Vec<f64>, Failure>(each)
        }));
    }
    let started = Instant::now();
    let mut answers = Sample::default();
    let mut rounds: Vec<Sample> = (0..args.rounds).map(|_| Sample::default()).collect();
    let mut failures = Vec::new();
    for task in timed {
        match task.await {
            Ok(Ok(s)) => {
                answers.0.extend(&s);
                for (round, t) in rounds.iter_mut().zip(s) {
                    round.0.push(t);
                }
            }
            Ok(Err(e)) => failures.push(e),
            Err(e) => failures.push(e.to_string()),
        }
    }
    let wall = started.elapsed();
    done.cancel();
    let mut churn = Sample::default();
    for task in background {
        match task.await {
            Ok(Ok(s)) => churn.0.extend(s.0),
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
    let late = answers
        .0
        .iter()
        .filter(|&&t| t > args.movetime as f64 + 50.0)
        .count();
    println!(
        "timed: {} sessions x {} rounds of go movetime {} in {:.1} s; answers {}; more than 50 ms late: {late}",
        args.sessions,
        args.rounds,
        args.movetime,
        wall.as_secs_f64(),
        answers.summary()
    );
    if args.rounds > 1 {
        for (i, round) in rounds.iter_mut().enumerate() {
            println!("  round {}: {}", i + 1, round.summary());
        }
    }
    println!("probe isready: {}", probe.summary());
    if args.churn > 0 {
        println!("churn setoption/newgame: {}", churn.summary());
    }
    println!("failures: {}", failures.len());
    for f in failures.iter().take(5) {
        println!("  {f}");
    }
    Ok(())
}
