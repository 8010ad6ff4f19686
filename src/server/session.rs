//! The session actor: one per connection, over any byte stream.
//!
//! The actor owns the protocol [`Session`] and is the only one to touch it.
//! Output goes through one writer task per connection, fed by a channel, so
//! the actor, and a search on a blocking thread, can both produce lines
//! without sharing the stream. A search's `info` lines go straight to that
//! channel; its final lines come from `Session::finish` in the actor once the
//! job has returned, so they always follow the search's last `info`.

use super::codec::{Frame, LineFramer};
use super::scheduler::{Scheduler, Ticket};
use super::stats::Stats;
use crate::protocol::reply::{error, shutdown_notice};
use crate::protocol::{Action, ErrorCode, Job, JobDone, Session, SessionOptions};
use futures::StreamExt;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;
use tracing::{debug, error, warn};

/// Lines waiting for the writer. Bounded so a peer that stops reading
/// slows its own search down rather than growing our memory.
const OUTPUT_QUEUE: usize = 256;

/// A write that makes no progress for this long means the peer is not
/// reading; we give up on it rather than keep its search forever.
const WRITE_STALL: Duration = Duration::from_secs(30);

/// What sessions of one server share.
#[derive(Clone)]
pub(crate) struct Shared {
    /// Shares the cores out among every session's jobs.
    pub scheduler: Arc<Scheduler>,
    pub stats: Arc<Stats>,
    pub shutdown: CancellationToken,
}

impl Shared {
    pub fn new(max_searches: usize, stats: Arc<Stats>) -> Shared {
        Shared {
            scheduler: Scheduler::new(max_searches, Arc::clone(&stats)),
            stats,
            shutdown: CancellationToken::new(),
        }
    }
}

/// How one session behaves.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    pub max_line_length: usize,
    pub idle_timeout: Option<Duration>,
    /// After the session ends, keep reading (and dropping) input for this
    /// long. Closing a TCP socket with unread input makes the kernel send a
    /// reset, which can destroy our last lines before the peer reads them.
    pub linger: Option<Duration>,
    pub options: SessionOptions,
}

/// A job on its way. Stopping it goes through the session, whose `stop`
/// also wakes the job if the scheduler has it paused.
struct Running {
    /// `None` when the job's thread died without a result (a bug).
    handle: JoinHandle<Option<JobDone>>,
}

enum Event {
    Input(Option<std::io::Result<Frame>>),
    JobDone(Option<JobDone>),
    Shutdown,
    WriterGone,
    Idle,
}

/// Runs one session to its end: `quit`, end of input, idle timeout, a
/// vanished peer or shutdown. Returns only once its job, if any, is over.
pub(crate) async fn run<R, W>(reader: R, writer: W, settings: Settings, shared: Shared)
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let _session = shared.stats.session();
    let (out, rx) = mpsc::channel::<String>(OUTPUT_QUEUE);
    let writer_task = tokio::spawn(write_lines(writer, rx));
    let framer = LineFramer::new(settings.max_line_length);
    let max_line_length = framer.max_line_length();
    let mut frames = FramedRead::new(reader, framer);
    let mut session = Session::new(settings.options.clone());

    let mut job: Option<Running> = None;
    // Still taking commands.
    let mut reading = true;
    // Ending: once no job is left, the session is over.
    let mut closing = false;
    // The input has ended (EOF or a read error).
    let mut input_ended = false;
    // `quit` has been answered: nothing more may be written.
    let mut said_bye = false;

    let idle_after = settings.idle_timeout.filter(|d| !d.is_zero());
    // Armed only while idle_after is set and no job runs (see the select).
    let idle = tokio::time::sleep(idle_after.unwrap_or(Duration::from_secs(3600)));
    tokio::pin!(idle);

    loop {
        if closing && job.is_none() {
            break;
        }
        let event = tokio::select! {
            // A finished job first: its lines then go out before anything
            // the peer sent after it finished.
            biased;
            done = join(&mut job), if job.is_some() => Event::JobDone(done),
            _ = shared.shutdown.cancelled(), if !closing => Event::Shutdown,
            frame = frames.next(), if reading => Event::Input(frame),
            _ = out.closed(), if !closing => Event::WriterGone,
            _ = &mut idle, if idle_after.is_some() && session.awaits_input() && !closing => Event::Idle,
        };
        let mut action = None;
        match event {
            Event::Input(Some(Ok(Frame::Line(line)))) => {
                action = Some(session.handle_line(&line));
            }
            Event::Input(Some(Ok(Frame::TooLong))) => {
                let detail = format!("line longer than {max_line_length} bytes ignored");
                send(&out, error(ErrorCode::LineTooLong, detail)).await;
            }
            Event::Input(Some(Ok(Frame::BadEncoding))) => {
                send(
                    &out,
                    error(ErrorCode::BadEncoding, "line is not valid UTF-8, ignored"),
                )
                .await;
            }
            Event::Input(end) => {
                if let Some(Err(e)) = end {
                    debug!("read error: {e}");
                }
                // The peer is done talking: what it asked for still runs,
                // except a search only `stop` would end.
                reading = false;
                input_ended = true;
                closing = true;
                session.end_input();
            }
            Event::WriterGone => {
                debug!("peer stopped taking output");
                reading = false;
                closing = true;
                session.abandon();
            }
            Event::JobDone(Some(done)) => {
                job = None;
                action = Some(session.finish(done));
            }
            Event::JobDone(None) => {
                // The session still thinks its job runs and there is no
                // result to give it: it cannot go on.
                error!("job failed without a result; ending the session");
                break;
            }
            Event::Shutdown => {
                if !said_bye {
                    send(&out, shutdown_notice()).await;
                }
                reading = false;
                closing = true;
                session.abandon();
            }
            Event::Idle => {
                let detail = match idle_after {
                    Some(d) => format!("no input for {} s, closing", d.as_secs_f64()),
                    None => "closing".to_string(),
                };
                send(&out, error(ErrorCode::IdleTimeout, detail)).await;
                reading = false;
                closing = true;
                session.abandon();
            }
        }
        // An action, then the lines that waited for the job, until one
        // starts another job or nothing waits.
        while let Some(next) = action.take() {
            match next {
                Action::Reply(lines) if !said_bye => send_all(&out, lines).await,
                Action::Reply(_) => {}
                Action::Run(new_job) => {
                    if job.is_some() {
                        // The protocol queues lines itself; never two jobs.
                        error!("session asked for a second job while one runs; dropped");
                    } else {
                        job = Some(start_job(*new_job, out.clone(), &shared));
                    }
                }
                Action::Quit(lines) => {
                    if !said_bye {
                        send_all(&out, lines).await;
                    }
                    said_bye = true;
                    reading = false;
                    closing = true;
                    session.abandon();
                }
            }
            if !said_bye {
                action = session.next_queued();
            }
        }
        if let Some(d) = idle_after {
            idle.as_mut().reset(Instant::now() + d);
        }
    }

    // Dropping our sender lets the writer drain what is queued and close.
    drop(out);
    if let Err(e) = writer_task.await {
        warn!("writer task failed: {e}");
    }
    if let Some(linger) = settings.linger.filter(|_| !input_ended) {
        let _ =
            tokio::time::timeout(linger, async { while frames.next().await.is_some() {} }).await;
    }
}

async fn join(job: &mut Option<Running>) -> Option<JobDone> {
    match job {
        Some(running) => (&mut running.handle).await.ok().flatten(),
        None => std::future::pending().await,
    }
}

/// Starts a job on a thread of its own, paced by the server's scheduler:
/// it computes only while its turn lasts (earliest deadline first, see
/// [`Scheduler`]), and a timed search's deadline counts from now, when its
/// command was received, whenever it gets the cores.
fn start_job(mut job: Job, out: mpsc::Sender<String>, shared: &Shared) -> Running {
    let received = std::time::Instant::now();
    job.received(received);
    let terms = job.terms();
    let ticket = shared
        .scheduler
        .admit(terms.threads, terms.allowance.map(|a| received + a));
    job.pace_with(Arc::clone(&ticket) as Arc<dyn crate::stop::Pacer>);
    let admitted = Admitted(ticket);
    let stats = Arc::clone(&shared.stats);
    let handle = tokio::spawn(run_on_own_thread(job, admitted, out, stats));
    Running { handle }
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
        let done = job.run(&mut |line| {
            let _ = out.blocking_send(line);
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
/// sessions' searches for the scheduler's turn. Only job threads call
/// this, and each ends with its job.
#[cfg(target_os = "linux")]
fn yield_to_io() {
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
fn yield_to_io() {}

fn take<T>(slot: &Mutex<Option<T>>) -> Option<T> {
    slot.lock().ok().and_then(|mut slot| slot.take())
}

async fn send(out: &mpsc::Sender<String>, line: String) {
    // Fails only when the writer is gone, which the actor learns separately.
    let _ = out.send(line).await;
}

async fn send_all(out: &mpsc::Sender<String>, lines: Vec<String>) {
    for line in lines {
        send(out, line).await;
    }
}

/// Writes lines as they come, flushing after each batch of whatever is
/// queued. Ends when every sender is gone or the peer cannot be written to;
/// either way it drops the receiver, which tells the senders.
async fn write_lines<W: AsyncWrite + Unpin>(mut writer: W, mut rx: mpsc::Receiver<String>) {
    let mut batch = Vec::new();
    while let Some(line) = rx.recv().await {
        batch.clear();
        push_line(&mut batch, &line);
        while batch.len() < 64 * 1024 {
            match rx.try_recv() {
                Ok(line) => push_line(&mut batch, &line),
                Err(_) => break,
            }
        }
        let write = async {
            writer.write_all(&batch).await?;
            writer.flush().await
        };
        match tokio::time::timeout(WRITE_STALL, write).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                debug!("write failed: {e}");
                return;
            }
            Err(_) => {
                warn!(
                    "peer has not read its output for {} s; giving up on it",
                    WRITE_STALL.as_secs()
                );
                return;
            }
        }
    }
    let _ = tokio::time::timeout(WRITE_STALL, writer.shutdown()).await;
}

fn push_line(batch: &mut Vec<u8>, line: &str) {
    batch.extend_from_slice(line.as_bytes());
    batch.push(b'\n');
}
