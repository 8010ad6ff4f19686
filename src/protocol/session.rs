//! A session's state: the game, the engine, a running job. Lines in, lines out.

use super::reply::{ErrorCode, error};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Settings a server gives every session it starts.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Transposition table size a session starts with, MiB.
    pub hash_mib: usize,
    /// The most `setoption name Hash` may ask for, MiB.
    pub max_hash_mib: usize,
}

impl Default for SessionOptions {
    fn default() -> SessionOptions {
        SessionOptions {
            hash_mib: 16,
            max_hash_mib: 1024,
        }
    }
}

/// What the server must do after handing the session a line or a finished job.
#[derive(Debug)]
pub enum Action {
    /// Write these lines, in order. Empty when the reply waits for the
    /// running job (a `stop` or `quit` during a search).
    Reply(Vec<String>),
    /// Run this job off the async workers and hand its result to
    /// [`Session::finish`]. Commands keep arriving meanwhile.
    Run(Job),
    /// Write these lines, then end the session.
    Quit(Vec<String>),
}

/// CPU-bound work of a session (a search, perft), run on a blocking thread.
#[derive(Debug)]
pub struct Job {
    stop: Arc<AtomicBool>,
}

/// The result of a [`Job`], to give back to the session that made it.
#[derive(Debug)]
pub struct JobDone {}

impl Job {
    /// Runs to completion on the calling thread. `emit` gets progress lines
    /// (`info ...`) as they are produced.
    pub fn run(self, emit: &mut dyn FnMut(String)) -> JobDone {
        let _ = (emit, &self.stop);
        JobDone {}
    }
}

pub struct Session {
    options: SessionOptions,
    running: Option<Arc<AtomicBool>>,
}

impl Session {
    pub fn new(options: SessionOptions) -> Session {
        Session {
            options,
            running: None,
        }
    }

    /// Handles one input line (without its line ending).
    pub fn handle_line(&mut self, line: &str) -> Action {
        let _ = &self.options;
        match line.trim() {
            "isready" => Action::Reply(vec!["readyok".into()]),
            "quit" => Action::Quit(vec!["ok bye".into()]),
            other => Action::Reply(vec![error(ErrorCode::UnknownCommand, other)]),
        }
    }

    /// Takes a finished job's result; returns its final lines.
    pub fn finish(&mut self, done: JobDone) -> Action {
        let _ = done;
        self.running = None;
        Action::Reply(Vec::new())
    }

    /// Whether a job is running.
    pub fn is_busy(&self) -> bool {
        self.running.is_some()
    }

    /// Raises the running job's stop flag (a peer left, the server is
    /// shutting down). Its result must still be handed to `finish`.
    pub fn interrupt(&self) {
        if let Some(stop) = &self.running {
            stop.store(true, Ordering::Relaxed);
        }
    }
}
