//! Helpers shared by the integration tests: peers over stdio or TCP with
//! timeouts, a real server process, an in-process server with its counters.

// Each test crate uses its own subset of these helpers.
#![allow(dead_code)]

use pawnrace::server::{Server, ServerConfig, Stats};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

pub const BIN: &str = env!("CARGO_BIN_EXE_pawnrace");

/// A fresh, empty directory for one test's files, named after the test
/// and this process (test binaries run at once must not share one).
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pawnrace-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
pub const LINE_TIMEOUT: Duration = Duration::from_secs(30);

/// The rule for a test whose tool this machine may lack (Chromium and
/// chromedriver, python-chess): where `CI` is set, to any value, the
/// missing tool fails the test; elsewhere the test says `SKIPPED` on stderr,
/// past the harness's capture so that a passing run shows it, and returns.
pub fn tool_missing(test: &str, why: &str) {
    if std::env::var_os("CI").is_some() {
        panic!("{test}: {why}; CI is set, so a missing tool is a failure");
    }
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: {test}: {why} (with CI set this fails)"
    );
}

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

    /// The next line that does not start with `info `.
    pub fn reply(&self) -> String {
        loop {
            let line = self.line();
            if !line.starts_with("info ") {
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

/// `pawnrace` speaking on its stdin/stdout.
pub struct StdioProcess {
    pub child: Child,
    pub peer: Peer,
}

impl StdioProcess {
    pub fn spawn(args: &[&str]) -> StdioProcess {
        StdioProcess::spawn_with_env(args, &[])
    }

    pub fn spawn_with_env(args: &[&str], env: &[(&str, &str)]) -> StdioProcess {
        let mut child = Command::new(BIN)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn pawnrace");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        StdioProcess {
            child,
            peer: Peer::new(Input::Stdin(Some(stdin)), stdout),
        }
    }
}

/// Waits for a child to exit, killing it if it takes too long.
pub fn wait_exit(child: &mut Child, timeout: Duration) -> Option<ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// `pawnrace serve` on a free loopback port.
pub struct ServerProcess {
    pub child: Child,
    pub addr: SocketAddr,
    /// The HTTP listener's address, for a server started with `--http`.
    pub http: Option<SocketAddr>,
}

impl ServerProcess {
    pub fn spawn(extra: &[&str]) -> ServerProcess {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(extra);
        ServerProcess::start(command, Arc::default())
    }

    /// A server allowed only `limit` open file descriptors (through the
    /// shell's `ulimit`), whose log lines go to `log`.
    pub fn spawn_with_fd_limit(limit: u32, log: Arc<Mutex<Vec<String>>>) -> ServerProcess {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            &format!(
                "ulimit -n {limit} && exec \"$0\" serve --listen 127.0.0.1:0 --max-connections 1000"
            ),
            BIN,
        ]);
        ServerProcess::start(command, log)
    }

    /// `pawnrace serve` with an HTTP listener too, both on free ports.
    pub fn spawn_with_http(extra: &[&str]) -> ServerProcess {
        ServerProcess::spawn(&[&["--http", "127.0.0.1:0"], extra].concat())
    }

    fn start(mut command: Command, log: Arc<Mutex<Vec<String>>>) -> ServerProcess {
        let http = command.get_args().any(|a| a == "--http");
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn pawnrace serve");
        let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
        let mut address = |suffix: &str| -> SocketAddr {
            let mut line = String::new();
            stderr.read_line(&mut line).expect("read stderr");
            line.trim()
                .strip_prefix("pawnrace listening on ")
                .and_then(|rest| rest.strip_suffix(suffix))
                .unwrap_or_else(|| panic!("unexpected stderr line: {line:?}"))
                .parse()
                .expect("address")
        };
        let addr = address("");
        let http = http.then(|| address(" (http)"));
        // Keep draining the logs, or a full pipe would stall the server.
        thread::spawn(move || {
            for line in stderr.lines() {
                let Ok(line) = line else { break };
                log.lock().unwrap_or_else(|e| e.into_inner()).push(line);
            }
        });
        ServerProcess { child, addr, http }
    }

    pub fn terminate(&mut self) -> Option<ExitStatus> {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("run kill");
        assert!(status.success(), "kill -TERM failed");
        wait_exit(&mut self.child, Duration::from_secs(30))
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `Server` running in this process, on its own runtime thread.
pub struct InProcess {
    pub addr: SocketAddr,
    pub stats: Arc<Stats>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<std::io::Result<()>>>,
}

impl InProcess {
    pub fn start(config: ServerConfig) -> InProcess {
        let server = Server::new(config);
        let stats = server.stats();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (addr_tx, addr_rx) = mpsc::channel();
        let thread = thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?;
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
                let _ = addr_tx.send(listener.local_addr()?);
                server
                    .run(listener, async move {
                        let _ = stopped.await;
                    })
                    .await
            })
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(10))
            .expect("server address");
        InProcess {
            addr,
            stats,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Triggers shutdown and waits for `serve` to return.
    pub fn shutdown(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread.join().expect("server thread"),
            None => Ok(()),
        }
    }
}

impl Drop for InProcess {
    fn drop(&mut self) {
        if self.stop.is_some() {
            let _ = self.shutdown();
        }
    }
}

/// Polls `cond` until it holds or `timeout` passes.
pub fn eventually(timeout: Duration, mut cond: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + timeout;
    while Instant::now() < deadline {
        if cond() {
            return true;
        }
        thread::sleep(Duration::from_millis(20));
    }
    cond()
}

/// `*` matches any run of characters; everything else matches itself.
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Runs the binary with `args` and `input` on stdin: whether it succeeded,
/// its stdout and its stderr.
pub fn run_binary(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A program that exits without reading its input closes the pipe; that
    // is its business, not a test failure.
    let _ = child.stdin.take().expect("stdin is piped").write_all(input);
    let out = child.wait_with_output().expect("the binary finishes");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
