//! Who gets the cores: at most one search thread per core computes at a
//! time, chosen earliest deadline first, whatever the number of sessions.
//!
//! Every job of the server runs on a thread of its own, but a job computes
//! only while the scheduler lets it: at each poll of its [`Stop`] (every
//! few hundred nodes) a job that lost its turn parks until it gets the
//! cores back, its deadline comes or it is stopped. So the operating system
//! never has more busy search threads than cores to share out, and:
//! - a timed search that waited wakes at its deadline and, its answer
//!   being due, goes before every job whose answer is not (stopped jobs
//!   too): late answers are served one core's turn after another, rather
//!   than all at once and all late;
//! - the threads that read commands and write replies find a core free
//!   within a time slice of one job, not of every job;
//! - a crowded machine makes each move weaker, never later: the cores go
//!   to the jobs whose answers are due first (earliest deadline first
//!   meets every deadline whenever they can all be met).
//!
//! Untimed work (`go infinite`, `go depth N` alone, `go ponder`, `solve`,
//! `perft`, `analyse`) has no deadline; it gets a virtual one a second
//! after it last got the cores, and gives them up after 50 ms of use when
//! something is due sooner. So it cannot starve timed work, and timed work
//! leaves it turns too.
//!
//! [`Stop`]: crate::stop::Stop

use super::stats::Stats;
use crate::stop::Pacer;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long untimed work runs before it checks whether something else is
/// due sooner.
const UNTIMED_SLICE: Duration = Duration::from_millis(50);

/// Untimed work's virtual deadline: this long after it last got the cores.
const UNTIMED_PERIOD: Duration = Duration::from_secs(1);

/// The cores of one server, shared out among its jobs.
pub(crate) struct Scheduler {
    slots: usize,
    state: Mutex<State>,
    stats: Arc<Stats>,
}

#[derive(Default)]
struct State {
    jobs: Vec<Entry>,
    next_id: u64,
}

struct Entry {
    id: u64,
    ticket: Arc<Ticket>,
    /// Cores it keeps busy while it runs (at most all of them).
    weight: usize,
    /// When its turn is due: the deadline of a timed job; for untimed
    /// work, `UNTIMED_PERIOD` after it last got the cores.
    due: Instant,
    phase: Phase,
    /// Stopped or past its deadline: its answer is due now, so it goes
    /// before every job that is not (it needs only a moment).
    urgent: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Waiting,
    Running,
    /// Only waits for its stop (`go infinite` after its search ended).
    Idle,
}

/// One job's place in the scheduler; its [`Pacer`].
pub(crate) struct Ticket {
    id: u64,
    scheduler: Arc<Scheduler>,
    /// Set while the job may compute; read at every poll.
    run: AtomicBool,
    deadline: Option<Instant>,
    /// When untimed work last got the cores, for its slice.
    since: Mutex<Instant>,
    /// Wakes this job's parked threads (they wait on the state's lock).
    wake: Condvar,
}

/// What the scheduler is doing.
#[cfg(test)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Load {
    pub running: usize,
    pub waiting: usize,
}

impl Scheduler {
    pub fn new(slots: usize, stats: Arc<Stats>) -> Arc<Scheduler> {
        Arc::new(Scheduler {
            slots: slots.max(1),
            state: Mutex::new(State::default()),
            stats,
        })
    }

    /// Takes a job in. `threads` are the cores it keeps busy; `deadline`,
    /// for a timed job, when it must have answered. It may compute at once
    /// or only later; either way the returned ticket paces it and must be
    /// handed back with [`Scheduler::leave`] when the job ends.
    pub fn admit(self: &Arc<Self>, threads: usize, deadline: Option<Instant>) -> Arc<Ticket> {
        let now = Instant::now();
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        let ticket = Arc::new(Ticket {
            id,
            scheduler: Arc::clone(self),
            run: AtomicBool::new(false),
            deadline,
            since: Mutex::new(now),
            wake: Condvar::new(),
        });
        state.jobs.push(Entry {
            id,
            ticket: Arc::clone(&ticket),
            weight: threads.clamp(1, self.slots),
            due: deadline.unwrap_or(now + UNTIMED_PERIOD),
            phase: Phase::Waiting,
            urgent: false,
        });
        self.rebalance(&mut state);
        ticket
    }

    /// The job of `ticket` has ended: its cores go to the next.
    fn leave(&self, ticket: &Ticket) {
        let mut state = self.lock();
        state.jobs.retain(|e| e.id != ticket.id);
        self.rebalance(&mut state);
    }

    #[cfg(test)]
    fn load(&self) -> Load {
        let state = self.lock();
        let count = |phase| state.jobs.iter().filter(|e| e.phase == phase).count();
        Load {
            running: count(Phase::Running),
            waiting: count(Phase::Waiting),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A job thread that panicked while holding the lock leaves the
        // state consistent (every change is one assignment), so go on.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Gives the cores to the jobs due first, as many as fit, and tells
    /// the jobs whose turn began or ended.
    fn rebalance(&self, state: &mut State) {
        let mut order: Vec<usize> = (0..state.jobs.len())
            .filter(|&i| matches!(state.jobs[i].phase, Phase::Running | Phase::Waiting))
            .collect();
        order.sort_by_key(|&i| {
            let e = &state.jobs[i];
            (!e.urgent, e.due, e.id)
        });
        let mut free = self.slots;
        let mut waiting = 0;
        let now = Instant::now();
        for i in order {
            let entry = &mut state.jobs[i];
            let fits = entry.weight <= free;
            if fits {
                free -= entry.weight;
            }
            match (entry.phase, fits) {
                (Phase::Waiting, true) => {
                    entry.phase = Phase::Running;
                    *lock_since(&entry.ticket) = now;
                    entry.ticket.run.store(true, Ordering::SeqCst);
                    entry.ticket.wake.notify_all();
                }
                (Phase::Running, false) => {
                    entry.phase = Phase::Waiting;
                    entry.ticket.run.store(false, Ordering::SeqCst);
                    self.stats.count_pause();
                }
                _ => {}
            }
            if entry.phase == Phase::Waiting {
                waiting += 1;
            }
        }
        self.stats.set_waiting_jobs(waiting);
    }

    /// The job no longer computes: its cores go to the next.
    fn idle(&self, state: &mut State, id: u64) {
        if let Some(entry) = state.jobs.iter_mut().find(|e| e.id == id) {
            entry.phase = Phase::Idle;
            entry.ticket.run.store(false, Ordering::SeqCst);
        }
        self.rebalance(state);
    }

    /// The job's answer is due now (see [`Entry::urgent`]).
    fn hurry(&self, state: &mut State, id: u64) {
        match state.jobs.iter_mut().find(|e| e.id == id) {
            Some(entry) if !entry.urgent => entry.urgent = true,
            _ => return,
        }
        self.rebalance(state);
    }
}

/// Jobs computing or wanting to: the cores they would keep busy.
fn demand(state: &State) -> usize {
    state
        .jobs
        .iter()
        .filter(|e| matches!(e.phase, Phase::Running | Phase::Waiting))
        .map(|e| e.weight)
        .sum()
}

fn lock_since(ticket: &Ticket) -> MutexGuard<'_, Instant> {
    ticket.since.lock().unwrap_or_else(|e| e.into_inner())
}

impl Ticket {
    /// Its job has ended: its cores go to the next.
    pub fn leave(&self) {
        self.scheduler.leave(self);
    }

    /// Parks the calling thread until the job may compute again.
    fn wait_turn(&self, raised: &AtomicBool) {
        let scheduler = &self.scheduler;
        let mut state = scheduler.lock();
        loop {
            if self.run.load(Ordering::SeqCst) {
                return;
            }
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            if late || raised.load(Ordering::SeqCst) {
                // Its answer is due: it goes first, one core's turn after
                // another, so that a crowd of late answers is served in
                // order rather than all at once and all late.
                scheduler.hurry(&mut state, self.id);
                if self.run.load(Ordering::SeqCst) {
                    return;
                }
            }
            // Woken by its turn, its stop, or its deadline; the timeout
            // is only a safety net against a lost wake-up.
            let wait = match self.deadline {
                Some(d) if !late => d.saturating_duration_since(Instant::now()),
                _ => Duration::from_secs(1),
            };
            state = match self.wake.wait_timeout(state, wait) {
                Ok((guard, _)) => guard,
                Err(e) => e.into_inner().0,
            };
        }
    }

    /// Untimed work that used its slice checks whether something is due
    /// sooner than its next virtual deadline.
    fn end_of_slice(&self) {
        let since = *lock_since(self);
        if self.deadline.is_some() || since.elapsed() < UNTIMED_SLICE {
            return;
        }
        let scheduler = &self.scheduler;
        let mut state = scheduler.lock();
        let now = Instant::now();
        *lock_since(self) = now;
        if let Some(entry) = state.jobs.iter_mut().find(|e| e.id == self.id) {
            entry.due = now + UNTIMED_PERIOD;
        }
        scheduler.rebalance(&mut state);
    }
}

impl Pacer for Ticket {
    fn pause_point(&self, raised: &AtomicBool) {
        if self.run.load(Ordering::Relaxed) {
            self.end_of_slice();
            if self.run.load(Ordering::Relaxed) {
                return;
            }
        }
        self.wait_turn(raised);
    }

    fn stopped(&self) {
        let mut state = self.scheduler.lock();
        self.scheduler.hurry(&mut state, self.id);
    }

    fn idle(&self) {
        let mut state = self.scheduler.lock();
        self.scheduler.idle(&mut state, self.id);
    }

    fn share(&self) -> Option<(usize, usize)> {
        let state = self.scheduler.lock();
        let own = state.jobs.iter().find(|e| e.id == self.id)?;
        if own.urgent {
            // Answering late: no time to fill anything.
            return Some((1, usize::MAX));
        }
        let demand = demand(&state);
        (demand > self.scheduler.slots).then_some((self.scheduler.slots, demand))
    }
}

#[cfg(test)]
mod tests;
