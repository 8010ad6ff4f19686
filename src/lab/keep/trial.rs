//! Running the keep set: the engine's move in each case, and the tally.

use super::Case;
use crate::engine::{DEFAULT_MOVE_OVERHEAD_MS, Engine, Limits};
use crate::rules::Move;
use crate::solver::Value;
use crate::stop::Stop;
use std::fmt::Write as _;
use std::time::Instant;

/// The outcome of the engine's move in one case.
#[derive(Clone, Debug)]
pub struct Trial {
    pub best: Option<Move>,
    pub verdict: Verdict,
    pub time_ms: u64,
    /// Whether the engine announced a proof.
    pub proven: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Kept,
    Spoiled,
    /// The move is one the labelling could not settle.
    Unknown,
}

/// How long the engine thinks in a trial.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Think {
    /// A move time: the proof tables, the solver, then the search, as in a game.
    Movetime(u64),
    /// The search alone within this many nodes (without a clock nothing is
    /// proved): its picks, the same on any machine.
    Nodes(u64),
}

/// The engine's move in `case`, from a fresh engine as a session makes it
/// for its first move: with `Hash` at `hash_mib` and a solver on `threads`
/// threads.
///
/// As in a session, the tables are as large as the move's time can fill,
/// up to `hash_mib` ([`Engine::table_mib_for`]: a `go movetime 100` gets
/// two of 2 MiB), and they are made within the move's time. Made ahead
/// at 16 MiB whatever the time, the search's table was outside the clock
/// and the solver's, made on first use, inside it: 5 to 9 ms of the 35 ms
/// a 100 ms move gives the solver.
pub fn trial(case: &Case, hash_mib: usize, threads: usize, think: Think) -> Trial {
    let pos = case.position();
    let limits = match think {
        Think::Movetime(ms) => Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        },
        Think::Nodes(n) => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
    };
    let stop = Stop::new();
    let start = Instant::now();
    let allowance = limits.allowance_ms(pos.side_to_move(), DEFAULT_MOVE_OVERHEAD_MS);
    let mut engine = Engine::new(Engine::table_mib_for(allowance, hash_mib));
    engine.set_threads(threads);
    let mut proven = false;
    let result = engine.search_since(start, &pos, &limits, &stop, &mut |i| {
        proven |= i.proven.is_some();
    });
    let time_ms = start.elapsed().as_millis() as u64;
    let verdict = match result.best {
        Some(m) if case.keep.contains(&m) => Verdict::Kept,
        Some(m) if case.unknown.contains(&m) => Verdict::Unknown,
        _ => Verdict::Spoiled,
    };
    Trial {
        best: result.best,
        verdict,
        time_ms,
        proven,
    }
}

/// The keep rate of a set: its cases kept, spoiled and unknown, in all and
/// by value.
#[derive(Clone, Debug, Default)]
pub struct KeepRate {
    pub cases: u32,
    pub kept: u32,
    pub spoiled: u32,
    pub unknown: u32,
    pub wins: (u32, u32),
    pub draws: (u32, u32),
}

impl KeepRate {
    pub fn add(&mut self, case: &Case, t: &Trial) {
        self.cases += 1;
        let kept = t.verdict == Verdict::Kept;
        match t.verdict {
            Verdict::Kept => self.kept += 1,
            Verdict::Spoiled => self.spoiled += 1,
            Verdict::Unknown => self.unknown += 1,
        }
        let by_value = if case.value == Value::Win {
            &mut self.wins
        } else {
            &mut self.draws
        };
        by_value.0 += u32::from(kept);
        by_value.1 += 1;
    }

    /// The summary line `pawnrace bench keep` ends with.
    pub fn summary(&self, think: Think) -> String {
        let mut s = String::new();
        let pct = |a: u32, b: u32| 100.0 * f64::from(a) / f64::from(b.max(1));
        let _ = write!(
            s,
            "keep {} cases {} kept {} ({:.1}%) spoiled {} unknown {} wins {}/{} draws {}/{}",
            match think {
                Think::Movetime(ms) => format!("movetime {ms}"),
                Think::Nodes(n) => format!("nodes {n}"),
            },
            self.cases,
            self.kept,
            pct(self.kept, self.cases),
            self.spoiled,
            self.unknown,
            self.wins.0,
            self.wins.1,
            self.draws.0,
            self.draws.1
        );
        s
    }
}
