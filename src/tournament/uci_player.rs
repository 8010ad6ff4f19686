//! UCI engines as players: Fairy-Stockfish with pawnrace.ini, pawnrace
//! itself after `uci`, or any engine that takes `position fen ... moves`.
//! UCI answers nothing but `uciok`, `readyok` and `bestmove`, so every
//! exchange waits for the one line that ends it and skips the rest
//! (`id`, `option`, `info`, `info string`).

use super::engine_proc::LineConn;
use super::link::{EngineOption, Launch, Link, ask, send};
use super::player::{Player, Start};
use super::reply::{Answer, Fault, FaultKind};
use crate::rules::{Color, Gaps, Move};
use std::time::Duration;

/// How long an engine has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);

pub struct UciPlayer {
    link: Link,
}

impl UciPlayer {
    /// `options` are sent once after `uciok`, in the order given;
    /// `command_patience` is the patience for the handshake and `isready`.
    pub fn new(
        launch: Launch,
        options: Vec<EngineOption>,
        command_patience: Duration,
    ) -> UciPlayer {
        UciPlayer {
            link: Link::new(launch, handshake, options, command_patience),
        }
    }
}

/// `uci` to `uciok`, the options, then `isready` to `readyok`.
fn handshake(
    conn: &mut LineConn,
    options: &[EngineOption],
    patience: Duration,
) -> Result<(), Fault> {
    exchange(conn, "uci", "uciok", patience)?;
    for option in options {
        send(conn, &option.setoption())?;
    }
    exchange(conn, "isready", "readyok", patience)?;
    Ok(())
}

/// Sends `line`, then reads until a line whose first word is `until`,
/// which it returns with the time since `line` was written.
fn exchange(
    conn: &mut LineConn,
    line: &str,
    until: &str,
    patience: Duration,
) -> Result<Answer, Fault> {
    let ends = |reply: &str| reply.split_whitespace().next() == Some(until);
    let waiting = format!("to '{line}' (waiting for {until})");
    ask(conn, line, patience, ends, &waiting)
}

impl Player for UciPlayer {
    fn start_game(&mut self, _colour: Color) -> Result<(), Fault> {
        let patience = self.link.patience;
        let conn = self.link.conn()?;
        send(conn, "ucinewgame")?;
        exchange(conn, "isready", "readyok", patience)?;
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
        let conn = self.link.conn()?;
        send(conn, &position)?;
        let answer = exchange(conn, &format!("go {go_args}"), "bestmove", patience)?;
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
        if let Some(conn) = self.link.end_game(faulted) {
            conn.quit(QUIT_GRACE);
        }
    }
}

impl Drop for UciPlayer {
    /// At the end of the match the engine is told to `quit`, not only
    /// killed.
    fn drop(&mut self) {
        if let Some(conn) = self.link.take() {
            conn.quit(QUIT_GRACE);
        }
    }
}
