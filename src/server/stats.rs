//! Live counters of a server, for operators and tests.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

#[derive(Debug, Default)]
pub struct Stats {
    sessions: AtomicUsize,
    queued_jobs: AtomicUsize,
    running_jobs: AtomicUsize,
    accepted: AtomicU64,
    rejected: AtomicU64,
    unqueued: AtomicU64,
}

impl Stats {
    /// Sessions currently open.
    pub fn active_sessions(&self) -> usize {
        self.sessions.load(Ordering::SeqCst)
    }

    /// Jobs waiting for a search slot.
    pub fn queued_jobs(&self) -> usize {
        self.queued_jobs.load(Ordering::SeqCst)
    }

    /// Jobs running on a blocking thread right now.
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

    /// Timed searches that ran beside the search slots, having waited for
    /// one half their time.
    pub fn unqueued_jobs(&self) -> u64 {
        self.unqueued.load(Ordering::SeqCst)
    }

    pub(crate) fn session(self: &Arc<Self>) -> Gauge {
        self.accepted.fetch_add(1, Ordering::SeqCst);
        Gauge::up(self, |s| &s.sessions)
    }

    pub(crate) fn queued_job(self: &Arc<Self>) -> Gauge {
        Gauge::up(self, |s| &s.queued_jobs)
    }

    pub(crate) fn running_job(self: &Arc<Self>) -> Gauge {
        Gauge::up(self, |s| &s.running_jobs)
    }

    pub(crate) fn count_unqueued_job(&self) {
        self.unqueued.fetch_add(1, Ordering::SeqCst);
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
