//! The loadtest's sessions, one function per kind: the hogs, the
//! churners, the probe and the searchers, each on its own connection.

use super::{Failure, PATIENCE, START, Sample, ms};
use pawnrace::protocol::is_final_line;
use pawnrace::rng::Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader as AsyncBufReader, Lines};
use tokio::net::TcpStream;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio_util::sync::CancellationToken;

/// One protocol connection.
pub(super) struct Client {
    lines: Lines<AsyncBufReader<OwnedReadHalf>>,
    writer: OwnedWriteHalf,
}

impl Client {
    pub(super) async fn connect(addr: &str) -> Result<Client, Failure> {
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

    /// Reads to the next final line (the protocol's rule); returns it if
    /// it starts with `prefix`, and fails on any other.
    async fn until(&mut self, prefix: &str) -> Result<String, Failure> {
        loop {
            let line = self
                .lines
                .next_line()
                .await
                .map_err(|e| format!("read failed: {e}"))?
                .ok_or_else(|| format!("connection closed while waiting for {prefix}"))?;
            if is_final_line(&line) {
                return if line.starts_with(prefix) {
                    Ok(line)
                } else {
                    Err(line)
                };
            }
        }
    }

    pub(super) async fn ask(&mut self, line: &str, reply: &str) -> Result<String, Failure> {
        self.send(line).await?;
        self.until(reply).await
    }
}

/// Holds a `go infinite` until the run is done.
pub(super) async fn hog(addr: Arc<str>, done: CancellationToken) -> Result<(), Failure> {
    let mut c = Client::connect(&addr).await?;
    c.ask(START, "ok position").await?;
    c.send("go infinite").await?;
    done.cancelled().await;
    c.ask("stop", "bestmove").await?;
    Ok(())
}

/// Switches Hash between 1024 and 1 MiB, with a search after each switch
/// so that tables really are made and dropped, until the run is done.
pub(super) async fn churner(addr: Arc<str>, done: CancellationToken) -> Result<(), Failure> {
    let mut c = Client::connect(&addr).await?;
    c.ask(START, "ok position").await?;
    while !done.is_cancelled() {
        for hash in ["1024", "1"] {
            // Refused when the memory budget has not that much left.
            let said = c
                .ask(&format!("setoption name Hash value {hash}"), "ok")
                .await;
            if let Err(line) = said
                && !line.starts_with("error bad-argument Hash")
            {
                return Err(format!("setoption Hash: {line}"));
            }
            // An untimed search makes tables of the new size.
            c.ask("go depth 1", "bestmove").await?;
            c.ask(START, "ok position").await?;
        }
    }
    Ok(())
}

/// `isready` every `every` ms until the run is done; the latencies.
pub(super) async fn probe(
    addr: Arc<str>,
    done: CancellationToken,
    every: u64,
) -> Result<Sample, Failure> {
    let mut c = Client::connect(&addr).await?;
    let mut each = Sample::default();
    while !done.is_cancelled() {
        let t = Instant::now();
        c.ask("isready", "readyok").await?;
        each.0.push(ms(t));
        tokio::time::sleep(Duration::from_millis(every)).await;
    }
    Ok(each)
}

/// `rounds` timed searches, each `fixed` ms or drawn from 100..2000 by
/// `rng`; how late each answer came, ms.
pub(super) async fn searcher(
    addr: Arc<str>,
    rounds: usize,
    fixed: Option<u64>,
    mut rng: Rng,
) -> Result<Vec<f64>, Failure> {
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
    Ok(late)
}
