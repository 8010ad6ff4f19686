//! One side of a session, over a process's pipes or a TCP connection, with
//! a timeout on every wait.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{ChildStdin, ChildStdout};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub const LINE_TIMEOUT: Duration = Duration::from_secs(30);

enum Input {
    Stdin(Option<ChildStdin>),
    Tcp(TcpStream),
}

/// One side of a session: lines out, lines in (read on a thread so every
/// wait can time out, and so the server never blocks on a full pipe).
pub struct Peer {
    // Behind a lock so a peer can be shared between its test's threads.
    input: std::sync::Mutex<Input>,
    lines: Receiver<String>,
}

#[derive(Debug, PartialEq, Eq)]
pub enum Recv {
    Line(String),
    Eof,
    Timeout,
}

impl Peer {
    fn new(input: Input, output: impl Read + Send + 'static) -> Peer {
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            let mut reader = BufReader::new(output);
            loop {
                let mut buf = Vec::new();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if buf.last() == Some(&b'\n') {
                            buf.pop();
                        }
                        if tx.send(String::from_utf8_lossy(&buf).into_owned()).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Peer {
            input: std::sync::Mutex::new(input),
            lines,
        }
    }

    /// A process's side of a session, over its stdin and stdout.
    pub fn over_pipes(stdin: ChildStdin, stdout: ChildStdout) -> Peer {
        Peer::new(Input::Stdin(Some(stdin)), stdout)
    }

    pub fn connect(addr: SocketAddr) -> Peer {
        let stream = TcpStream::connect(addr).expect("connect");
        let output = stream.try_clone().expect("clone stream");
        Peer::new(Input::Tcp(stream), output)
    }

    /// Sends raw bytes; a peer that already left is not an error here, what
    /// it said before leaving is what the test checks.
    pub fn send_bytes(&self, bytes: &[u8]) {
        let mut input = self.input.lock().unwrap_or_else(|e| e.into_inner());
        let _ = match &mut *input {
            Input::Stdin(Some(stdin)) => stdin.write_all(bytes).and_then(|_| stdin.flush()),
            Input::Stdin(None) => Ok(()),
            Input::Tcp(stream) => stream.write_all(bytes),
        };
    }

    pub fn send(&self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    pub fn close_input(&self) {
        let mut input = self.input.lock().unwrap_or_else(|e| e.into_inner());
        match &mut *input {
            Input::Stdin(stdin) => drop(stdin.take()),
            Input::Tcp(stream) => {
                let _ = stream.shutdown(Shutdown::Write);
            }
        }
    }

    pub fn recv_within(&self, timeout: Duration) -> Recv {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => Recv::Line(line),
            Err(RecvTimeoutError::Disconnected) => Recv::Eof,
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
        }
    }

    pub fn recv(&self) -> Recv {
        self.recv_within(LINE_TIMEOUT)
    }

    /// The next line, or a panic naming what came instead.
    pub fn line(&self) -> String {
        match self.recv() {
            Recv::Line(line) => line,
            other => panic!("expected a line, got {other:?}"),
        }
    }

    /// The next final line (the protocol's rule, as every client reads
    /// it), past the lines of the reply before it.
    pub fn reply(&self) -> String {
        loop {
            let line = self.line();
            if pawnrace::protocol::is_final_line(&line) {
                return line;
            }
        }
    }

    /// Reads to EOF; returns every line on the way.
    pub fn rest(&self, timeout: Duration) -> Result<Vec<String>, Vec<String>> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            match self.recv_within(deadline.saturating_duration_since(Instant::now())) {
                Recv::Line(line) => lines.push(line),
                Recv::Eof => return Ok(lines),
                Recv::Timeout => return Err(lines),
            }
        }
    }

    pub fn expect_eof(&self) {
        match self.rest(LINE_TIMEOUT) {
            Ok(lines) if lines.is_empty() => {}
            Ok(lines) => panic!("expected EOF, got {lines:?}"),
            Err(lines) => panic!("no EOF in time; got {lines:?}"),
        }
    }
}
