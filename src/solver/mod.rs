//! The exact solver: the game-theoretic value of a position and its distance.
//! Below the proof tables and the engine, above `eval` and `rules`; scores
//! are on the solver's own scale (`SOLVER_WIN`).
//!
//! Pawn games never repeat a position, so the game graph is a DAG and plain
//! alpha-beta without a depth limit proves exact values. The winner takes
//! the shortest win and the loser the longest loss (as in UVa 10838).
//!
//! The driver (`questions`) first decides win, draw or loss with null-window
//! proofs (is it a win, then, only if not, is it a loss; the evaluation's
//! likelier side first; at move time, at least a draw first), then pins
//! the distance with null-window proofs that
//! each either find a shorter win (longer loss) or prove the current one
//! exact. Every proof leaves both bounds of the positions it visits in the
//! table, so the later proofs mostly re-walk proven ground. With more
//! threads, helpers search beside the solve's own thread on the same table
//! (`busy`).
//!
//! What keeps the proofs small, all of it sound (see the tests, which hold
//! the solver and the race bounds to a plain minimax):
//! - a win in one is seen without moving (`eval::threatens_win` is exact), so
//!   no child is ever a finished game, and no win in one caps a node at a
//!   win in three (in rule sets where having no move draws);
//! - race bounds (`race`): an unstoppable passer bounds the value;
//! - the table's move is searched first; then every child's table bounds are
//!   read before any is searched (a cut-off from a child's bound, and moves
//!   whose bound cannot raise alpha are skipped);
//! - the rest are ordered by the race evaluation of the child minus the
//!   opponent's reply count (fewer replies, smaller proofs), double steps
//!   and moves onto free files first among near-equals (`order`).

mod busy;
mod cache;
mod known;
mod order;
mod play;
mod profile;
mod questions;
mod race;
mod relative;
mod search;
mod table;
mod value;

pub use cache::{CacheError, MIN_WORK as CACHE_MIN_WORK};
pub use known::Known;
pub use play::MoveBounds;
pub use profile::NodeProfile;
pub use value::{Proven, Source, Standing, Value};

use crate::eval::score::SOLVER_WIN;
use crate::rules::Position;
use crate::stop::Stop;
use busy::Busy;
use questions::{describe, exact_score, line, terminal_score, value_score};
use search::Ctx;
use table::Table;

/// The machine's cores: what a proof runs on when nobody says otherwise
/// (`solve`, `bench solve`), and the most threads anything asks for.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What race arithmetic alone proves of `pos` for the side to move, without
/// a search: `(Win, k)` a win within `k` plies, `(Loss, k)` a loss within
/// `k` plies (the enemy's passer arrives by then, whatever the side to move
/// does); `None` where it proves neither. `pos` must be still
/// played, with a move for the side to move and no win in one for it (the
/// search settles those first).
pub fn race_verdict(pos: &Position) -> Option<(Value, u32)> {
    // A win settles it: the loss side is not worked out then.
    match race::bounds_until(pos, 1) {
        (Some(lo), _) if lo > 0 => Some((Value::Win, (SOLVER_WIN - lo) as u32)),
        (_, Some(hi)) if hi < 0 => Some((Value::Loss, (SOLVER_WIN + hi) as u32)),
        _ => None,
    }
}

/// Budgets for one solve; when either runs out the solve reports `None`.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct SolveLimits {
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
}

/// Where a solve stands.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum SolvePhase {
    /// Proving win, draw or loss.
    Deciding,
    /// The value is known; `plies` is the best distance proven so far (a win
    /// at most this long, a loss at least this long).
    Distance { value: Value, plies: u32 },
    /// Value and distance are known; walking out the line.
    Line { value: Value, plies: u32 },
}

/// Reported about once a second, and at the end of each phase.
#[derive(Copy, Clone, Debug)]
pub struct SolveProgress {
    pub nodes: u64,
    pub time_ms: u64,
    pub phase: SolvePhase,
    /// Permille of the table in use.
    pub hashfull: u32,
}

impl SolveProgress {
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.time_ms.max(1)
    }
}

/// An exact solver with its own table; the table is kept between solves,
/// so solving positions of one game in turn is cheap.
pub struct Solver {
    table: Table,
    threads: usize,
    /// Nodes the last proof's own thread searched (helpers not counted).
    last_nodes: u64,
    /// Where the solves' own threads' nodes went, while profiling.
    profile: Option<NodeProfile>,
    /// Values proven ahead of time, read wherever the table knows nothing.
    known: Option<&'static Known>,
}

/// What a parallel solve's helper threads search, over and over if they
/// finish early, until the solve's own thread is done.
type Helper = fn(&mut Ctx<'_>, &Position);

impl Solver {
    pub fn new(hash_mib: usize) -> Solver {
        Solver {
            table: Table::new(hash_mib),
            threads: 1,
            last_nodes: 0,
            profile: None,
            known: None,
        }
    }

    /// Threads per solve (at least 1). With more than one, helpers search
    /// the same position on the shared table (as Lazy SMP does), each
    /// leaving the moves another thread is searching for last (as ABDADA
    /// does, `busy`), and the solve's own thread reads what they proved;
    /// the answer is the same, the node counts are not.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Values proven elsewhere (the proof tables) for every later proof to
    /// read as bounds where its table knows nothing; `None` proves from the
    /// rules alone, as the proof tables' own proofs and their checks must.
    pub fn set_known(&mut self, known: Option<&'static Known>) {
        self.known = known;
    }

    /// Counts where the nodes of every later solve's own thread go, from
    /// nothing (`bench solve --profile`); `false` stops counting.
    pub fn set_profiling(&mut self, on: bool) {
        self.profile = on.then(NodeProfile::default);
    }

    /// What profiling has counted so far; `None` when it is off.
    pub fn profile(&self) -> Option<&NodeProfile> {
        self.profile.as_ref()
    }

    /// Nodes the last solve, decision or proof searched on its own thread
    /// (a parallel solve's helpers not counted), finished or cut short.
    pub fn last_nodes(&self) -> u64 {
        self.last_nodes
    }

    /// Runs `main` on this thread, with `self.threads - 1` helpers running
    /// `helper` beside it on the same table until `main` returns.
    fn run<R>(
        &mut self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &Stop,
        progress: &mut dyn FnMut(&SolveProgress),
        helper: Helper,
        main: impl FnOnce(&mut Ctx<'_>) -> R,
    ) -> R {
        self.table.new_generation();
        let table = &self.table;
        let profiling = self.profile.is_some();
        let known = self.known;
        if self.threads <= 1 {
            let mut ctx = Ctx::new(table, limits, stop, progress);
            ctx.known = known;
            ctx.profile = profiling.then(Box::default);
            let result = main(&mut ctx);
            self.last_nodes = ctx.nodes;
            self.keep_profile(ctx.profile);
            return result;
        }
        let done = stop.for_helpers();
        let helpers = self.threads - 1;
        let busy = Busy::new();
        let (result, (nodes, profile)) = std::thread::scope(|s| {
            for _ in 0..helpers {
                let (done, busy) = (&done, &busy);
                s.spawn(move || {
                    let mut quiet = |_: &SolveProgress| {};
                    let unlimited = SolveLimits::default();
                    let mut ctx = Ctx::new(table, &unlimited, done, &mut quiet);
                    ctx.busy = Some(busy);
                    ctx.helper = true;
                    ctx.known = known;
                    while !done.is_raised() {
                        helper(&mut ctx, pos);
                        if ctx.aborted {
                            break;
                        }
                    }
                });
            }
            let mut ctx = Ctx::new(table, limits, stop, progress);
            ctx.busy = Some(&busy);
            ctx.known = known;
            ctx.profile = profiling.then(Box::default);
            let result = main(&mut ctx);
            done.raise();
            (result, (ctx.nodes, ctx.profile))
        });
        self.last_nodes = nodes;
        self.keep_profile(profile);
        result
    }

    /// Adds what a run's own thread counted to the profile, while profiling.
    fn keep_profile(&mut self, counted: Option<Box<NodeProfile>>) {
        if let (Some(all), Some(this)) = (self.profile.as_mut(), counted) {
            all.add_run(&this);
        }
    }

    /// A fresh table of `mib` MiB; what the old one knew is lost.
    pub fn set_hash(&mut self, mib: usize) {
        self.table = Table::new(0);
        self.table = Table::new(mib);
    }

    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// The exact value of `pos` for its side to move, its distance and a
    /// line to the game's end (for a draw some drawing line, its length the
    /// distance); `None` when a limit ran out or `stop` was raised first.
    pub fn solve(
        &mut self,
        pos: &Position,
        limits: &SolveLimits,
        stop: &Stop,
        progress: &mut dyn FnMut(&SolveProgress),
    ) -> Option<Proven> {
        let helper: Helper = |ctx, pos| {
            let _ = exact_score(ctx, pos);
        };
        self.run(pos, limits, stop, progress, helper, |ctx| {
            let score = exact_score(ctx, pos)?;
            let (value, plies) = describe(score);
            ctx.phase = SolvePhase::Line { value, plies };
            ctx.report();
            let pv = line(ctx, pos, score)?;
            ctx.report();
            let plies = if value == Value::Draw {
                pv.len() as u32
            } else {
                plies
            };
            Some(Proven {
                value,
                plies: Some(plies),
                line: pv,
                source: Source::Solver,
            })
        })
    }
}

impl Solver {
    /// Whether the side to move in `pos` gets at least `value` (a win, at
    /// least a draw), whatever the distance: one null-window proof, far
    /// cheaper than [`Solver::solve`]. `None` when a limit ran out or
    /// `stop` was raised first.
    pub fn at_least(
        &mut self,
        pos: &Position,
        value: Value,
        limits: &SolveLimits,
        stop: &Stop,
    ) -> Option<bool> {
        // The score is at least 1 exactly for a win, at least 0 for a draw.
        let threshold = match value {
            Value::Win => 1,
            Value::Draw => 0,
            Value::Loss => return Some(true),
        };
        if let Some(s) = terminal_score(pos) {
            return Some(s >= threshold);
        }
        let mut quiet = |_: &SolveProgress| {};
        // Helpers decide the value, which settles this question too, by the
        // same null-window questions as `decide`'s helpers.
        let helper: Helper = |ctx, pos| {
            value_score(ctx, pos);
        };
        self.run(pos, limits, stop, &mut quiet, helper, |ctx| {
            let s = ctx.search(pos, threshold - 1, threshold);
            (!ctx.aborted).then_some(s >= threshold)
        })
    }
}

#[cfg(test)]
mod tests;
