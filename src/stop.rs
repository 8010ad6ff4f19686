//! A job's stop signal, and the points where a job may be paused.
//!
//! Every long computation (search, solver, perft, analysis) polls its
//! [`Stop`] every few hundred nodes. The poll is also where a scheduler can
//! hold the job back while more urgent jobs use the cores: the server gives
//! each job a [`Pacer`] so that no more searches run at once than there are
//! cores, whatever the number of sessions. Without a pacer (the CLI, tests,
//! a match) polling only reads the flag.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// Decides when a job's threads may go on.
pub trait Pacer: Send + Sync {
    /// Called by the job's threads at every poll. Returns when the job may
    /// go on: at once while it holds the cores, otherwise once it gets
    /// them back, its deadline passes or `raised` is set.
    fn pause_point(&self, raised: &AtomicBool);
    /// The stop was raised: a paused job must go on at once (to see it).
    fn stopped(&self);
    /// The job no longer computes (it only waits for its stop): others may
    /// have its cores.
    fn idle(&self);
    /// The share of the cores the job can expect from now on, as (cores,
    /// jobs wanting them), when that is less than all it asked for.
    fn share(&self) -> Option<(usize, usize)>;
}

/// Raised once to end a job; read by all its threads.
#[derive(Default)]
pub struct Stop {
    raised: AtomicBool,
    pacer: OnceLock<Arc<dyn Pacer>>,
    /// Ends a job's helper threads, not the job: raising it tells no one.
    helper: bool,
}

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    /// A stop already raised: the job returns as soon as it starts.
    pub fn raised() -> Stop {
        let stop = Stop::new();
        stop.raise();
        stop
    }

    /// A stop for a job's helper threads, raised when the job's main
    /// thread is done with them: they pause with the job.
    pub fn for_helpers(&self) -> Stop {
        let stop = Stop {
            helper: true,
            ..Stop::default()
        };
        if let Some(pacer) = self.pacer.get() {
            let _ = stop.pacer.set(Arc::clone(pacer));
        }
        stop
    }

    pub fn raise(&self) {
        self.raised.store(true, Ordering::SeqCst);
        if self.helper {
            return;
        }
        if let Some(pacer) = self.pacer.get() {
            pacer.stopped();
        }
    }

    /// Whether the stop was raised; never pauses.
    pub fn is_raised(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
    }

    /// The poll of a long computation: it may pause here while other jobs
    /// have the cores, then says whether to stop.
    pub fn poll(&self) -> bool {
        if let Some(pacer) = self.pacer.get() {
            pacer.pause_point(&self.raised);
        }
        self.is_raised()
    }

    /// The share of the cores the job can expect, as (cores, jobs wanting
    /// them), when it has to share; `None` alone or without a pacer.
    pub fn share(&self) -> Option<(usize, usize)> {
        self.pacer.get().and_then(|p| p.share())
    }

    /// Paces the job with `pacer` from now on; false if it already had one.
    pub fn pace_with(&self, pacer: Arc<dyn Pacer>) -> bool {
        self.pacer.set(pacer).is_ok()
    }

    /// Waits, computing nothing, until the stop is raised (`go infinite`
    /// after its search ended): the cores go to other jobs meanwhile.
    pub fn wait_until_raised(&self) {
        if let Some(pacer) = self.pacer.get() {
            pacer.idle();
        }
        while !self.is_raised() {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl std::fmt::Debug for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stop")
            .field("raised", &self.is_raised())
            .field("paced", &self.pacer.get().is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[derive(Default)]
    struct Counting {
        polls: AtomicUsize,
        stops: AtomicUsize,
        idles: AtomicUsize,
    }

    impl Pacer for Counting {
        fn pause_point(&self, _: &AtomicBool) {
            self.polls.fetch_add(1, Ordering::SeqCst);
        }
        fn stopped(&self) {
            self.stops.fetch_add(1, Ordering::SeqCst);
        }
        fn idle(&self) {
            self.idles.fetch_add(1, Ordering::SeqCst);
        }
        fn share(&self) -> Option<(usize, usize)> {
            Some((1, 2))
        }
    }

    #[test]
    fn polls_go_through_the_pacer_and_a_raise_reaches_it() {
        let pacer = Arc::new(Counting::default());
        let stop = Stop::new();
        assert!(!stop.poll());
        assert!(stop.pace_with(pacer.clone()));
        assert!(!stop.pace_with(pacer.clone()), "one pacer per stop");
        assert!(!stop.poll());
        assert!(!stop.poll());
        stop.raise();
        assert!(stop.poll());
        stop.wait_until_raised();
        assert_eq!(pacer.polls.load(Ordering::SeqCst), 3);
        assert_eq!(pacer.stops.load(Ordering::SeqCst), 1);
        assert_eq!(pacer.idles.load(Ordering::SeqCst), 1);
        assert!(Stop::raised().is_raised());
        assert_eq!(stop.share(), Some((1, 2)));
        assert_eq!(Stop::new().share(), None);

        let stop = Stop::new();
        stop.pace_with(pacer.clone());
        let helpers = stop.for_helpers();
        assert!(!helpers.poll());
        helpers.raise();
        assert!(helpers.poll() && !stop.is_raised());
        assert_eq!(pacer.polls.load(Ordering::SeqCst), 5);
        assert_eq!(pacer.stops.load(Ordering::SeqCst), 1, "helpers end quietly");
    }
}
