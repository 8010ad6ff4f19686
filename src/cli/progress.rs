//! A progress line on stderr for long solves: redrawn in place on a
//! terminal, a line every few seconds otherwise (logs, CI).

use pawnrace::solver::{SolvePhase, SolveProgress};
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct ProgressLine {
    terminal: bool,
    last: Option<Instant>,
    drawn: bool,
}

/// How often a non-terminal gets a line.
const LOG_EVERY: Duration = Duration::from_secs(10);

impl ProgressLine {
    pub fn new() -> ProgressLine {
        ProgressLine {
            terminal: std::io::stderr().is_terminal(),
            last: None,
            drawn: false,
        }
    }

    pub fn update(&mut self, label: &str, p: &SolveProgress) {
        let now = Instant::now();
        if !self.terminal && self.last.is_some_and(|t| now - t < LOG_EVERY) {
            return;
        }
        self.last = Some(now);
        let phase = match p.phase {
            SolvePhase::Deciding => "deciding win/draw/loss".to_string(),
            SolvePhase::Distance { value, plies } => {
                format!("{value} proven, distance {plies} so far")
            }
            SolvePhase::Line { value, plies } => {
                format!("{value} in {plies} plies, writing the line")
            }
        };
        let text = format!(
            "{label}{phase} | {} Mnodes, {:.1} s, {:.1} Mnps, table {}%",
            p.nodes / 1_000_000,
            p.time_ms as f64 / 1000.0,
            p.nps() as f64 / 1e6,
            p.hashfull / 10
        );
        let mut err = std::io::stderr().lock();
        if self.terminal {
            let _ = write!(err, "\r\x1b[2K{text}");
            self.drawn = true;
        } else {
            let _ = writeln!(err, "{text}");
        }
        let _ = err.flush();
    }

    /// Ends the line in place so that what follows starts on its own line.
    pub fn finish(&mut self) {
        if self.drawn {
            let _ = writeln!(std::io::stderr());
            self.drawn = false;
        }
        self.last = None;
    }
}
