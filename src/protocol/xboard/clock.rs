//! CECP's time commands (`level`, `st`, `sd`, `time`, `otim`) turned into
//! the engine's [`Limits`], so that the engine's own time logic spends them.

use crate::engine::Limits;
use crate::rules::Color;

#[derive(Clone, Debug, Default)]
pub(super) struct Clock {
    /// `st`: seconds a move, exactly.
    move_time_ms: Option<u64>,
    /// `sd`: the most plies to search.
    depth: Option<u32>,
    /// `level`: moves per session (0: all the game), increment.
    moves_per_session: u32,
    increment_ms: i64,
    /// `time` and `otim`: the engine's and the opponent's clocks.
    own_ms: Option<i64>,
    other_ms: Option<i64>,
}

impl Clock {
    /// Applies one time command; `Err` says why its arguments are bad.
    pub(super) fn command(&mut self, word: &str, rest: &str) -> Result<(), &'static str> {
        let args: Vec<&str> = rest.split_whitespace().collect();
        match (word, args.as_slice()) {
            ("st", [secs]) => {
                let secs: f64 = secs.parse().map_err(|_| "bad seconds")?;
                if !(secs.is_finite() && secs > 0.0) {
                    return Err("bad seconds");
                }
                self.move_time_ms = Some((secs * 1000.0) as u64);
            }
            ("sd", [depth]) => self.depth = Some(depth.parse().map_err(|_| "bad depth")?),
            ("level", [mps, _base, inc]) => {
                self.moves_per_session = mps.parse().map_err(|_| "bad moves per session")?;
                let inc: f64 = inc.parse().map_err(|_| "bad increment")?;
                self.increment_ms = (inc * 1000.0) as i64;
                self.move_time_ms = None;
            }
            // Centiseconds.
            ("time", [cs]) => self.own_ms = Some(cs.parse::<i64>().map_err(|_| "bad time")? * 10),
            ("otim", [cs]) => self.other_ms = Some(cs.parse::<i64>().map_err(|_| "bad time")? * 10),
            _ => return Err("bad arguments"),
        }
        Ok(())
    }

    /// A new game: the time control stays, the depth limit and both
    /// clocks go (the GUI sends `time` and `otim` before each move).
    pub(super) fn new_game(&mut self) {
        self.depth = None;
        self.own_ms = None;
        self.other_ms = None;
    }

    /// The limits of the engine's next move as `side`; with no time command
    /// at all, the engine's default move time.
    pub(super) fn limits(&self, side: Color) -> Limits {
        let mut limits = Limits {
            depth: self.depth,
            movetime_ms: self.move_time_ms,
            ..Limits::default()
        };
        if self.move_time_ms.is_none() && self.own_ms.is_some() {
            let (own, other) = (self.own_ms, self.other_ms);
            let inc = Some(self.increment_ms);
            match side {
                Color::White => {
                    (
                        limits.wtime_ms,
                        limits.btime_ms,
                        limits.winc_ms,
                        limits.binc_ms,
                    ) = (own, other, inc, inc)
                }
                Color::Black => {
                    (
                        limits.btime_ms,
                        limits.wtime_ms,
                        limits.binc_ms,
                        limits.winc_ms,
                    ) = (own, other, inc, inc)
                }
            }
            // The moves left in the session are not tracked: a whole
            // session's worth errs on the side of a faster move.
            if self.moves_per_session > 0 {
                limits.movestogo = Some(self.moves_per_session);
            }
        }
        limits.or_default_movetime()
    }
}
