//! The engine: the [`Engine`] façade over the search, the proofs it plays
//! from, time management and the choice of gaps. Pure and synchronous; a
//! search ends when its limits are reached or its stop flag is raised.
//!
//! Inside, each file leans only on those listed after it:
//! - this file: [`Engine`], which owns the table and the solver;
//! - `gaps`: black's choice of gaps (the openings table, else searches);
//! - `proven`: perfect play from the proof tables and the solver;
//! - `search`: iterative deepening and the principal variation search;
//! - `tt`: the search's transposition table;
//! - `report`: [`Score`], [`SearchInfo`], [`SearchResult`];
//! - `time`: [`Limits`] and the time budget.
//!
//! Below the engine: `proofs` (the tables), `solver`, and `eval` (the race
//! evaluation and the score scales, shared with the solver).

mod gaps;
mod proven;
mod report;
mod search;
mod time;
mod tt;

pub use report::{Score, SearchInfo, SearchResult};
pub use time::{DEFAULT_MOVE_OVERHEAD_MS, Limits};

use crate::rules::{Gaps, Position, RuleSet};
use crate::solver::Solver;
use crate::stop::Stop;
use time::{Budget, Clock};
use tt::Table;

pub struct Engine {
    tt: Table,
    hash_mib: usize,
    /// The exact solver behind perfect play, made on first use with a table
    /// as large as the search's.
    solver: Option<Box<Solver>>,
    /// Threads the solver proves with (the search itself uses one).
    solver_threads: usize,
}

impl Engine {
    pub fn new(hash_mib: usize) -> Engine {
        Engine {
            tt: Table::new(hash_mib),
            hash_mib,
            solver: None,
            solver_threads: 1,
        }
    }

    /// Threads for the solver's proofs at move time (at least 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.solver_threads = threads.max(1);
        if let Some(solver) = &mut self.solver {
            solver.set_threads(self.solver_threads);
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

    /// The exact solver behind perfect play. A session's `solve` uses it
    /// too: one table, and what `solve` proves, `go` then plays from.
    pub fn solver(&mut self) -> &mut Solver {
        proven::lazy_solver(&mut self.solver, self.hash_mib, self.solver_threads)
    }

    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &Stop,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let clock = Clock::since(limits.started);
        let budget = Budget::for_search(limits, pos.side_to_move());
        let proof = proven::proven(
            &mut self.solver,
            (self.hash_mib, self.solver_threads),
            pos,
            &budget,
            limits.ponder,
            &clock,
            stop,
            info,
        );
        let result = match proof {
            proven::Proof::Play(result) => result,
            proven::Proof::Search { avoid } => search::iterate(
                &mut self.tt,
                pos,
                limits,
                &budget,
                &clock,
                stop,
                &avoid,
                info,
            ),
        };
        if limits.infinite && limits.depth.is_none() && limits.nodes.is_none() {
            // `go infinite` alone ends only on `stop`, even after a proof or
            // the depth cap; with a depth or node limit, the first limit
            // reached ends it.
            stop.wait_until_raised();
        }
        result
    }

    /// Black's choice of gaps: the openings table's when it can tell (a proven
    /// black win, or every pair proven); otherwise every pair's start is
    /// searched with white to move and the pair worst for white wins; ties go
    /// to the first pair.
    pub fn choose_gaps(&mut self, rules: &RuleSet, limits: &Limits, stop: &Stop) -> Gaps {
        gaps::choose(rules, limits, stop, &mut |pos, sub| {
            self.search(pos, sub, stop, &mut |_| {})
        })
    }
}

/// The server runs searches on blocking threads.
const _: fn() = || {
    fn send<T: Send + 'static>() {}
    send::<Engine>();
};
