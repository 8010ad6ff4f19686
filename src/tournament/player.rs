//! The engines' side of a game behind one trait: the pawnrace protocol
//! (a process or a TCP session) and the Imperial autorunner protocol (a
//! process per game) here, UCI in uci_player.rs. Players only carry text;
//! the referee judges it.

use super::engine_proc::LineConn;
use super::link::{EngineOption, Launch, Link, ask, send, silence_fault};
use super::reply::{Answer, Fault, FaultKind};
use crate::protocol::is_final_line;
use crate::rules::{Color, Gaps, Move, Position, san};
use std::time::{Duration, Instant};

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

/// The pawnrace protocol: the referee resends the whole game before every
/// `go`, so the engine's own board never matters.
pub struct PawnracePlayer {
    link: Link,
}

impl PawnracePlayer {
    pub fn new(
        launch: Launch,
        options: Vec<EngineOption>,
        command_patience: Duration,
    ) -> PawnracePlayer {
        PawnracePlayer {
            link: Link::new(launch, greet, options, command_patience),
        }
    }

    /// [`expect`] on the connection, opened first if there is none.
    fn expect(&mut self, line: &str, want: &str, patience: Duration) -> Result<Answer, Fault> {
        expect(self.link.conn()?, line, want, patience)
    }
}

/// The first words to a new connection, then its options. Not `uci`: it
/// would put pawnrace in UCI mode, where `position` and `newgame`'s UCI
/// spelling answer nothing, and this player speaks the protocol's own
/// dialect, one final line per command.
fn greet(conn: &mut LineConn, options: &[EngineOption], patience: Duration) -> Result<(), Fault> {
    expect(conn, "isready", "readyok", patience)?;
    for option in options {
        expect(conn, &option.setoption(), "ok setoption", patience)?;
    }
    Ok(())
}

/// Sends `line` and reads to its final line (skipping `info` and other
/// lines before it), failing unless that starts with `want`.
fn expect(
    conn: &mut LineConn,
    line: &str,
    want: &str,
    patience: Duration,
) -> Result<Answer, Fault> {
    let waiting = format!("to '{line}'");
    let answer = ask(conn, line, patience, is_final_line, &waiting)?;
    if answer.text.starts_with(want) {
        Ok(answer)
    } else {
        Err(Fault::new(
            FaultKind::Protocol,
            format!("'{line}' answered '{}'", answer.text),
        ))
    }
}

impl Player for PawnracePlayer {
    fn start_game(&mut self, _colour: Color) -> Result<(), Fault> {
        let patience = self.link.patience;
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
        let command_patience = self.link.patience;
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
        drop(self.link.end_game(faulted));
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
