//! Time controls and the referee's clocks. Pure: elapsed times come in from
//! whoever measured them, so the rules of timing are testable without
//! waiting.

use crate::rules::Color;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum TimeControl {
    /// A fixed time for every move (`go movetime N`).
    MoveTime(Duration),
    /// A clock per side for the whole game, with an increment after every
    /// move (`go wtime .. btime .. winc .. binc ..`).
    Clock { base: Duration, inc: Duration },
}

/// `BASE+INC` in seconds, as cutechess writes it: `10+0.1`, `5`.
impl FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let seconds = |t: &str| -> Result<Duration, String> {
            let v: f64 = t
                .trim()
                .parse()
                .map_err(|_| format!("'{s}' is not BASE+INC in seconds (e.g. 10+0.1)"))?;
            if !(0.0..=1e6).contains(&v) {
                return Err(format!("'{t}' seconds is out of range"));
            }
            Ok(Duration::from_secs_f64(v))
        };
        let (base, inc) = match s.split_once('+') {
            Some((b, i)) => (seconds(b)?, seconds(i)?),
            None => (seconds(s)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err("the base time must be more than zero".into());
        }
        Ok(TimeControl::Clock { base, inc })
    }
}

impl fmt::Display for TimeControl {
    /// Clocks as PGN's `TimeControl` tag writes them (`10+0.1`); PGN has
    /// no form for a fixed move time, so that one is spelled out.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::MoveTime(t) => write!(f, "movetime {}ms", t.as_millis()),
            TimeControl::Clock { base, inc } => {
                write!(f, "{}+{}", base.as_secs_f64(), inc.as_secs_f64())
            }
        }
    }
}

/// The clocks of one game.
#[derive(Clone, Debug)]
pub struct Clocks {
    /// Each side's time control, white's then black's: engines of a match
    /// may be given different times (a fast engine against a slow one).
    tc: [TimeControl; 2],
    /// Time left, white's then black's; unused with a fixed move time.
    left: [Duration; 2],
}

/// A move (or black's choice of gaps) that came later than its budget
/// plus the margin.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Overstep {
    pub allowed: Duration,
    pub used: Duration,
}

impl Clocks {
    /// Clocks with `tc` for white, then black.
    pub fn new(tc: [TimeControl; 2]) -> Clocks {
        let base = |tc| match tc {
            TimeControl::MoveTime(_) => Duration::ZERO,
            TimeControl::Clock { base, .. } => base,
        };
        Clocks {
            tc,
            left: tc.map(base),
        }
    }

    /// What `side` may spend on its next move.
    pub fn budget(&self, side: Color) -> Duration {
        match self.tc[side.index()] {
            TimeControl::MoveTime(t) => t,
            TimeControl::Clock { .. } => self.left[side.index()],
        }
    }

    pub fn left(&self, side: Color) -> Duration {
        self.left[side.index()]
    }

    /// The arguments of `go` for `side`'s next move.
    pub fn go_args(&self, side: Color) -> String {
        match self.tc[side.index()] {
            TimeControl::MoveTime(t) => format!("movetime {}", t.as_millis()),
            TimeControl::Clock { .. } => {
                let inc = |c: Color| match self.tc[c.index()] {
                    TimeControl::Clock { inc, .. } => inc,
                    TimeControl::MoveTime(_) => Duration::ZERO,
                };
                format!(
                    "wtime {} btime {} winc {} binc {}",
                    self.left[0].as_millis(),
                    self.left[1].as_millis(),
                    inc(Color::White).as_millis(),
                    inc(Color::Black).as_millis()
                )
            }
        }
    }

    /// Charges `used` to `side`. Within the margin a late move stands and
    /// the clock stops at zero: the margin exists because the time we
    /// measure includes the pipe and the scheduler, which the engine does
    /// not control.
    pub fn charge(
        &mut self,
        side: Color,
        used: Duration,
        margin: Duration,
    ) -> Result<(), Overstep> {
        let allowed = self.budget(side);
        if used > allowed + margin {
            return Err(Overstep { allowed, used });
        }
        if let TimeControl::Clock { inc, .. } = self.tc[side.index()] {
            let left = &mut self.left[side.index()];
            *left = left.saturating_sub(used) + inc;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn time_controls_parse() {
        assert_eq!(
            "10+0.1".parse(),
            Ok(TimeControl::Clock {
                base: ms(10_000),
                inc: ms(100)
            })
        );
        assert_eq!(
            "2".parse(),
            Ok(TimeControl::Clock {
                base: ms(2000),
                inc: ms(0)
            })
        );
        for bad in ["", "x", "1+", "+1", "-1+0", "0+1", "1+2+3"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn clocks_run_down_and_gain_the_increment() {
        let tc = "1+0.1".parse().unwrap();
        let mut c = Clocks::new([tc, tc]);
        assert_eq!(
            c.go_args(Color::White),
            "wtime 1000 btime 1000 winc 100 binc 100"
        );
        c.charge(Color::White, ms(300), ms(50)).unwrap();
        assert_eq!(c.left(Color::White), ms(800));
        assert_eq!(c.budget(Color::Black), ms(1000));
        // Late, but within the margin: the clock stops at zero.
        c.charge(Color::Black, ms(1040), ms(50)).unwrap();
        assert_eq!(c.left(Color::Black), ms(100));
        assert_eq!(
            c.charge(Color::Black, ms(151), ms(50)),
            Err(Overstep {
                allowed: ms(100),
                used: ms(151)
            })
        );
    }

    #[test]
    fn a_fixed_move_time_is_the_budget_of_every_move() {
        let mut c = Clocks::new([TimeControl::MoveTime(ms(100)); 2]);
        assert_eq!(c.go_args(Color::Black), "movetime 100");
        c.charge(Color::White, ms(140), ms(50)).unwrap();
        assert_eq!(c.budget(Color::White), ms(100));
        assert!(c.charge(Color::White, ms(151), ms(50)).is_err());
    }

    #[test]
    fn each_side_has_its_own_time() {
        let mut c = Clocks::new([
            TimeControl::MoveTime(ms(100)),
            TimeControl::MoveTime(ms(1000)),
        ]);
        assert_eq!(c.go_args(Color::White), "movetime 100");
        assert_eq!(c.go_args(Color::Black), "movetime 1000");
        assert!(c.charge(Color::White, ms(300), ms(50)).is_err());
        c.charge(Color::Black, ms(900), ms(50)).unwrap();
    }
}
