//! UCI engines as players: Fairy-Stockfish with pawnrace.ini, pawnrace
//! itself after `uci`, or any engine that takes `position fen ... moves`.
//! UCI answers nothing but `uciok`, `readyok` and `bestmove`, so every
//! exchange waits for the one line that ends it and skips the rest
//! (`id`, `option`, `info`, `info string`).

use super::engine_proc::LineConn;
use super::player::{
    Answer, EngineOption, Fault, FaultKind, Launch, Player, Start, ask, open, send,
};
use crate::rules::{Color, Gaps, Move};
use std::time::Duration;

/// How long an engine has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

pub struct UciPlayer {
    launch: Launch,
    conn: Option<LineConn>,
    /// Sent once after `uciok`, in the order given.
    options: Vec<EngineOption>,
    /// Patience for the handshake and `isready`.
    command_patience: Duration,
}

impl UciPlayer {
    pub fn new(
        launch: Launch,
        options: Vec<EngineOption>,
        command_patience: Duration,
    ) -> UciPlayer {
        UciPlayer {
            launch,
            conn: None,
            options,
            command_patience,
        }
    }

    /// The connection, started and through the handshake if there is none.
    fn conn(&mut self) -> Result<&mut LineConn, Fault> {
        if self.conn.is_none() {
            self.conn = Some(open(&self.launch)?);
            if let Err(fault) = self.handshake() {
                self.conn = None;
                return Err(fault);
            }
        }
        Ok(self.conn.as_mut().expect("opened above"))
    }

    /// `uci` to `uciok`, the options, then `isready` to `readyok`.
    fn handshake(&mut self) -> Result<(), Fault> {
        let patience = self.command_patience;
        self.exchange("uci", "uciok", patience)?;
        let conn = self.conn.as_mut().expect("started by conn");
        for option in &self.options {
            send(conn, &option.setoption())?;
        }
        self.exchange("isready", "readyok", patience)?;
        Ok(())
    }

    /// Sends `line`, then reads until a line whose first word is `until`,
    /// which it returns with the time since `line` was written.
    fn exchange(&mut self, line: &str, until: &str, patience: Duration) -> Result<Answer, Fault> {
        let conn = self
            .conn
            .as_mut()
            .ok_or_else(|| Fault::new(FaultKind::Crash, "not running"))?;
        let ends = |reply: &str| reply.split_whitespace().next() == Some(until);
        let waiting = format!("to '{line}' (waiting for {until})");
        ask(conn, line, patience, ends, &waiting)
    }
}

impl Player for UciPlayer {
    fn start_game(&mut self, _colour: Color) -> Result<(), Fault> {
        let patience = self.command_patience;
        self.conn()?;
        let conn = self.conn.as_mut().expect("started above");
        send(conn, "ucinewgame")?;
        self.exchange("isready", "readyok", patience)?;
        Ok(())
    }

    fn choose_gaps(&mut self, _go_args: &str, _patience: Duration) -> Result<Answer, Fault> {
        // The match refuses this pairing before it starts; kept as a fault
        // so that a library caller gets an answer rather than a panic.
        Err(Fault::new(
            FaultKind::Protocol,
            "a UCI engine has no way to choose gaps",
        ))
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
        let mut position = format!("position fen {}", start.position.fairy_fen(1));
        if !moves.is_empty() {
            position.push_str(" moves");
            for m in moves {
                position.push_str(&format!(" {m}"));
            }
        }
        send(self.conn()?, &position)?;
        let answer = self.exchange(&format!("go {go_args}"), "bestmove", patience)?;
        let text = answer
            .text
            .split_whitespace()
            .nth(1)
            .unwrap_or_default()
            .to_string();
        Ok(Answer {
            text,
            elapsed: answer.elapsed,
        })
    }

    fn end_game(&mut self, faulted: bool) {
        // A faulted engine may be in any state; a TCP session is one game.
        if (faulted || matches!(self.launch, Launch::Tcp(_)))
            && let Some(conn) = self.conn.take()
        {
            conn.quit(QUIT_GRACE);
        }
    }
}

impl Drop for UciPlayer {
    /// At the end of the match the engine is told to `quit`, not only
    /// killed.
    fn drop(&mut self) {
        if let Some(conn) = self.conn.take() {
            conn.quit(QUIT_GRACE);
        }
    }
}
