//! An engine's connection as players use it: where it lives, opened on
//! first use and greeted, each request sent and its answer awaited within
//! a patience, and given up after a faulted game.

use super::engine_proc::{LineConn, Silence};
use super::reply::{Answer, Fault, FaultKind};
use std::time::{Duration, Instant};

/// `--engine-option NAME=VALUE`: a `setoption` an engine gets once it is
/// started, before its first game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct EngineOption {
    pub name: String,
    pub value: String,
}

impl std::str::FromStr for EngineOption {
    type Err = String;

    /// `NAME=VALUE`, each trimmed; the name must not be empty.
    fn from_str(text: &str) -> Result<EngineOption, String> {
        let Some((name, value)) = text.split_once('=') else {
            return Err("expected NAME=VALUE".into());
        };
        if name.trim().is_empty() {
            return Err("the option has no name".into());
        }
        Ok(EngineOption {
            name: name.trim().to_string(),
            value: value.trim().to_string(),
        })
    }
}

impl EngineOption {
    pub fn setoption(&self) -> String {
        format!("setoption name {} value {}", self.name, self.value)
    }
}

/// Where an engine lives.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Launch {
    Command(Vec<String>),
    /// `host:port` of a pawnrace server.
    Tcp(String),
}

/// A connection to the engine at `launch`: its process started, or its
/// server reached.
fn open(launch: &Launch) -> Result<LineConn, Fault> {
    match launch {
        Launch::Command(argv) => LineConn::spawn(argv),
        Launch::Tcp(addr) => LineConn::connect(addr),
    }
    .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start: {e}")))
}

pub(super) fn silence_fault(s: Silence, waited_for: &str) -> Fault {
    match s {
        Silence::Eof => Fault::new(FaultKind::Crash, format!("output ended {waited_for}")),
        Silence::Timeout => Fault::new(FaultKind::Hang, format!("no answer {waited_for}")),
    }
}

pub(super) fn send(conn: &mut LineConn, line: &str) -> Result<(), Fault> {
    conn.send(line)
        .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot write '{line}': {e}")))
}

/// Sends `line`, then reads within `patience` until a line `ends` (the
/// lines before it skipped), which it returns with the time since `line`
/// was written; `waiting` names what it waits for in a fault.
pub(super) fn ask(
    conn: &mut LineConn,
    line: &str,
    patience: Duration,
    ends: impl Fn(&str) -> bool,
    waiting: &str,
) -> Result<Answer, Fault> {
    send(conn, line)?;
    let start = Instant::now();
    loop {
        let reply = conn
            .recv_until(start + patience)
            .map_err(|s| silence_fault(s, waiting))?;
        if ends(&reply) {
            return Ok(Answer {
                text: reply,
                elapsed: start.elapsed(),
            });
        }
    }
}

/// The first words to a new connection (and its options): what each
/// protocol asks before the connection is any use.
pub(super) type Greet = fn(&mut LineConn, &[EngineOption], Duration) -> Result<(), Fault>;

/// An engine's connection, opened and greeted on first use, so that a
/// player restarts a faulted engine (or reaches a TCP server again) at
/// the next request without a step of its own.
pub(super) struct Link {
    launch: Launch,
    conn: Option<LineConn>,
    greet: Greet,
    /// `setoption`s sent with every greeting (`--engine-option`).
    options: Vec<EngineOption>,
    /// Patience for the greeting and for commands that are not timed moves.
    pub(super) patience: Duration,
}

impl Link {
    pub(super) fn new(
        launch: Launch,
        greet: Greet,
        options: Vec<EngineOption>,
        patience: Duration,
    ) -> Link {
        Link {
            launch,
            conn: None,
            greet,
            options,
            patience,
        }
    }

    /// The connection, opened and greeted if there is none. A connection
    /// whose greeting fails is given up, to be opened again next time.
    pub(super) fn conn(&mut self) -> Result<&mut LineConn, Fault> {
        let conn = match self.conn.take() {
            Some(conn) => conn,
            None => {
                let mut conn = open(&self.launch)?;
                (self.greet)(&mut conn, &self.options, self.patience)?;
                conn
            }
        };
        Ok(self.conn.insert(conn))
    }

    /// After a game: the connection, taken out to be closed, where it must
    /// not serve the next game (a faulted engine may be in any state; a TCP
    /// session is one game).
    pub(super) fn end_game(&mut self, faulted: bool) -> Option<LineConn> {
        if faulted || matches!(self.launch, Launch::Tcp(_)) {
            self.conn.take()
        } else {
            None
        }
    }

    /// The connection, taken out to be closed.
    pub(super) fn take(&mut self) -> Option<LineConn> {
        self.conn.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asks `hello` and wants `hi`, then sends each option's name.
    fn greet(
        conn: &mut LineConn,
        options: &[EngineOption],
        patience: Duration,
    ) -> Result<(), Fault> {
        let answer = ask(conn, "hello", patience, |_| true, "to 'hello'")?;
        if answer.text != "hi" {
            return Err(Fault::new(FaultKind::Protocol, answer.text));
        }
        for option in options {
            send(conn, &option.name)?;
        }
        Ok(())
    }

    fn link(script: &str) -> Link {
        let argv = vec!["sh".into(), "-c".into(), script.into()];
        let options = vec!["Hash=8".parse().expect("an option")];
        Link::new(
            Launch::Command(argv),
            greet,
            options,
            Duration::from_secs(5),
        )
    }

    #[test]
    fn a_connection_is_greeted_once_and_kept_until_a_fault() {
        // Answers `hi` to the greeting and then echoes what it reads.
        let mut link = link("read x; echo hi; while read x; do echo \"$x\"; done");
        let patience = Duration::from_secs(5);
        let answer = ask(
            link.conn().expect("greeted"),
            "ping",
            patience,
            |_| true,
            "",
        );
        // The option came after the greeting, before anything asked.
        assert_eq!(answer.map(|a| a.text), Ok("Hash".into()));
        let answer = ask(link.conn().expect("kept"), "ping", patience, |_| true, "");
        assert_eq!(answer.map(|a| a.text), Ok("ping".into()));
        assert!(
            link.end_game(false).is_none(),
            "a process serves the next game"
        );
        assert!(link.end_game(true).is_some(), "a faulted one is given up");
        assert!(link.take().is_none());
    }

    #[test]
    fn a_failed_greeting_leaves_no_connection_and_the_next_request_opens_again() {
        let mut link = link("read x; echo nope");
        let fault = link.conn().err().expect("a wrong greeting");
        assert_eq!(fault, Fault::new(FaultKind::Protocol, "nope"));
        assert!(link.take().is_none());
        assert!(
            link.conn().is_err(),
            "opened and greeted again, and failed again"
        );
    }
}
