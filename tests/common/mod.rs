//! Helpers shared by the integration tests: peers over stdio or TCP with
//! timeouts (`peer`), the real binary as a process (`process`), a server in
//! this process with its counters (`in_process`), and the rule for tests
//! whose tools a machine may lack.

// Each test crate uses its own subset of these helpers.
#![allow(dead_code, unused_imports)]

mod in_process;
mod peer;
mod process;

pub use in_process::InProcess;
pub use peer::{LINE_TIMEOUT, Peer, Recv};
pub use process::{ServerProcess, StdioProcess, run_binary, run_command, wait_exit};

use std::io::Write;
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

/// That `line` matches `pattern` ([`glob`]), or a panic showing both.
pub fn assert_glob(pattern: &str, line: &str) {
    assert!(glob(pattern, line), "expected {pattern:?}, got {line:?}");
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
