//! The XBoard/WinBoard protocol on stdin/stdout: the stdio loop around the
//! sans-IO [`XBoard`] session. Lines are read on a thread of their own and
//! searches run on another, so that `?`, `force` and `quit` reach a
//! running search.

use crate::engine::{Engine, SearchInfo, SearchResult};
use crate::protocol::xboard::{Out, XBoard};
use crate::stop::Stop;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;

enum Event {
    Line(String),
    EndOfInput,
    Info(u64, SearchInfo),
    Done(u64, SearchResult),
}

struct Running {
    stop: Arc<Stop>,
    thread: JoinHandle<Box<Engine>>,
}

/// Speaks CECP until `quit` or the end of input, searching with tables of
/// `hash_mib` MiB.
pub fn run(hash_mib: usize) -> std::io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader = tx.clone();
    std::thread::Builder::new()
        .name("xboard-stdin".into())
        .spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if reader.send(Event::Line(line)).is_err() {
                    return;
                }
            }
            let _ = reader.send(Event::EndOfInput);
        })?;
    let mut session = XBoard::new();
    let mut engine = Some(Box::new(Engine::new(hash_mib)));
    let mut running: Option<Running> = None;
    let mut stdout = std::io::stdout().lock();
    while let Ok(event) = rx.recv() {
        let outs = match event {
            Event::Line(line) => {
                tracing::debug!("< {line}");
                session.handle_line(&line)
            }
            Event::EndOfInput => {
                finish(&mut running, &mut engine);
                return Ok(());
            }
            Event::Info(id, info) => session.thinking(id, &info).into_iter().collect(),
            Event::Done(id, result) => {
                finish(&mut running, &mut engine);
                session.searched(id, &result)
            }
        };
        for out in outs {
            match out {
                Out::Line(line) => {
                    tracing::debug!("> {line}");
                    writeln!(stdout, "{line}")?;
                }
                Out::Search { id, pos, limits } => {
                    finish(&mut running, &mut engine);
                    let mut held = engine
                        .take()
                        .unwrap_or_else(|| Box::new(Engine::new(hash_mib)));
                    let stop = Arc::new(Stop::new());
                    let flag = Arc::clone(&stop);
                    let tx: Sender<Event> = tx.clone();
                    let thread = std::thread::Builder::new()
                        .name("xboard-search".into())
                        .spawn(move || {
                            let progress = tx.clone();
                            let result = held.search(&pos, &limits, &flag, &mut |info| {
                                let _ = progress.send(Event::Info(id, info.clone()));
                            });
                            let _ = tx.send(Event::Done(id, result));
                            held
                        })?;
                    running = Some(Running { stop, thread });
                }
                Out::MoveNow => {
                    if let Some(search) = &running {
                        search.stop.raise();
                    }
                }
                Out::Abort => finish(&mut running, &mut engine),
                Out::Quit => {
                    stdout.flush()?;
                    finish(&mut running, &mut engine);
                    return Ok(());
                }
            }
        }
        stdout.flush()?;
    }
    Ok(())
}

/// Ends the running search, if any, and takes its engine back.
fn finish(running: &mut Option<Running>, engine: &mut Option<Box<Engine>>) {
    if let Some(search) = running.take() {
        search.stop.raise();
        match search.thread.join() {
            Ok(held) => *engine = Some(held),
            Err(_) => tracing::error!("the search thread panicked"),
        }
    }
}
