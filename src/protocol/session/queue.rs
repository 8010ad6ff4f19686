//! Lines that arrive while a job runs wait their turn, so that a script
//! piped in gets the answers a person typing gets; and the end of input
//! lets bounded work finish.

use super::{Action, Session};
use crate::protocol::reply::{ErrorCode, Reply};

/// Lines a session keeps waiting behind a job; past this a line is refused
/// (`error busy`) rather than held without limit.
pub const MAX_QUEUED: usize = 1000;

impl Session {
    pub(super) fn queue(&mut self, line: &str) -> Action {
        if self.queued.len() >= MAX_QUEUED {
            return Action::Reply(vec![Reply::error(
                ErrorCode::Busy,
                format!("{MAX_QUEUED} lines already wait for the running job; this one is dropped"),
            )]);
        }
        self.queued.push_back(line.to_string());
        Action::Reply(Vec::new())
    }

    /// The session is over (shutdown, a vanished peer): the running job is
    /// stopped and queued lines are dropped.
    pub fn abandon(&mut self) {
        self.queued.clear();
        self.ending = true;
        self.interrupt();
    }

    /// The next queued line's action, once no job runs; `None` while one
    /// does or when nothing waits. The server calls it after every action
    /// until it returns `None`.
    pub fn next_queued(&mut self) -> Option<Action> {
        if self.running.is_some() {
            return None;
        }
        let line = self.queued.pop_front()?;
        Some(self.handle_line(&line))
    }

    /// The input has ended: queued lines still run and a bounded job
    /// finishes, but a job that would never end on its own (`go infinite`,
    /// `go ponder`) is stopped, now or as it starts.
    pub fn end_input(&mut self) {
        self.ending = true;
        if let Some(running) = &self.running
            && !running.bounded
        {
            running.stop.raise();
        }
    }

    /// Whether the session is waiting on its peer: no job runs but one that
    /// only `stop` ends, and nothing is queued. An idle timeout counts only
    /// then.
    pub fn awaits_input(&self) -> bool {
        self.queued.is_empty() && self.running.as_ref().is_none_or(|r| !r.bounded)
    }
}
