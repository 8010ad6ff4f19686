//! Live counters of a server, for operators and tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

#[derive(Debug, Default)]
pub struct Stats {
    sessions: AtomicUsize,
    waiting_jobs: AtomicUsize,
    running_jobs: AtomicUsize,
    accepted: AtomicU64,
    rejected: AtomicU64,
    pauses: AtomicU64,
}

impl Stats {
    /// Sessions currently open.
    pub fn active_sessions(&self) -> usize {
        self.sessions.load(Ordering::SeqCst)
    }

    /// Jobs that want the cores and wait for them: not started yet, or
    /// paused for jobs due sooner (see the server's scheduler).
    pub fn queued_jobs(&self) -> usize {
        self.waiting_jobs.load(Ordering::SeqCst)
    }

    /// Jobs with a thread right now, computing or waiting.
    pub fn running_jobs(&self) -> usize {
        self.running_jobs.load(Ordering::SeqCst)
    }

    /// Connections that got a session, since the server started.
    pub fn accepted(&self) -> u64 {
        self.accepted.load(Ordering::SeqCst)
    }

    /// Connections turned away by the connection cap.
    pub fn rejected(&self) -> u64 {
        self.rejected.load(Ordering::SeqCst)
    }

    /// Times a computing job was paused for one due sooner, since the
    /// server started.
    pub fn pauses(&self) -> u64 {
        self.pauses.load(Ordering::SeqCst)
    }

    /// `sessions 20 accepted 45 rejected 0 jobs-running 2 jobs-waiting 0
    /// pauses 0`: the counters as `serve --stats-interval` logs them, words
    /// and numbers for a log reader to split.
    pub fn summary(&self) -> String {
        format!(
            "sessions {} accepted {} rejected {} jobs-running {} jobs-waiting {} pauses {}",
            self.active_sessions(),
            self.accepted(),
            self.rejected(),
            self.running_jobs(),
            self.queued_jobs(),
            self.pauses()
        )
    }

    pub(crate) fn session(self: &Arc<Self>) -> Gauge {
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Gauge::up(self, |s| &s.sessions)
    }

    pub(crate) fn running_job(self: &Arc<Self>) -> Gauge {
        Gauge::up(self, |s| &s.running_jobs)
    }

    pub(crate) fn set_waiting_jobs(&self, n: usize) {
        self.waiting_jobs.store(n, Ordering::SeqCst);
    }

    pub(crate) fn count_pause(&self) {
        self.pauses.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn count_rejected(&self) {
        self.rejected.fetch_add(1, Ordering::SeqCst);
    }
}

/// Holds one unit of a counter; gives it back when dropped, so every path
/// out of a session or a job (including a panic) keeps the counts right.
pub(crate) struct Gauge {
    stats: Arc<Stats>,
    field: fn(&Stats) -> &AtomicUsize,
}

impl Gauge {
    fn up(stats: &Arc<Stats>, field: fn(&Stats) -> &AtomicUsize) -> Gauge {
        field(stats).fetch_add(1, Ordering::SeqCst);
        Gauge {
            stats: Arc::clone(stats),
            field,
        }
    }
}

impl Drop for Gauge {
    fn drop(&mut self) {
        (self.field)(&self.stats).fetch_sub(1, Ordering::SeqCst);
    }
}
