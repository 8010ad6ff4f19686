//! Search limits and how much time a move may take.

use std::time::Instant;

/// What one `go` asked for, and nothing else: built once where the command
/// is read and never changed after. The settings a search also depends on
/// live elsewhere, each with the layer that owns it: the session's options
/// (`Move Overhead`, `MultiPV`, `Threads`, `Hash`) in the engine's
/// [`EngineSettings`](super::EngineSettings), and the moment the command arrived (the
/// server's stamp, from which the time counts) in the `since` of
/// [`Engine::search_since`](super::Engine::search_since). Clock values may
/// be negative (a late GUI); they count as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
    /// `go mate N`: look for a win within N moves (2N - 1 plies) with the
    /// exact solver, which proves it or proves there is none; bounded by
    /// `movetime` and `nodes` where given, else until it is done or stopped.
    pub mate: Option<u32>,
    /// `go searchmoves ...`: the moves the engine may choose among; empty,
    /// every legal move.
    pub searchmoves: Vec<Move>,
}

/// The `Move Overhead` a session starts with.
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 30;

/// A move's time when whoever asks for a move gives no limit at all: a
/// person typing `go` wants a move, not a search that never ends; a
/// harness game without `--movetime` gets a second where the tournament
/// allows 5 s, a wide margin on a loaded machine.
pub const DEFAULT_MOVETIME_MS: u64 = 1000;

use crate::rules::{Color, Move};

/// Moves a clock is assumed to have to last when `movestogo` is not given;
/// pawn races rarely last longer.
const DEFAULT_MOVES_TO_GO: u64 = 20;

/// Milliseconds since the search began.
pub struct Clock {
    start: Instant,
}

impl Clock {
    /// A clock that began at `start`: when the command arrived, which may
    /// be before the search starts (it waited for its turn), so that
    /// waiting makes the move weaker, never later.
    pub fn since(start: Instant) -> Clock {
        Clock { start }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// What is left of `total_ms` counted on this clock; 0 once past it.
    pub fn left_ms(&self, total_ms: u64) -> u64 {
        total_ms.saturating_sub(self.elapsed_ms())
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
    /// These limits, or [`DEFAULT_MOVETIME_MS`] a move where they set none at
    /// all (no depth, nodes, move time or clock, and not `infinite`): a
    /// person typing `go`, or a GUI that never sent a time control, wants a
    /// move, not a search that never ends.
    pub fn or_default_movetime(mut self) -> Limits {
        let limited = self.depth.is_some()
            || self.mate.is_some()
            || self.nodes.is_some()
            || self.movetime_ms.is_some()
            || self.wtime_ms.is_some()
            || self.btime_ms.is_some();
        if !limited && !self.infinite {
            self.movetime_ms = Some(DEFAULT_MOVETIME_MS);
        }
        self
    }

    /// Whether a search under these limits ends only when stopped: pondering,
    /// or `go infinite` without a depth or node limit (with one, the first
    /// limit reached ends it). At the end of input such a job is stopped;
    /// any other finishes.
    pub fn is_unbounded(&self) -> bool {
        self.ponder || (self.infinite && self.depth.is_none() && self.nodes.is_none())
    }

    /// The most a search under these limits may take for `side`, keeping
    /// back `move_overhead_ms`, counted from when its command arrived;
    /// `None` for a search without a clock (infinite, pondering, depth or
    /// nodes alone).
    pub fn allowance_ms(&self, side: Color, move_overhead_ms: u64) -> Option<u64> {
        if self.ponder {
            return None;
        }
        Budget::for_search(self, side, move_overhead_ms).total_ms()
    }

    /// What is left now of [`Limits::allowance_ms`] for a command that
    /// arrived at `since`: a search that waited for its turn has that much
    /// less.
    pub fn time_left_ms(&self, side: Color, move_overhead_ms: u64, since: Instant) -> Option<u64> {
        let clock = Clock::since(since);
        self.allowance_ms(side, move_overhead_ms)
            .map(|ms| clock.left_ms(ms))
    }
}

impl Budget {
    /// The budget for `side` to move under `limits`, keeping back
    /// `move_overhead_ms` (the UCI `Move Overhead`), so that the move still
    /// arrives in time after the reply travels and the process is
    /// scheduled.
    pub fn for_search(limits: &Limits, side: Color, move_overhead_ms: u64) -> Budget {
        if limits.infinite {
            return Budget {
                hard_ms: None,
                soft_ms: None,
            };
        }
        if let Some(ms) = limits.movetime_ms {
            let hard = ms.saturating_sub(move_overhead_ms).max(1);
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
        let cap = remaining.saturating_sub(move_overhead_ms) * 3 / 4;
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
            DEFAULT_MOVE_OVERHEAD_MS,
        );
        assert_eq!(b.hard_ms, None);
        let inf = Limits {
            infinite: true,
            wtime_ms: Some(1000),
            ..Limits::default()
        };
        assert_eq!(
            Budget::for_search(&inf, Color::White, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            None
        );
    }

    #[test]
    fn only_pondering_and_infinite_alone_wait_for_stop() {
        let go = |infinite, ponder, depth, nodes| Limits {
            infinite,
            ponder,
            depth,
            nodes,
            ..Limits::default()
        };
        assert!(go(true, false, None, None).is_unbounded());
        assert!(go(false, true, None, None).is_unbounded());
        assert!(go(true, true, Some(3), None).is_unbounded());
        assert!(!go(true, false, Some(3), None).is_unbounded());
        assert!(!go(true, false, None, Some(1000)).is_unbounded());
        assert!(!go(false, false, None, None).is_unbounded());
    }

    #[test]
    fn time_left_counts_from_the_command() {
        let l = Limits {
            movetime_ms: Some(1000),
            ..Limits::default()
        };
        let now = Instant::now();
        let waited = now - std::time::Duration::from_millis(400);
        let left = |since| l.time_left_ms(Color::White, 0, since).unwrap();
        assert!((990..=1000).contains(&left(now)));
        assert!((590..=600).contains(&left(waited)));
        // Pondering has no clock of its own.
        let ponder = Limits { ponder: true, ..l };
        assert_eq!(ponder.time_left_ms(Color::White, 0, now), None);
    }

    #[test]
    fn movetime_keeps_the_move_overhead() {
        let with = |ms, overhead| {
            let limits = Limits {
                movetime_ms: Some(ms),
                ..Limits::default()
            };
            Budget::for_search(&limits, Color::Black, overhead).hard_ms
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
        assert_eq!(
            Budget::for_search(&l, Color::White, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            Some(3_500)
        );
        assert_eq!(
            Budget::for_search(&l, Color::Black, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            Some(100)
        );
        // A huge increment with little time left is capped.
        let l = Limits {
            wtime_ms: Some(100),
            winc_ms: Some(10_000),
            ..Limits::default()
        };
        assert_eq!(
            Budget::for_search(&l, Color::White, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            Some(52)
        );
        // A negative clock counts as zero, yet leaves time for a move.
        let l = Limits {
            wtime_ms: Some(-50),
            ..Limits::default()
        };
        assert_eq!(
            Budget::for_search(&l, Color::White, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            Some(1)
        );
        let l = Limits {
            wtime_ms: Some(10_000),
            movestogo: Some(1),
            ..Limits::default()
        };
        assert_eq!(
            Budget::for_search(&l, Color::White, DEFAULT_MOVE_OVERHEAD_MS).hard_ms,
            Some(7_477)
        );
    }
}
