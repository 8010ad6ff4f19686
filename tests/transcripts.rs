//! Replays every `tests/transcripts/*.txt` against the real binary, once over
//! stdio and once over TCP; each (file, transport) pair is its own case.
//!
//! The file list is only known at run time, so this test brings its own
//! small harness (`harness = false`): `cargo test --test transcripts NAME`
//! filters by substring, `-- --list` lists the cases.

mod common;

use common::{Peer, Recv, ServerProcess, StdioProcess, glob, wait_exit};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const EOF_TIMEOUT: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug)]
enum Transport {
    Stdio,
    Tcp,
}

struct Case {
    name: String,
    path: PathBuf,
    transport: Transport,
}

enum Step {
    Send(Vec<u8>),
    Expect {
        line: usize,
        pattern: String,
        glob: bool,
    },
}

fn parse(text: &str) -> Result<Vec<Step>, String> {
    let mut steps = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let step = if let Some(count) = line.strip_prefix(">long ") {
            let count: usize = count
                .trim()
                .parse()
                .map_err(|e| format!("line {n}: bad >long: {e}"))?;
            let mut bytes = vec![b'x'; count];
            bytes.push(b'\n');
            Step::Send(bytes)
        } else if let Some(hex) = line.strip_prefix(">bytes ") {
            let mut bytes = hex
                .split_whitespace()
                .map(|h| {
                    u8::from_str_radix(h, 16)
                        .map_err(|e| format!("line {n}: bad hex byte {h:?}: {e}"))
                })
                .collect::<Result<Vec<u8>, String>>()?;
            bytes.push(b'\n');
            Step::Send(bytes)
        } else if let Some(send) =
            line.strip_prefix("> ")
                .or(if line == ">" { Some("") } else { None })
        {
            Step::Send(format!("{send}\n").into_bytes())
        } else if let Some(pattern) = line.strip_prefix("<? ") {
            Step::Expect {
                line: n,
                pattern: pattern.to_string(),
                glob: true,
            }
        } else if let Some(pattern) =
            line.strip_prefix("< ")
                .or(if line == "<" { Some("") } else { None })
        {
            Step::Expect {
                line: n,
                pattern: pattern.to_string(),
                glob: false,
            }
        } else {
            return Err(format!("line {n}: not a transcript line: {line:?}"));
        };
        steps.push(step);
    }
    Ok(steps)
}

fn replay(file: &str, steps: &[Step], peer: &Peer) -> Result<(), String> {
    for step in steps {
        match step {
            Step::Send(bytes) => peer.send_bytes(bytes),
            Step::Expect {
                line,
                pattern,
                glob: is_glob,
            } => {
                let wants_info = pattern.starts_with("info");
                // A proof's progress (`info nodes ...`) comes about once a
                // second and as each phase ends: how many lines depends on
                // the machine, so a transcript has them only where it asks
                // for one.
                let wants_progress = pattern.starts_with("info nodes");
                let got = loop {
                    match peer.recv() {
                        Recv::Line(got) if !wants_info && got.starts_with("info ") => continue,
                        Recv::Line(got) if !wants_progress && got.starts_with("info nodes ") => {
                            continue;
                        }
                        Recv::Line(got) => break got,
                        Recv::Eof => {
                            return Err(format!(
                                "{file}:{line}: expected {pattern:?}, got end of output"
                            ));
                        }
                        Recv::Timeout => {
                            return Err(format!(
                                "{file}:{line}: expected {pattern:?}, got nothing in time"
                            ));
                        }
                    }
                };
                let ok = if *is_glob {
                    glob(pattern, &got)
                } else {
                    got == *pattern
                };
                if !ok {
                    return Err(format!("{file}:{line}: expected {pattern:?}, got {got:?}"));
                }
            }
        }
    }
    peer.close_input();
    let (rest, eof) = match peer.rest(EOF_TIMEOUT) {
        Ok(rest) => (rest, true),
        Err(rest) => (rest, false),
    };
    let leftover: Vec<&String> = rest.iter().filter(|l| !l.starts_with("info ")).collect();
    if !leftover.is_empty() {
        return Err(format!(
            "{file}: unexpected output after the last expectation: {leftover:?}"
        ));
    }
    if !eof {
        return Err(format!(
            "{file}: output did not end within {} s of closing the input",
            EOF_TIMEOUT.as_secs()
        ));
    }
    Ok(())
}

fn run_case(case: &Case, server: Option<SocketAddr>) -> Result<(), String> {
    let text =
        std::fs::read_to_string(&case.path).map_err(|e| format!("{}: {e}", case.path.display()))?;
    let file = case
        .path
        .file_name()
        .map_or_else(String::new, |f| f.to_string_lossy().into_owned());
    let steps = parse(&text).map_err(|e| format!("{file}: {e}"))?;
    match case.transport {
        Transport::Stdio => {
            let mut process = StdioProcess::spawn(&[]);
            let replayed = replay(&file, &steps, &process.peer);
            let status = wait_exit(&mut process.child, Duration::from_secs(10));
            replayed?;
            match status {
                Some(status) if status.success() => Ok(()),
                Some(status) => Err(format!("{file}: pawnrace exited with {status}")),
                None => Err(format!(
                    "{file}: pawnrace did not exit after its input closed"
                )),
            }
        }
        Transport::Tcp => {
            let addr = server.ok_or("no server")?;
            replay(&file, &steps, &Peer::connect(addr))
        }
    }
}

/// Every case of the transcripts in `dir`. A folder that cannot be read or
/// holds no transcript is an error: a harness that ran nothing must not pass.
fn cases(dir: &Path) -> Result<Vec<Case>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
            .path();
        if path.extension().is_some_and(|e| e == "txt") {
            files.push(path);
        }
    }
    if files.is_empty() {
        return Err(format!("no transcript (*.txt) in {}", dir.display()));
    }
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let stem = path
            .file_stem()
            .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
        for (transport, suffix) in [(Transport::Stdio, "stdio"), (Transport::Tcp, "tcp")] {
            cases.push(Case {
                name: format!("{stem}::{suffix}"),
                path: path.clone(),
                transport,
            });
        }
    }
    Ok(cases)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let list = args.iter().any(|a| a == "--list");
    let exact = args.iter().any(|a| a == "--exact");
    // Flags that take a value; their values are not name filters.
    let valued = [
        "--test-threads",
        "--format",
        "--color",
        "--logfile",
        "--skip",
        "-Z",
    ];
    let mut filters = Vec::new();
    let mut skip_next = false;
    for arg in &args {
        if skip_next {
            skip_next = false;
        } else if valued.contains(&arg.as_str()) {
            skip_next = true;
        } else if !arg.starts_with('-') {
            filters.push(arg.clone());
        }
    }
    // This harness has no ignored cases.
    let only_ignored = args.iter().any(|a| a == "--ignored");

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut cases = match cases(&dir) {
        Ok(cases) => cases,
        Err(why) => {
            eprintln!("transcripts: {why}");
            std::process::exit(101);
        }
    };
    cases.retain(|c| {
        filters.is_empty()
            || filters.iter().any(|f| {
                if exact {
                    c.name == *f
                } else {
                    c.name.contains(f.as_str())
                }
            })
    });
    if only_ignored {
        cases.clear();
    }
    if list {
        for case in &cases {
            println!("{}: test", case.name);
        }
        return;
    }

    let server = cases
        .iter()
        .any(|c| matches!(c.transport, Transport::Tcp))
        .then(|| ServerProcess::spawn(&[]));
    println!("\nrunning {} tests", cases.len());
    let addr = server.as_ref().map(|s| s.addr);

    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(String, Result<(), String>)>> = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .clamp(2, 8);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(case) = cases.get(i) else { break };
                    let result = run_case(case, addr);
                    println!(
                        "test {} ... {}",
                        case.name,
                        if result.is_ok() { "ok" } else { "FAILED" }
                    );
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((case.name.clone(), result));
                }
            });
        }
    });

    // Its clean exit on SIGTERM is tests/server.rs's to check.
    drop(server);
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let failures: Vec<_> = results
        .iter()
        .filter_map(|(name, r)| r.as_ref().err().map(|e| (name, e)))
        .collect();
    if !failures.is_empty() {
        println!("\nfailures:");
        for (name, error) in &failures {
            println!("    {name}: {error}");
        }
    }
    let passed = results.len() - failures.len();
    println!(
        "\ntest result: {}. {passed} passed; {} failed\n",
        if failures.is_empty() { "ok" } else { "FAILED" },
        failures.len()
    );
    if !failures.is_empty() {
        std::process::exit(101);
    }
}
