//! The Python clients in `clients/python/` against a real `pawnrace serve`.
//! They are part of what we ship, so a machine without `python3` fails here
//! rather than skipping them unnoticed.

mod common;

use common::{ServerProcess, wait_exit};
use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const PYTHON: &str = "python3";
/// Whole games at short move times finish in a few seconds.
const TIMEOUT: Duration = Duration::from_secs(120);

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
}

/// Runs `python3 clients/python/<script> --port <port> <args>` to its end.
fn python(script: &str, port: u16, args: &[&str]) -> Run {
    let path = format!("{}/clients/python/{script}", env!("CARGO_MANIFEST_DIR"));
    let port = port.to_string();
    let mut child = match Command::new(PYTHON)
        .arg(&path)
        .args(["--port", &port])
        .args(args)
        // Keep the source tree as it was checked out.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!(
            "cannot run {PYTHON} ({e}): the Python clients are tested against a real \
             server and need CPython 3.8 or newer on PATH (e.g. apt-get install python3)"
        ),
    };
    // Read on threads, so a chatty script cannot fill a pipe and stall.
    let drain = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("stderr")));
    let status = wait_exit(&mut child, TIMEOUT);
    let run = Run {
        success: status.is_some_and(|s| s.success()),
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
    };
    assert!(
        run.success,
        "{script} {args:?} failed ({status:?})\nstdout:\n{}\nstderr:\n{}",
        run.stdout, run.stderr
    );
    run
}

/// The last line must be `result <white-wins|black-wins|draw> <reason>`.
fn assert_result_line(run: &Run) {
    let last = run.stdout.lines().last().unwrap_or_default();
    let words: Vec<&str> = last.split_whitespace().collect();
    assert!(
        matches!(
            words.as_slice(),
            ["result", "white-wins" | "black-wins" | "draw", _, ..]
        ),
        "no result line at the end:\n{}",
        run.stdout
    );
}

#[test]
fn the_client_librarys_own_tests_pass() {
    let server = ServerProcess::spawn(&[]);
    let run = python("test_client.py", server.addr.port(), &[]);
    // unittest reports on stderr.
    assert!(run.stderr.contains("OK"), "{}", run.stderr);
}

#[test]
fn the_example_bot_plays_a_game_as_either_colour() {
    let server = ServerProcess::spawn(&[]);
    let port = server.addr.port();
    let white = python(
        "example_bot.py",
        port,
        &["--colour", "white", "--seed", "1", "--movetime", "50"],
    );
    assert_result_line(&white);
    assert!(
        white.stdout.starts_with("engine chose gaps "),
        "{}",
        white.stdout
    );
    let black = python(
        "example_bot.py",
        port,
        &["--colour", "black", "--seed", "2", "--movetime", "50"],
    );
    assert_result_line(&black);
    assert!(
        black.stdout.starts_with("bot chose gaps "),
        "{}",
        black.stdout
    );
}

#[test]
fn selfplay_plays_a_game_between_two_sessions() {
    let server = ServerProcess::spawn(&[]);
    let run = python("selfplay.py", server.addr.port(), &["--movetime", "50"]);
    assert_result_line(&run);
    let first = run.stdout.lines().next().unwrap_or_default();
    assert!(first.starts_with("gaps "), "{}", run.stdout);
    assert!(run.stdout.contains("1. "), "{}", run.stdout);
}

/// python-chess drives pawnrace as a UCI engine: games to their end (a
/// promotion, the last capture or no move), a promotion, analysis, a refused
/// position, `Gaps` for a GUI's `position startpos`, and not one line it
/// does not understand. python-chess comes from PyPI
/// (`.ci/run` installs it); a machine without it fails this test where `CI`
/// is set and skips it loudly elsewhere (`common::tool_missing`).
#[test]
fn python_chess_drives_pawnrace_as_a_uci_engine() {
    let script = format!(
        "{}/clients/python/python_chess_uci.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut child = Command::new(PYTHON)
        .args([script.as_str(), "--engine", common::BIN])
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let mut err = String::new();
    let _ = stderr.read_to_string(&mut err);
    let status = wait_exit(&mut child, TIMEOUT);
    let out = out.join().unwrap_or_default();
    // The script's code for "python-chess is not installed".
    if status.and_then(|s| s.code()) == Some(3) {
        let why = format!(
            "python-chess is not installed (pip install chess): {}",
            err.trim()
        );
        common::tool_missing("python_chess_drives_pawnrace_as_a_uci_engine", &why);
        return;
    }
    assert!(
        status.is_some_and(|s| s.success()),
        "python_chess_uci.py failed ({status:?})\nstdout:\n{out}\nstderr:\n{err}"
    );
    assert!(out.contains("no complaints"), "{out}");
}
