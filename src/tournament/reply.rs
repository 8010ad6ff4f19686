//! What an engine gives back for a request: an answer and how long it
//! took, or a fault that loses the game.

use std::fmt;
use std::time::Duration;

/// What an engine did wrong; every fault loses the game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum FaultKind {
    /// A move the position does not allow, or text that is no move.
    Illegal,
    /// The answer came, but after the budget plus the margin.
    Timeout,
    /// The process exited, its output closed or the connection was lost.
    Crash,
    /// No answer at all, even a margin after the timeout.
    Hang,
    /// An answer that breaks the protocol: an `error` to a valid command,
    /// a `bestmove` where gaps were due.
    Protocol,
}

impl FaultKind {
    pub const ALL: [FaultKind; 5] = [
        FaultKind::Illegal,
        FaultKind::Timeout,
        FaultKind::Crash,
        FaultKind::Hang,
        FaultKind::Protocol,
    ];

    pub fn name(self) -> &'static str {
        match self {
            FaultKind::Illegal => "illegal",
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Hang => "hang",
            FaultKind::Protocol => "protocol",
        }
    }
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    pub kind: FaultKind,
    pub detail: String,
}

impl Fault {
    pub fn new(kind: FaultKind, detail: impl Into<String>) -> Fault {
        Fault {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.detail)
    }
}

/// An engine's answer and how long it took, measured from the moment the
/// request was written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Answer {
    pub text: String,
    pub elapsed: Duration,
}
