//! A connection's actor: one per connection, over any byte stream.
//!
//! The actor owns the protocol [`Session`] and is the only one to touch it.
//! Output goes through one writer task per connection (`output`), and a
//! job runs on a thread of its own (`job_thread`). A search's `info` lines go straight to that
//! channel; its final lines come from `Session::finish` in the actor once the
//! job has returned, so they always follow the search's last `info`.

use super::codec::{Frame, LineFramer};
use super::job_thread::{JobThread, join, start_job};
use super::output::{OUTPUT_QUEUE, send, send_all, write_lines};
use super::scheduler::Scheduler;
use super::stats::Stats;
use crate::protocol::{Action, ErrorCode, JobDone, Reply, Session, SessionOptions};
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::codec::FramedRead;
use tokio_util::sync::CancellationToken;
use tracing::{debug, error, warn};

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
        // The proof tables need no reading ahead: the book is looked up
        // where it lies in the binary, and the openings table is 64 lines.
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
    /// See [`super::ServerConfig::write_stall`].
    pub write_stall: Duration,
    pub options: SessionOptions,
}

enum Event {
    Input(Option<std::io::Result<Frame>>),
    JobDone(Option<JobDone>),
    Shutdown,
    WriterGone,
    Idle,
}

/// Where a session is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Reading commands.
    Open,
    /// Ending: no more input is read, and once no job is left the session
    /// is over.
    Closing {
        /// The input ended by itself (end of file, a read error): there is
        /// nothing left to linger for.
        input_ended: bool,
        /// `quit` was answered: nothing more may be written.
        said_bye: bool,
    },
}

/// Why a session ends.
enum Close {
    EndOfInput,
    Quit(Vec<Reply>),
    WriterGone,
    Shutdown,
    Idle(Duration),
}

/// One session: the protocol's state machine, its job and its output.
struct Actor<'a> {
    session: Session,
    out: mpsc::Sender<String>,
    shared: &'a Shared,
    job: Option<JobThread>,
    phase: Phase,
    /// Close a session that waits on its peer for this long.
    idle_after: Option<Duration>,
}

impl Actor<'_> {
    fn open(&self) -> bool {
        self.phase == Phase::Open
    }

    fn silent(&self) -> bool {
        matches!(self.phase, Phase::Closing { said_bye: true, .. })
    }

    fn done(&self) -> bool {
        !self.open() && self.job.is_none()
    }

    /// The one way a session ends. End of input lets what was asked for
    /// still run (a search only `stop` would end is stopped), and a `quit`
    /// queued before it is still answered; every other reason abandons
    /// what is queued and stops the job.
    async fn close(&mut self, why: Close) {
        let input_ended = match self.phase {
            Phase::Open => false,
            Phase::Closing {
                said_bye: false,
                input_ended,
            } if matches!(why, Close::Quit(_)) => input_ended,
            Phase::Closing { .. } => return,
        };
        let (input_ended, said_bye) = match why {
            Close::EndOfInput => {
                self.session.end_input();
                (true, false)
            }
            Close::Quit(lines) => {
                send_all(&self.out, lines).await;
                self.session.abandon();
                (input_ended, true)
            }
            Close::WriterGone => {
                debug!("peer stopped taking output");
                self.session.abandon();
                (false, false)
            }
            Close::Shutdown => {
                send(&self.out, Reply::shutdown_notice()).await;
                self.session.abandon();
                (false, false)
            }
            Close::Idle(after) => {
                let detail = format!("no input for {} s, closing", after.as_secs_f64());
                send(&self.out, Reply::error(ErrorCode::IdleTimeout, detail)).await;
                self.session.abandon();
                (false, false)
            }
        };
        self.phase = Phase::Closing {
            input_ended,
            said_bye,
        };
    }

    /// Handles one event; false when the session cannot go on.
    async fn on(&mut self, event: Event, max_line_length: usize) -> bool {
        let action = match event {
            Event::Input(Some(Ok(Frame::Line(line)))) => Some(self.session.handle_line(&line)),
            Event::Input(Some(Ok(Frame::TooLong))) => {
                let detail = format!("line longer than {max_line_length} bytes ignored");
                send(&self.out, Reply::error(ErrorCode::LineTooLong, detail)).await;
                None
            }
            Event::Input(Some(Ok(Frame::BadEncoding))) => {
                let detail = "line is not valid UTF-8, ignored";
                send(&self.out, Reply::error(ErrorCode::BadEncoding, detail)).await;
                None
            }
            Event::Input(end) => {
                if let Some(Err(e)) = end {
                    debug!("read error: {e}");
                }
                self.close(Close::EndOfInput).await;
                None
            }
            Event::WriterGone => {
                self.close(Close::WriterGone).await;
                None
            }
            Event::Shutdown => {
                self.close(Close::Shutdown).await;
                None
            }
            Event::Idle => {
                let after = self.idle_after.unwrap_or_default();
                self.close(Close::Idle(after)).await;
                None
            }
            Event::JobDone(Some(done)) => {
                self.job = None;
                Some(self.session.finish(done))
            }
            Event::JobDone(None) => {
                // The session still thinks its job runs and there is no
                // result to give it: it cannot go on.
                error!("job failed without a result; ending the session");
                return false;
            }
        };
        if let Some(action) = action {
            self.perform(action).await;
        }
        true
    }

    /// An action, then the lines that waited for the job, until one starts
    /// another job or nothing waits.
    async fn perform(&mut self, action: Action) {
        let mut next = Some(action);
        while let Some(action) = next.take() {
            match action {
                Action::Reply(lines) if !self.silent() => send_all(&self.out, lines).await,
                Action::Reply(_) => {}
                Action::Run(job) => {
                    if self.job.is_some() {
                        // The protocol queues lines itself; never two jobs.
                        error!("session asked for a second job while one runs; dropped");
                    } else {
                        self.job = Some(start_job(
                            *job,
                            self.out.clone(),
                            &self.shared.scheduler,
                            &self.shared.stats,
                        ));
                    }
                }
                Action::Quit(lines) => self.close(Close::Quit(lines)).await,
                Action::ReadFile(path) => {
                    // Its answer comes before any line that waited.
                    let text = read_small_file(&path).await;
                    next = Some(self.session.file_read(&path, text));
                    continue;
                }
            }
            if !self.silent() {
                next = self.session.next_queued();
            }
        }
    }
}

/// A file a session asked for (`setoption name VariantPath`), up to the
/// size a variants file may have; the error as a person reads it.
async fn read_small_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    let limit = crate::protocol::variant_ini::MAX_INI_BYTES;
    let path = path.to_string();
    let read = move || -> Result<String, String> {
        let file = std::fs::File::open(&path).map_err(|e| e.to_string())?;
        let mut bytes = Vec::new();
        file.take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| e.to_string())?;
        if bytes.len() as u64 > limit {
            return Err(format!(
                "larger than {} KiB, not a variants file",
                limit / 1024
            ));
        }
        String::from_utf8(bytes).map_err(|_| "not text (UTF-8)".to_string())
    };
    tokio::task::spawn_blocking(read)
        .await
        .unwrap_or_else(|e| Err(e.to_string()))
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
    let writer_task = tokio::spawn(write_lines(writer, rx, settings.write_stall));
    let framer = LineFramer::new(settings.max_line_length);
    let max_line_length = framer.max_line_length();
    let mut frames = FramedRead::new(reader, framer);
    let idle_after = settings.idle_timeout.filter(|d| !d.is_zero());
    let mut actor = Actor {
        session: Session::new(settings.options.clone()),
        out,
        shared: &shared,
        job: None,
        phase: Phase::Open,
        idle_after,
    };

    // Armed only while idle_after is set and the session awaits input.
    let idle = tokio::time::sleep(idle_after.unwrap_or(Duration::from_secs(3600)));
    tokio::pin!(idle);

    while !actor.done() {
        let open = actor.open();
        let event = tokio::select! {
            // A finished job first: its lines then go out before anything
            // the peer sent after it finished.
            biased;
            done = join(&mut actor.job), if actor.job.is_some() => Event::JobDone(done),
            _ = shared.shutdown.cancelled(), if open => Event::Shutdown,
            frame = frames.next(), if open => Event::Input(frame),
            _ = actor.out.closed(), if open => Event::WriterGone,
            _ = &mut idle, if idle_after.is_some() && open && actor.session.awaits_input() => Event::Idle,
        };
        if !actor.on(event, max_line_length).await {
            break;
        }
        if let Some(d) = idle_after {
            idle.as_mut().reset(Instant::now() + d);
        }
    }

    let input_ended = matches!(
        actor.phase,
        Phase::Closing {
            input_ended: true,
            ..
        }
    );
    // Dropping our sender lets the writer drain what is queued and close.
    drop(actor);
    if let Err(e) = writer_task.await {
        warn!("writer task failed: {e}");
    }
    if let Some(linger) = settings.linger.filter(|_| !input_ended) {
        let _ =
            tokio::time::timeout(linger, async { while frames.next().await.is_some() {} }).await;
    }
}
