//! The engine: the [`Engine`] façade over the search, the proofs it plays
//! from, time management and the choice of gaps. Pure and synchronous; a
//! search ends when its limits are reached or its stop flag is raised.
//!
//! Inside, each file leans only on those listed after it:
//! - this file: [`Engine`], which owns its tables, their memory and the
//!   solver, and [`EngineSettings`], the options it keeps from search to search;
//! - `gaps`: black's choice of gaps (the openings table, else searches);
//! - `proven`: perfect play from the proof tables and the solver;
//! - `search`: iterative deepening and the principal variation search;
//! - `tt`: the search's transposition table;
//! - `report`: [`Score`], [`SearchInfo`], [`SearchResult`];
//! - `time`: [`Limits`] (what one `go` asked for) and the time budget.
//!
//! Below the engine: `proofs` (the tables), `solver`, and `eval` (the race
//! evaluation and the score scales, shared with the solver).

mod gaps;
mod proven;
mod report;
mod resist;
mod search;
mod time;
pub mod traps;
mod tt;

pub use report::{Progress, Score, SearchInfo, SearchResult};
pub use resist::{Candidate, ModelSettings, Opponent, Resistance, SearchModel, Seen, TrapRule};
pub use time::{Clock, DEFAULT_MOVE_OVERHEAD_MS, DEFAULT_MOVETIME_MS, Limits};

use crate::memory::{MemoryBudget, Reservation};
use crate::rules::{Gaps, Position, RuleSet};
use crate::solver::{SolveProgress, Solver};
use crate::stop::Stop;
use std::sync::Arc;
use std::time::Instant;
use time::Budget;
use tt::Table;

/// The options an engine keeps from search to search (a session's `Hash`,
/// `Threads`, `MultiPV` and `Move Overhead`), apart from what one `go`
/// asks for ([`Limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// The most each of the engine's two tables (the search's and the
    /// solver's) may take, MiB; [`Engine::prepare`] makes them smaller
    /// when a search cannot fill them.
    pub hash_mib: usize,
    /// Threads the solver proves with (the search itself uses one).
    pub threads: usize,
    /// Lines a search reports: the best, then the best of the other moves,
    /// and so on; the move played is the first line's.
    pub multipv: u32,
    /// Kept back from every time limit, so that the move still arrives in
    /// time after the reply travels and the process is scheduled.
    pub move_overhead_ms: u64,
    /// How a proven loss (or a draw at best) is played out.
    pub resistance: Resistance,
}

impl EngineSettings {
    /// An engine's settings until told otherwise, with tables of `hash_mib`.
    pub fn with_hash(hash_mib: usize) -> EngineSettings {
        EngineSettings {
            hash_mib,
            threads: 1,
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            resistance: Resistance::default(),
        }
    }
}

pub struct Engine {
    tt: Table,
    /// The tables' size, MiB.
    hash_mib: usize,
    /// The exact solver behind perfect play, made on first use with a table
    /// as large as the search's (see [`Engine::solver`]).
    solver: Option<Box<Solver>>,
    settings: EngineSettings,
    /// What the tables hold of a server's memory budget, given back when
    /// the engine goes; `None` outside a server.
    memory: Option<Reservation>,
}

/// How one search runs beyond what its `go` said.
struct Run {
    /// When the command arrived: the time limits count from here.
    since: Instant,
    move_overhead_ms: u64,
    multipv: u32,
    resistance: Resistance,
}

impl Engine {
    pub fn new(hash_mib: usize) -> Engine {
        Engine {
            tt: Table::new(hash_mib),
            hash_mib,
            solver: None,
            settings: EngineSettings::with_hash(hash_mib),
            memory: None,
        }
    }

    /// The engine for a search with `allowance_ms` to go (`None`: no clock)
    /// under `settings`, its tables reserved from `budget`. `held`, the
    /// engine of the last search, is kept if its tables are between what
    /// the search can fill and `settings.hash_mib` (they grow for a longer
    /// search than any before, and shrink only when `Hash` went below
    /// them); otherwise it goes first, so that old and new tables never
    /// coexist, and a new engine comes.
    ///
    /// `share` is the cores a server's scheduler gives the search and the
    /// jobs it shares them with ([`Stop::share`]): sharing the cores, a
    /// timed search fills only what its share of them can, and untimed
    /// work gets the smallest tables. Making tables costs every search on
    /// the machine: a hundred crowded searches once spent two fifths of
    /// the time zeroing tables they could not use.
    pub fn prepare(
        held: Option<Box<Engine>>,
        settings: &EngineSettings,
        allowance_ms: Option<u64>,
        share: Option<(usize, usize)>,
        budget: &Arc<MemoryBudget>,
    ) -> Box<Engine> {
        let want = match (share, allowance_ms) {
            (None, _) => Engine::table_mib_for(allowance_ms, settings.hash_mib),
            (Some((cores, jobs)), Some(ms)) => {
                let expected = ms * cores as u64 / jobs.max(1) as u64;
                Engine::table_mib_for(Some(expected), settings.hash_mib)
            }
            (Some(_), None) => 1,
        };
        let mut engine = match held {
            Some(engine) if (want..=settings.hash_mib).contains(&engine.hash_mib) => engine,
            old => {
                drop(old);
                // Two tables of the size: the search's and the solver's.
                // With the budget spent they are made as small as they go
                // (a few buckets): a crowded server plays weaker, within
                // its memory.
                let memory = budget.reserve(2 * want, 0);
                let mut engine = Box::new(Engine::new(memory.mib() / 2));
                engine.memory = Some(memory);
                engine
            }
        };
        engine.settings = *settings;
        engine.set_threads(settings.threads);
        engine
    }

    /// MiB the engine's tables hold of a server's memory budget.
    pub fn memory_mib(&self) -> usize {
        self.memory.as_ref().map_or(0, Reservation::mib)
    }

    /// Threads for the solver's proofs at move time (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.settings.threads = threads.max(1);
        if let Some(solver) = &mut self.solver {
            solver.set_threads(self.settings.threads);
        }
    }

    /// The tables' size, MiB.
    pub fn hash_mib(&self) -> usize {
        self.hash_mib
    }

    /// Table size, MiB, worth making for a search of at most `allowance_ms`
    /// (`None`: no clock), given a ceiling of `max_mib` (the `Hash` option).
    /// A short search cannot fill a big table: a 100 ms search visits some
    /// 200,000 nodes, 3 MiB of entries. Making every page of a 16 MiB
    /// table (twice: the search's and the solver's) cost a crowd of new
    /// sessions more than their whole first move, so a session's tables
    /// start at what its first search can use and grow, up to `max_mib`,
    /// when a longer search comes.
    pub fn table_mib_for(allowance_ms: Option<u64>, max_mib: usize) -> usize {
        // Entries a search stores per millisecond, at about 2 M nodes/s, in
        // MiB: 2,000 nodes x 16 bytes per ms is 1 MiB per 32 ms.
        const MS_PER_MIB: u64 = 32;
        match allowance_ms {
            Some(ms) => {
                let mib = (ms / MS_PER_MIB).max(1).next_power_of_two() as usize;
                mib.min(max_mib).max(1)
            }
            None => max_mib.max(1),
        }
    }

    pub fn set_hash(&mut self, mib: usize) {
        // The old table goes first, so that the two never coexist.
        self.tt = Table::new(0);
        if let Some(solver) = &mut self.solver {
            solver.set_hash(0);
        }
        self.tt = Table::new(mib);
        self.hash_mib = mib;
        self.settings.hash_mib = mib;
        if let Some(solver) = &mut self.solver {
            solver.set_hash(mib);
        }
    }

    pub fn new_game(&mut self) {
        self.tt.clear();
        if let Some(solver) = &mut self.solver {
            solver.clear();
        }
    }

    /// The exact solver behind perfect play, made on first use with a
    /// table as large as the search's. A session's `solve` uses it too: one
    /// table, and what `solve` proves, `go` then plays from.
    pub fn solver(&mut self) -> &mut Solver {
        let hash_mib = self.hash_mib;
        let solver = self
            .solver
            .get_or_insert_with(|| Box::new(Solver::new(hash_mib)));
        solver.set_threads(self.settings.threads);
        solver
    }

    /// A search whose time counts from now.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Stop,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_since(Instant::now(), pos, limits, stop, info)
    }

    /// A search for a command that arrived at `since`: its time counts from
    /// then, whenever it gets to run.
    pub fn search_since(
        &mut self,
        since: Instant,
        pos: &Position,
        limits: &Limits,
        stop: &Stop,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.search_reporting(since, pos, limits, stop, &mut |p| {
            if let Progress::Search(i) = p {
                info(i)
            }
        })
    }

    /// [`Engine::search_since`], telling `report` of the solver's progress
    /// too while it proves before the search (see [`Progress`]).
    pub fn search_reporting(
        &mut self,
        since: Instant,
        pos: &Position,
        limits: &Limits,
        stop: &Stop,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> SearchResult {
        let run = self.run_since(since);
        self.run(pos, limits, &run, stop, report)
    }

    fn run_since(&self, since: Instant) -> Run {
        Run {
            since,
            move_overhead_ms: self.settings.move_overhead_ms,
            multipv: self.settings.multipv,
            resistance: self.settings.resistance,
        }
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        run: &Run,
        stop: &Stop,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> SearchResult {
        let clock = Clock::since(run.since);
        let budget = Budget::for_search(limits, pos.side_to_move(), run.move_overhead_ms);
        // With `searchmoves` a proven move's lines wait until the move is
        // known to be one of them: a proof of another move is not announced.
        let restricted = !limits.searchmoves.is_empty();
        let mut held: Vec<SearchInfo> = Vec::new();
        let mut pass = |p: Progress<'_>| match p {
            Progress::Search(i) if restricted => held.push(i.clone()),
            p => report(p),
        };
        let mut tally = proven::Tally::new(&clock, &mut pass);
        let proof = proven::course(
            || self.solver(),
            pos,
            limits,
            &budget,
            run.resistance,
            stop,
            &mut tally,
        );
        let proved = tally.nodes;
        if let proven::Course::Play(_) = proof {
            for line in &held {
                report(Progress::Search(line));
            }
        }
        // The search's lines and result count the proofs' nodes too: they
        // are the whole go's work.
        let result = match proof {
            proven::Course::Play(result) => result,
            proven::Course::Search { avoid } => {
                let mut result = search::iterate(
                    &mut self.tt,
                    pos,
                    limits,
                    run.multipv,
                    &budget,
                    &clock,
                    stop,
                    &avoid,
                    &mut |i| {
                        let go = SearchInfo {
                            nodes: proved + i.nodes,
                            ..i.clone()
                        };
                        report(Progress::Search(&go))
                    },
                );
                result.nodes += proved;
                result
            }
        };
        if limits.is_unbounded() {
            // It ends only on `stop`, even after a proof or the depth cap.
            stop.wait_until_raised();
        }
        result
    }

    /// Black's choice of gaps, its time counting from now.
    pub fn choose_gaps(&mut self, rules: &RuleSet, limits: &Limits, stop: &Stop) -> Gaps {
        self.choose_gaps_since(Instant::now(), rules, limits, stop)
    }

    /// Black's choice of gaps for a command that arrived at `since`: the
    /// openings table's when it can tell (a proven black win, or every pair
    /// proven); otherwise every pair's start is searched with white to move
    /// and the pair worst for white wins; ties go to the first pair.
    pub fn choose_gaps_since(
        &mut self,
        since: Instant,
        rules: &RuleSet,
        limits: &Limits,
        stop: &Stop,
    ) -> Gaps {
        self.choose_gaps_reporting(since, rules, limits, stop, &mut |_| {})
    }

    /// [`Engine::choose_gaps_since`], telling `solving` of the solver's
    /// progress where the pairs' searches prove: nodes counted over the
    /// whole choice, time from `since`. The pairs' search lines are not
    /// told: they are about other positions than the game's.
    pub fn choose_gaps_reporting(
        &mut self,
        since: Instant,
        rules: &RuleSet,
        limits: &Limits,
        stop: &Stop,
        solving: &mut dyn FnMut(&SolveProgress),
    ) -> Gaps {
        let run = self.run_since(since);
        let budget = Budget::for_search(limits, crate::rules::Color::Black, run.move_overhead_ms);
        let clock = Clock::since(since);
        // Nodes of the pairs searched so far.
        let mut spent = 0;
        gaps::choose(rules, limits, &budget, &clock, stop, &mut |pos, sub| {
            // The budget kept the overhead back once for the whole choice;
            // kept back again from every pair's share, a one-second choice
            // gave each pair 1 ms. Each pair's time counts from its start,
            // and one line is enough to compare pairs.
            let each = Run {
                since: Instant::now(),
                move_overhead_ms: 0,
                multipv: 1,
                // A pair's value is what counts, not how its loss is played.
                resistance: Resistance::Longest,
            };
            let result = self.run(pos, sub, &each, stop, &mut |p| {
                if let Progress::Solve(p) = p {
                    solving(&SolveProgress {
                        nodes: spent + p.nodes,
                        time_ms: clock.elapsed_ms(),
                        ..*p
                    })
                }
            });
            spent += result.nodes;
            result
        })
    }
}

/// The server runs searches on blocking threads.
const _: fn() = || {
    fn send<T: Send + 'static>() {}
    send::<Engine>();
};

#[cfg(test)]
mod tests;
