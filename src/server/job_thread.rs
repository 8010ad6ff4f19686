//! A session's jobs run on threads of their own, one each, paced by the
//! server's scheduler, while the session's actor keeps reading commands.

use super::scheduler::{Scheduler, Ticket};
use super::stats::Stats;
use crate::protocol::{Job, JobDone};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tracing::warn;

/// The thread a job runs on, and the result it will hand back. The
/// session keeps its own record of the job (its stop flag, the replies
/// waiting for it); stopping goes through the session, whose `stop` also
/// wakes the job if the scheduler has it paused.
pub(super) struct JobThread {
    /// `None` when the job's thread died without a result (a bug).
    handle: JoinHandle<Option<JobDone>>,
}

pub(super) async fn join(job: &mut Option<JobThread>) -> Option<JobDone> {
    match job {
        Some(running) => (&mut running.handle).await.ok().flatten(),
        None => std::future::pending().await,
    }
}

/// Starts a job on a thread of its own, paced by the server's scheduler:
/// it computes only while its turn lasts (earliest deadline first, see
/// [`Scheduler`]), and a timed search's deadline counts from when the
/// session handed it out, as its command arrived, whenever it gets the
/// cores.
pub(super) fn start_job(
    job: Job,
    out: mpsc::Sender<String>,
    scheduler: &Arc<Scheduler>,
    stats: &Arc<Stats>,
) -> JobThread {
    let terms = job.terms();
    let deadline = terms.allowance.map(|a| terms.received + a);
    let ticket = scheduler.admit(terms.threads, deadline);
    job.pace_with(Arc::clone(&ticket) as Arc<dyn crate::stop::Pacer>);
    let admitted = Admitted(ticket);
    let stats = Arc::clone(stats);
    let handle = tokio::spawn(run_on_own_thread(job, admitted, out, stats));
    JobThread { handle }
}

/// A job's place in the scheduler, given back when the job ends, on
/// every path out of its thread.
struct Admitted(Arc<Ticket>);

impl Drop for Admitted {
    fn drop(&mut self) {
        self.0.leave();
    }
}

/// Runs `job` on a thread of its own. Not tokio's blocking pool: it has a
/// cap (a timed search must not queue behind it) and its threads serve
/// other blocking work later.
async fn run_on_own_thread(
    job: Job,
    admitted: Admitted,
    out: mpsc::Sender<String>,
    stats: Arc<Stats>,
) -> Option<JobDone> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let work = move || {
        let _running = stats.running_job();
        let _admitted = admitted;
        // A send fails only when the writer is gone; the job keeps going
        // until its stop flag says otherwise.
        let done = job.run(&mut |reply| {
            let _ = out.blocking_send(reply.to_string());
        });
        let _ = tx.send(done);
    };
    // Shared so that it can be taken back if no thread can be made (out of
    // threads or memory): then the blocking pool runs it.
    let work = Arc::new(Mutex::new(Some(work)));
    let on_thread = Arc::clone(&work);
    let spawned = std::thread::Builder::new()
        .name("pawnrace-job".into())
        .spawn(move || {
            yield_to_io();
            if let Some(work) = take(&on_thread) {
                work();
            }
        });
    if spawned.is_err()
        && let Some(work) = take(&work)
    {
        warn!("cannot start a thread for a job; using the blocking pool");
        if tokio::task::spawn_blocking(work).await.is_err() {
            return None;
        }
    }
    rx.await.ok()
}

/// Lowers the calling thread's priority below the runtime's (Linux nice
/// values are per thread). Searches use every cycle they get; the threads
/// that read commands and write replies need few, but need them at once:
/// `isready` and a finished search's `bestmove` must not wait behind other
/// sessions' searches for the scheduler's turn. Only job threads and the
/// thread that reads the proof tables as the server starts call this, and
/// each ends with its work.
#[cfg(target_os = "linux")]
pub(super) fn yield_to_io() {
    const PRIO_PROCESS: i32 = 0;
    const JOB_NICE: i32 = 10;
    unsafe extern "C" {
        fn setpriority(which: i32, who: u32, prio: i32) -> i32;
    }
    // SAFETY: changes only this thread's scheduling priority (who = 0 is
    // the calling thread on Linux); a refusal leaves it as it was.
    unsafe { setpriority(PRIO_PROCESS, 0, JOB_NICE) };
}

#[cfg(not(target_os = "linux"))]
pub(super) fn yield_to_io() {}

fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().ok().and_then(|mut slot| slot.take())
}
