//! Work a session hands out to run off the async workers.

use crate::engine::{Engine, Limits, SearchResult};
use crate::protocol::reply::info_line;
use crate::rules::{Gaps, Move, Position, RuleSet, perft_divide};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// CPU-bound work of a session (a search, perft), run on a blocking thread.
pub struct Job {
    pub(super) work: Work,
    pub(super) stop: Arc<AtomicBool>,
}

pub(super) enum Work {
    Search {
        engine: Box<Engine>,
        pos: Position,
        limits: Limits,
    },
    ChooseGaps {
        engine: Box<Engine>,
        rules: RuleSet,
        limits: Limits,
    },
    Perft {
        pos: Position,
        depth: u32,
    },
}

/// The result of a [`Job`], to give back to the session that made it.
pub struct JobDone {
    pub(super) result: Finished,
}

pub(super) enum Finished {
    Search {
        engine: Box<Engine>,
        result: SearchResult,
    },
    ChooseGaps {
        engine: Box<Engine>,
        gaps: Gaps,
    },
    /// `None` when stopped before it finished.
    Perft {
        divide: Option<Vec<(Move, u64)>>,
    },
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.work {
            Work::Search { .. } => "search",
            Work::ChooseGaps { .. } => "choose-gaps",
            Work::Perft { .. } => "perft",
        };
        f.debug_struct("Job").field("kind", &kind).finish()
    }
}

impl std::fmt::Debug for JobDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JobDone")
    }
}

impl Job {
    /// Runs to completion on the calling thread. `emit` gets progress lines
    /// (`info ...`) as they are produced.
    pub fn run(self, emit: &mut dyn FnMut(String)) -> JobDone {
        let stop = &*self.stop;
        let result = match self.work {
            Work::Search {
                mut engine,
                pos,
                limits,
            } => {
                let result = engine.search(&pos, &limits, stop, &mut |info| emit(info_line(info)));
                Finished::Search { engine, result }
            }
            Work::ChooseGaps {
                mut engine,
                rules,
                limits,
            } => {
                let gaps = engine.choose_gaps(&rules, &limits, stop);
                Finished::ChooseGaps { engine, gaps }
            }
            Work::Perft { pos, depth } => Finished::Perft {
                divide: perft_divide(&pos, depth, stop),
            },
        };
        JobDone { result }
    }
}
