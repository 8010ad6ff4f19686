//! An engine as a stream of lines: a child process's stdin and stdout, or
//! a TCP session. Lines are read on a thread of their own so that every
//! wait has a deadline, and so that an engine never blocks on a full pipe
//! while we are busy with its opponent.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// No protocol line is anywhere near this long; the cap keeps an engine
/// that never sends a newline from filling our memory.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why no line came.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Silence {
    /// The stream ended: the process exited or the connection was closed.
    Eof,
    /// Nothing by the deadline.
    Timeout,
}

/// One engine connection. Dropping it kills the process (or closes the
/// socket), so a stuck engine never outlives its game.
pub struct LineConn {
    writer: Box<dyn Write + Send>,
    lines: Receiver<String>,
    child: Option<Child>,
    socket: Option<TcpStream>,
}

impl LineConn {
    /// Starts `argv` with piped stdin and stdout. The engine's stderr goes
    /// to our log at debug level (see [`log_lines`]).
    pub fn spawn(argv: &[String]) -> io::Result<LineConn> {
        let (program, args) = argv
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty engine command"))?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let stdin = child.stdin.take().expect("stdin was piped");
        let stdout = child.stdout.take().expect("stdout was piped");
        if let Some(stderr) = child.stderr.take() {
            log_lines(stderr, argv.join(" "));
        }
        Ok(LineConn {
            writer: Box::new(stdin),
            lines: read_lines(stdout),
            child: Some(child),
            socket: None,
        })
    }

    /// Opens a TCP session with a pawnrace server at `host:port`.
    pub fn connect(addr: &str) -> io::Result<LineConn> {
        let stream = TcpStream::connect(addr)?;
        // Moves are single short lines; Nagle would only delay them.
        stream.set_nodelay(true)?;
        let reader = stream.try_clone()?;
        let writer = stream.try_clone()?;
        Ok(LineConn {
            writer: Box::new(writer),
            lines: read_lines(reader),
            child: None,
            socket: Some(stream),
        })
    }

    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.writer.write_all(format!("{line}\n").as_bytes())?;
        self.writer.flush()
    }

    /// Sends `quit` and gives the engine `grace` to exit by itself before
    /// the drop kills it, so that an engine that tidies up on `quit`
    /// (flushes a log, stops its threads) gets the chance.
    pub fn quit(mut self, grace: Duration) {
        if self.send("quit").is_err() {
            return;
        }
        let deadline = Instant::now() + grace;
        if let Some(child) = &mut self.child {
            while Instant::now() < deadline && matches!(child.try_wait(), Ok(None)) {
                thread::sleep(Duration::from_millis(5));
            }
        }
    }

    /// The next line, waiting until `deadline` at most.
    pub fn recv_until(&mut self, deadline: Instant) -> Result<String, Silence> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(Silence::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(Silence::Eof),
        }
    }
}

impl Drop for LineConn {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            // Reaps the process so that a long match leaves no zombies.
            let _ = child.wait();
        }
        if let Some(socket) = &self.socket {
            let _ = socket.shutdown(Shutdown::Both);
        }
    }
}

/// Lines from `source` on a channel that closes at the end of the stream.
fn read_lines(source: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || each_line(source, |line| tx.send(line).is_ok()));
    rx
}

/// An engine's stderr into our log at debug level, each line under the
/// engine's command: read to the end, so that a chatty engine never blocks
/// on a full pipe, and out of the way of the progress line unless asked for
/// (`RUST_LOG=pawnrace::tournament=debug`).
fn log_lines(source: impl Read + Send + 'static, engine: String) {
    thread::spawn(move || {
        each_line(source, |line| {
            tracing::debug!(%engine, "stderr: {line}");
            true
        })
    });
}

/// Calls `f` with each line of `source` (without its line end; an overlong
/// line comes in pieces) until the stream ends or `f` says stop.
fn each_line(source: impl Read, mut f: impl FnMut(String) -> bool) {
    let mut reader = BufReader::new(source);
    loop {
        let mut buf = Vec::new();
        match (&mut reader)
            .take(MAX_LINE_BYTES as u64)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&buf);
                if !f(text.trim_end_matches(['\n', '\r']).to_string()) {
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn sh(script: &str) -> LineConn {
        LineConn::spawn(&["sh".into(), "-c".into(), script.into()]).unwrap()
    }

    #[test]
    fn lines_then_end_of_stream() {
        let mut conn = sh("read x; echo \"got $x\"; printf 'a\\r\\nb'");
        conn.send("hello").unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        assert_eq!(conn.recv_until(deadline), Ok("got hello".into()));
        assert_eq!(conn.recv_until(deadline), Ok("a".into()));
        assert_eq!(conn.recv_until(deadline), Ok("b".into()));
        assert_eq!(conn.recv_until(deadline), Err(Silence::Eof));
    }

    #[test]
    fn silence_times_out() {
        let mut conn = sh("sleep 5");
        let deadline = Instant::now() + Duration::from_millis(50);
        assert_eq!(conn.recv_until(deadline), Err(Silence::Timeout));
    }

    #[test]
    fn a_chatty_stderr_never_blocks_the_engine() {
        // Far more than a pipe holds: unread, the engine would stall.
        let mut conn = sh(
            "i=0; while [ $i -lt 3000 ]; do echo 'log line of some length here' >&2; i=$((i+1)); done; echo done",
        );
        let deadline = Instant::now() + Duration::from_secs(10);
        assert_eq!(conn.recv_until(deadline), Ok("done".into()));
    }

    #[test]
    fn long_lines_come_in_pieces() {
        let text = format!("{}\nshort\r\n", "x".repeat(MAX_LINE_BYTES + 5));
        let mut lines = Vec::new();
        each_line(text.as_bytes(), |l| {
            lines.push(l.len());
            true
        });
        assert_eq!(lines, [MAX_LINE_BYTES, 5, 5]);
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(LineConn::spawn(&["/nonexistent/engine".into()]).is_err());
        assert!(LineConn::spawn(&[]).is_err());
    }
}
