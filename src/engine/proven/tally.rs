//! What a go's proofs report: every line counts the whole go.

use crate::engine::report::{Progress, SearchInfo};
use crate::engine::time::Clock;
use crate::solver::{SolvePhase, SolveProgress, Solver};

/// A go's proofs as it reports them: what the solver spent so far and the
/// go's clock, so that every line it reports counts the whole go (a
/// client saw a 1.4 s proof end as "51 nodes, 34 nodes/s": the search's
/// own).
pub(in crate::engine) struct Tally<'a> {
    /// Nodes the go's finished proofs searched (their own thread's, as
    /// `solve` counts them).
    pub(in crate::engine) nodes: u64,
    pub(super) clock: &'a Clock,
    report: &'a mut dyn FnMut(Progress<'_>),
    /// The phase last told, and whether a new proof has started since.
    told: Option<SolvePhase>,
    next_proof: bool,
}

impl<'a> Tally<'a> {
    pub(in crate::engine) fn new(
        clock: &'a Clock,
        report: &'a mut dyn FnMut(Progress<'_>),
    ) -> Tally<'a> {
        Tally {
            nodes: 0,
            clock,
            report,
            told: None,
            next_proof: false,
        }
    }

    /// The running proof's progress, as the go's. A proof that opens by
    /// repeating where the last one ended (the distance's, after the
    /// decision that proved the value) is no news and is not told twice.
    pub(super) fn proving(&mut self, p: &SolveProgress) {
        let repeat = std::mem::take(&mut self.next_proof) && self.told == Some(p.phase);
        if repeat {
            return;
        }
        self.told = Some(p.phase);
        let go = SolveProgress {
            nodes: self.nodes + p.nodes,
            time_ms: self.clock.elapsed_ms(),
            ..*p
        };
        (self.report)(Progress::Solve(&go));
    }

    /// A line of the search's (a proven move's), as it is.
    pub(super) fn searched(&mut self, info: &SearchInfo) {
        (self.report)(Progress::Search(info));
    }

    /// Counts the proof `solver` just ran, finished or cut short.
    pub(super) fn spent(&mut self, solver: &Solver) {
        self.nodes += solver.last_nodes();
        self.next_proof = true;
    }
}
