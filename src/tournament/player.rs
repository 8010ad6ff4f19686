//! The engines' side of a game behind one trait: the pawnrace protocol
//! (a process or a TCP session) and the Imperial autorunner protocol (a
//! process per game) here, UCI in uci_player.rs. Players only carry text;
//! the referee judges it.

use super::engine_proc::{LineConn, Silence};
use crate::protocol::is_final_line;
use crate::rules::{Color, Gaps, Move, Position, san};
use std::fmt;
use std::time::{Duration, Instant};

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

/// A game's start as players are told it: a gap start (`gaps` set), or a
/// position from an openings file.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Start {
    pub position: Position,
    pub gaps: Option<Gaps>,
}

/// One engine seat. `patience` is how long to wait for an answer before
/// calling the engine hung; the referee decides about timeouts.
pub trait Player: Send {
    fn start_game(&mut self, colour: Color) -> Result<(), Fault>;
    /// Black's choice of gaps, as text.
    fn choose_gaps(&mut self, go_args: &str, patience: Duration) -> Result<Answer, Fault>;
    /// The gaps of the game, once they are settled.
    fn set_gaps(&mut self, gaps: Gaps, patience: Duration) -> Result<(), Fault>;
    /// The engine's move after `moves` from `start`, as text.
    fn go(
        &mut self,
        start: &Start,
        moves: &[Move],
        go_args: &str,
        patience: Duration,
    ) -> Result<Answer, Fault>;
    /// After every game; a faulted engine is restarted for the next one.
    fn end_game(&mut self, faulted: bool);
}

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
pub(super) fn open(launch: &Launch) -> Result<LineConn, Fault> {
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

/// The pawnrace protocol: the referee resends the whole game before every
/// `go`, so the engine's own board never matters.
pub struct PawnracePlayer {
    launch: Launch,
    conn: Option<LineConn>,
    /// `setoption`s sent after every greeting (`--engine-option`).
    options: Vec<EngineOption>,
    /// Patience for commands that are not timed moves.
    command_patience: Duration,
}

impl PawnracePlayer {
    pub fn new(
        launch: Launch,
        options: Vec<EngineOption>,
        command_patience: Duration,
    ) -> PawnracePlayer {
        PawnracePlayer {
            launch,
            conn: None,
            options,
            command_patience,
        }
    }

    /// The connection, opened and greeted if there is none.
    fn conn(&mut self) -> Result<&mut LineConn, Fault> {
        if self.conn.is_none() {
            self.conn = Some(open(&self.launch)?);
            if let Err(fault) = self.greet() {
                self.conn = None;
                return Err(fault);
            }
        }
        Ok(self.conn.as_mut().expect("opened above"))
    }

    /// The first words to a new connection, then its options.
    fn greet(&mut self) -> Result<(), Fault> {
        let patience = self.command_patience;
        // Not `uci`: it would put pawnrace in UCI mode, where `position`
        // and `newgame`'s UCI spelling answer nothing, and this player
        // speaks the protocol's own dialect, one final line per command.
        self.expect("isready", "readyok", patience)?;
        for option in self.options.clone() {
            self.expect(&option.setoption(), "ok setoption", patience)?;
        }
        Ok(())
    }

    /// Sends `line` and reads to its final line, skipping `info` and other
    /// lines before it.
    fn command(&mut self, line: &str, patience: Duration) -> Result<Answer, Fault> {
        let waiting = format!("to '{line}'");
        ask(self.conn()?, line, patience, is_final_line, &waiting)
    }

    /// `command`, failing unless the final line starts with `want`.
    fn expect(&mut self, line: &str, want: &str, patience: Duration) -> Result<Answer, Fault> {
        let answer = self.command(line, patience)?;
        if answer.text.starts_with(want) {
            Ok(answer)
        } else {
            Err(Fault::new(
                FaultKind::Protocol,
                format!("'{line}' answered '{}'", answer.text),
            ))
        }
    }
}

impl Player for PawnracePlayer {
    fn start_game(&mut self, _colour: Color) -> Result<(), Fault> {
        let patience = self.command_patience;
        self.expect("newgame", "ok newgame", patience)?;
        self.expect("isready", "readyok", patience)?;
        Ok(())
    }

    fn choose_gaps(&mut self, go_args: &str, patience: Duration) -> Result<Answer, Fault> {
        let answer = self.expect(&format!("go {go_args}"), "ok gaps", patience)?;
        let gaps = answer.text.trim_start_matches("ok gaps").trim().to_string();
        Ok(Answer {
            text: gaps,
            elapsed: answer.elapsed,
        })
    }

    fn set_gaps(&mut self, _gaps: Gaps, _patience: Duration) -> Result<(), Fault> {
        Ok(())
    }

    fn go(
        &mut self,
        start: &Start,
        moves: &[Move],
        go_args: &str,
        patience: Duration,
    ) -> Result<Answer, Fault> {
        let mut position = match start.gaps {
            Some(gaps) => format!("position startpos gaps {gaps} moves"),
            None => format!("position fen {} moves", start.position.fen()),
        };
        for m in moves {
            position.push_str(&format!(" {m}"));
        }
        let command_patience = self.command_patience;
        self.expect(&position, "ok position", command_patience)?;
        let answer = self.expect(&format!("go {go_args}"), "bestmove", patience)?;
        let text = answer
            .text
            .trim_start_matches("bestmove")
            .trim()
            .to_string();
        Ok(Answer {
            text,
            elapsed: answer.elapsed,
        })
    }

    fn end_game(&mut self, faulted: bool) {
        // A TCP session is one game; a faulted process may be in any state.
        if faulted || matches!(self.launch, Launch::Tcp(_)) {
            self.conn = None;
        }
    }
}

/// The Imperial autorunner protocol: a fresh process per game, started
/// with `W` or `B` after its command; black writes its gaps unasked, both
/// read the gaps the referee settles on, then SAN moves go back and forth.
pub struct AutorunnerPlayer {
    argv: Vec<String>,
    conn: Option<LineConn>,
    colour: Color,
    /// Moves of the game this engine has been told of or has made.
    known: usize,
    gaps_read: bool,
}

impl AutorunnerPlayer {
    pub fn new(argv: Vec<String>) -> AutorunnerPlayer {
        AutorunnerPlayer {
            argv,
            conn: None,
            colour: Color::White,
            known: 0,
            gaps_read: false,
        }
    }

    fn conn(&mut self) -> Result<&mut LineConn, Fault> {
        self.conn
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "not running"))
    }

    /// The next line that is not blank, timed from `start`.
    fn next_item(&mut self, start: Instant, patience: Duration) -> Result<Answer, Fault> {
        let conn = self.conn()?;
        loop {
            let line = conn
                .recv_until(start + patience)
                .map_err(|s| silence_fault(s, "for its next line"))?;
            if !line.trim().is_empty() {
                return Ok(Answer {
                    text: line.trim().to_string(),
                    elapsed: start.elapsed(),
                });
            }
        }
    }
}

impl Player for AutorunnerPlayer {
    fn start_game(&mut self, colour: Color) -> Result<(), Fault> {
        let mut argv = self.argv.clone();
        argv.push(colour.letter().to_ascii_uppercase().to_string());
        let conn = LineConn::spawn(&argv)
            .map_err(|e| Fault::new(FaultKind::Crash, format!("cannot start: {e}")))?;
        self.conn = Some(conn);
        self.colour = colour;
        self.known = 0;
        self.gaps_read = false;
        Ok(())
    }

    fn choose_gaps(&mut self, _go_args: &str, patience: Duration) -> Result<Answer, Fault> {
        // It started thinking when it started: its time runs from the
        // request, as for the pawnrace protocol's `go`.
        self.gaps_read = true;
        self.next_item(Instant::now(), patience)
    }

    fn set_gaps(&mut self, gaps: Gaps, patience: Duration) -> Result<(), Fault> {
        if self.colour == Color::Black && !self.gaps_read {
            // Black always proposes gaps first; with gaps set by the match
            // its proposal is read and overruled.
            self.gaps_read = true;
            self.next_item(Instant::now(), patience)?;
        }
        send(self.conn()?, &gaps.to_string())
    }

    fn go(
        &mut self,
        _start: &Start,
        moves: &[Move],
        _go_args: &str,
        patience: Duration,
    ) -> Result<Answer, Fault> {
        let unseen: Vec<String> = moves[self.known.min(moves.len())..]
            .iter()
            .map(|m| san(*m))
            .collect();
        let conn = self.conn()?;
        for item in &unseen {
            send(conn, item)?;
        }
        self.known = moves.len() + 1;
        self.next_item(Instant::now(), patience)
    }

    fn end_game(&mut self, _faulted: bool) {
        self.conn = None;
    }
}
