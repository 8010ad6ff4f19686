//! Search limits and how much time a move may take.

use std::time::Instant;

/// The limits of one search, as `go` gives them, and the time to keep back
/// for the reply to travel. Clock values may be negative (a late GUI); they
/// count as zero.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub wtime_ms: Option<i64>,
    pub btime_ms: Option<i64>,
    pub winc_ms: Option<i64>,
    pub binc_ms: Option<i64>,
    pub movestogo: Option<u32>,
    /// Search until stopped; never end on its own.
    pub infinite: bool,
    /// Thinking on the opponent's time (`go ponder`): search, and prove,
    /// until stopped, whatever else is given; the session then starts the
    /// real search on `ponderhit`.
    pub ponder: bool,
    /// Kept back from every time limit (the UCI `Move Overhead`), so that
    /// the move still arrives in time after the reply travels and the
    /// process is scheduled.
    pub move_overhead_ms: u64,
    /// When the command arrived, if the search starts later (it waited for
    /// a search slot): the time limits count from here, so that waiting
    /// makes the move weaker, never later. `None`: from the search's start.
    pub started: Option<Instant>,
    /// Lines the search reports (UCI's `MultiPV`): the best, then the best
    /// of the other moves, and so on; the move played is the first line's.
    pub multipv: u32,
}

/// The `Move Overhead` a session starts with.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            movetime_ms: None,
            wtime_ms: None,
            btime_ms: None,
            winc_ms: None,
            binc_ms: None,
            movestogo: None,
            infinite: false,
            ponder: false,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            started: None,
            multipv: 1,
        }
    }
}

use crate::rules::Color;

/// Moves a clock is assumed to have to last when `movestogo` is not given;
/// pawn races rarely last longer.
const DEFAULT_MOVES_TO_GO: u64 = 20;

/// Milliseconds since the search began.
pub struct Clock {
    start: Instant,
}

impl Clock {
    /// A clock that began at `started` (see [`Limits::started`]), or now.
    pub fn since(started: Option<Instant>) -> Clock {
        Clock {
            start: started.unwrap_or_else(Instant::now),
        }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// How long a search may take: `hard` ends it mid-iteration, `soft` keeps it
/// from starting an iteration it would likely not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Budget {
    pub hard_ms: Option<u64>,
    pub soft_ms: Option<u64>,
}

impl Limits {
    /// The most a search under these limits may take, counted from
    /// [`Limits::started`]; `None` for a search without a clock (infinite,
    /// pondering, depth or nodes alone).
    pub fn allowance_ms(&self, side: Color) -> Option<u64> {
        if self.ponder {
            return None;
        }
        Budget::for_search(self, side).total_ms()
    }
}

impl Budget {
    pub fn for_search(limits: &Limits, side: Color) -> Budget {
        if limits.infinite {
            return Budget {
                hard_ms: None,
                soft_ms: None,
            };
        }
        if let Some(ms) = limits.movetime_ms {
            let hard = ms.saturating_sub(limits.move_overhead_ms).max(1);
            return Budget {
                hard_ms: Some(hard),
                soft_ms: None,
            };
        }
        let (time, inc) = match side {
            Color::White => (limits.wtime_ms, limits.winc_ms),
            Color::Black => (limits.btime_ms, limits.binc_ms),
        };
        let Some(time) = time else {
            return Budget {
                hard_ms: None,
                soft_ms: None,
            };
        };
        let remaining = time.max(0) as u64;
        let inc = inc.unwrap_or(0).max(0) as u64;
        let moves_to_go = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).max(1));
        let planned = remaining / moves_to_go + inc / 2;
        // Never plan on more than most of what is left after the overhead,
        // whatever the increment or moves-to-go say.
        let cap = remaining.saturating_sub(limits.move_overhead_ms) * 3 / 4;
        let hard = planned.min(cap).max(1);
        Budget {
            hard_ms: Some(hard),
            soft_ms: Some(hard / 2),
        }
    }

    /// The whole allowance, if the search has one.
    pub fn total_ms(&self) -> Option<u64> {
        self.hard_ms
    }

    pub fn past_hard(&self, clock: &Clock) -> bool {
        self.hard_ms.is_some_and(|ms| clock.elapsed_ms() >= ms)
    }

    pub fn past_soft(&self, clock: &Clock) -> bool {
        self.soft_ms.is_some_and(|ms| clock.elapsed_ms() >= ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_time_limits_mean_no_budget() {
        let b = Budget::for_search(
            &Limits {
                depth: Some(3),
                ..Limits::default()
            },
            Color::White,
        );
        assert_eq!(b.hard_ms, None);
        let inf = Limits {
            infinite: true,
            wtime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(Budget::for_search(&inf, Color::White).hard_ms, None);
    }

    #[test]
    fn movetime_keeps_the_move_overhead() {
        let with = |ms, overhead| {
            let limits = Limits {
                movetime_ms: Some(ms),
                move_overhead_ms: overhead,
                ..Limits::default()
            };
            Budget::for_search(&limits, Color::Black).hard_ms
        };
        assert_eq!(
            with(1000, DEFAULT_MOVE_OVERHEAD_MS),
            Some(1000 - DEFAULT_MOVE_OVERHEAD_MS)
        );
        assert_eq!(with(1000, 0), Some(1000));
        assert_eq!(with(5000, 200), Some(4800));
        assert_eq!(with(0, 30), Some(1));
        assert_eq!(with(20, 30), Some(1));
    }

    #[test]
    fn clocks_use_the_movers_time_and_stay_safe() {
        let l = Limits {
            wtime_ms: Some(60_000),
            btime_ms: Some(2_000),
            winc_ms: Some(1_000),
            ..Limits::default()
        };
        assert_eq!(Budget::for_search(&l, Color::White).hard_ms, Some(3_500));
        assert_eq!(Budget::for_search(&l, Color::Black).hard_ms, Some(100));
        // A huge increment with little time left is capped.
        let l = Limits {
            wtime_ms: Some(100),
            winc_ms: Some(10_000),
            ..Limits::default()
        };
        assert_eq!(Budget::for_search(&l, Color::White).hard_ms, Some(52));
        // A negative clock counts as zero, yet leaves time for a move.
        let l = Limits {
            wtime_ms: Some(-50),
            ..Limits::default()
        };
        assert_eq!(Budget::for_search(&l, Color::White).hard_ms, Some(1));
        let l = Limits {
            wtime_ms: Some(10_000),
            movestogo: Some(1),
            ..Limits::default()
        };
        assert_eq!(Budget::for_search(&l, Color::White).hard_ms, Some(7_477));
    }
}
