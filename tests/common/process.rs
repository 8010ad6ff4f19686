//! The real binary as a child process: speaking over stdio, serving on a
//! free loopback port, or run once to its end.

use super::{BIN, Peer};
use std::io::{BufRead, BufReader, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

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
            peer: Peer::over_pipes(stdin, stdout),
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

    /// `pawnrace serve` with `extra`, its log lines (past the addresses)
    /// kept in `log`.
    pub fn spawn_logged(extra: &[&str], log: Arc<Mutex<Vec<String>>>) -> ServerProcess {
        let mut command = Command::new(BIN);
        command
            .args(["serve", "--listen", "127.0.0.1:0"])
            .args(extra);
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

/// Runs the binary with `args` and `input` on stdin: whether it succeeded,
/// its stdout and its stderr.
pub fn run_binary(args: &[&str], input: &[u8]) -> (bool, String, String) {
    run_command(Command::new(BIN).args(args), input)
}

/// Runs `command` with `input` on stdin: whether it succeeded, its stdout
/// and its stderr.
pub fn run_command(command: &mut Command, input: &[u8]) -> (bool, String, String) {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} does not start: {e}"));
    // A program that exits without reading its input closes the pipe; that
    // is its business, not a test failure.
    let _ = child.stdin.take().expect("stdin is piped").write_all(input);
    let out = child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{program} does not finish: {e}"));
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}
