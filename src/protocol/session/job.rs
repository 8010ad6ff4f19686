//! Work a session hands out to run off the async workers.

use crate::analysis::explore::{Exploration, ExploreEvent, explore};
use crate::analysis::{GameAnalysis, analyse};
use crate::engine::{Engine, EngineSettings, Limits, Progress, SearchResult};
use crate::memory::MemoryBudget;
use crate::proofs;
use crate::protocol::reply::{Info, Reply};
use crate::rules::{Color, Gaps, Move, Position, RuleSet, perft_divide};
use crate::solver::{Proven, SolveLimits, Solver};
use crate::stop::{Pacer, Stop};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CPU-bound work of a session (a search, perft), run on a blocking thread.
///
/// The session lends the job its engine and gets it back in the
/// [`JobDone`]: the job sizes the engine's tables for its work
/// ([`Engine::prepare`]) on its own thread, never on the thread that reads
/// the peer's lines, since making tables costs up to a second at large
/// sizes.
pub struct Job {
    pub(super) work: Work,
    /// The session's engine, if the work needs one and the session has
    /// one (it is made on first use).
    pub(super) engine: Option<Box<Engine>>,
    /// The session's options, for the engine.
    pub(super) settings: EngineSettings,
    /// What every session's tables together may take.
    pub(super) budget: Arc<MemoryBudget>,
    pub(super) stop: Arc<Stop>,
    /// Lines to emit as the job starts, before its own.
    pub(super) preamble: Vec<Reply>,
    /// When the session handed the job out, as its command arrived: a
    /// timed search's time counts from here, whenever it gets to run.
    pub(super) received: Instant,
}

pub(super) enum Work {
    Search {
        pos: Position,
        limits: Limits,
    },
    ChooseGaps {
        rules: RuleSet,
        limits: Limits,
    },
    Perft {
        pos: Position,
        depth: u32,
    },
    Solve {
        pos: Position,
        limits: SolveLimits,
    },
    Analyse {
        start: Position,
        moves: Vec<Move>,
        limits: SolveLimits,
    },
    Explore {
        pos: Position,
        limits: SolveLimits,
    },
}

impl Work {
    /// Whether the work runs on the session's engine (all but perft).
    pub(super) fn needs_engine(&self) -> bool {
        !matches!(self, Work::Perft { .. })
    }
}

/// The result of a [`Job`], to give back to the session that made it.
pub struct JobDone {
    pub(super) result: Finished,
    /// The engine the job was lent, to keep for the next; `None` for work
    /// without one.
    pub(super) engine: Option<Box<Engine>>,
}

pub(super) enum Finished {
    Search(SearchResult),
    ChooseGaps(Gaps),
    /// `None` when stopped before it finished.
    Perft(Option<Vec<(Move, u64)>>),
    /// `solution` is `None` when a budget ran out or it was stopped.
    Solve {
        pos: Position,
        solution: Option<Proven>,
    },
    Analyse(GameAnalysis),
    Explore(Exploration),
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.work {
            Work::Search { .. } => "search",
            Work::ChooseGaps { .. } => "choose-gaps",
            Work::Perft { .. } => "perft",
            Work::Solve { .. } => "solve",
            Work::Analyse { .. } => "analyse",
            Work::Explore { .. } => "explore",
        };
        f.debug_struct("Job").field("kind", &kind).finish()
    }
}

impl std::fmt::Debug for JobDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JobDone")
    }
}

/// What the server needs to know to schedule a [`Job`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobTerms {
    /// Cores it keeps busy (a session's `Threads`).
    pub threads: usize,
    /// When the session handed the job out.
    pub received: Instant,
    /// For a timed search: how long it may take from `received`; it must
    /// answer by then whether or not it got a search slot.
    pub allowance: Option<Duration>,
    /// It ends on its own (every job but an unbounded search, see
    /// [`Limits::is_unbounded`]); at the end of input a bounded job
    /// finishes and an unbounded one is stopped.
    pub bounded: bool,
}

impl Job {
    pub fn terms(&self) -> JobTerms {
        let overhead = self.settings.move_overhead_ms;
        let search = |limits: &Limits, side: Color| JobTerms {
            threads: self.settings.threads,
            received: self.received,
            allowance: limits
                .allowance_ms(side, overhead)
                .map(Duration::from_millis),
            bounded: !limits.is_unbounded(),
        };
        let untimed = |threads| JobTerms {
            threads,
            received: self.received,
            allowance: None,
            bounded: true,
        };
        match &self.work {
            Work::Search { pos, limits } => search(limits, pos.side_to_move()),
            Work::ChooseGaps { limits, .. } => search(limits, Color::Black),
            Work::Solve { .. } | Work::Analyse { .. } | Work::Explore { .. } => {
                untimed(self.settings.threads)
            }
            Work::Perft { .. } => untimed(1),
        }
    }

    /// Lets `pacer` pause the job at its polls while others have the cores
    /// (see [`crate::stop`]).
    pub fn pace_with(&self, pacer: Arc<dyn Pacer>) {
        self.stop.pace_with(pacer);
    }

    /// Runs to completion on the calling thread. `emit` gets progress lines
    /// (`info ...`) as they are produced.
    pub fn run(self, emit: &mut dyn FnMut(Reply)) -> JobDone {
        for line in self.preamble {
            emit(line);
        }
        let stop = &*self.stop;
        // Tables are made only once the job has its turn (a hundred jobs
        // making theirs at once would crowd out the threads that answer),
        // and only as large as its share of the cores can fill.
        stop.poll();
        let (settings, budget, since) = (self.settings, self.budget, self.received);
        let lent = self.engine;
        let engine = |limits: Option<(&Limits, Color)>| {
            let left =
                limits.and_then(|(l, side)| l.time_left_ms(side, settings.move_overhead_ms, since));
            Engine::prepare(lent, &settings, left, stop.share(), &budget)
        };
        let (result, engine) = match self.work {
            Work::Search { pos, limits } => {
                let mut engine = engine(Some((&limits, pos.side_to_move())));
                let result =
                    engine.search_reporting(since, &pos, &limits, stop, &mut |p| match p {
                        Progress::Search(info) => {
                            if let Some(proven) = info.proven {
                                emit(Reply::Info(Info::Proven(proven)));
                            }
                            emit(Reply::Info(Info::search(&pos, info)))
                        }
                        // A proof before the search: told as `solve` tells it.
                        Progress::Solve(p) => emit(Reply::Info(Info::Solve(*p))),
                    });
                (Finished::Search(result), Some(engine))
            }
            Work::ChooseGaps { rules, limits } => {
                let mut engine = engine(Some((&limits, Color::Black)));
                let gaps = engine.choose_gaps_reporting(since, &rules, &limits, stop, &mut |p| {
                    emit(Reply::Info(Info::Solve(*p)))
                });
                (Finished::ChooseGaps(gaps), Some(engine))
            }
            Work::Perft { pos, depth } => (Finished::Perft(perft_divide(&pos, depth, stop)), None),
            Work::Solve { pos, limits } => {
                let mut engine = engine(None);
                // What the tables prove in full (the value, its distance
                // and a line to the end) is the answer at once: on an
                // opening's proven line the solver would take minutes.
                let solution = match proofs::known_in_full(&pos) {
                    Some(known) => {
                        let table = proofs::table_name(known.source);
                        emit(Reply::Info(Info::String(format!("proven by {table}"))));
                        Some(known)
                    }
                    None => full_proofs(&mut engine).solve(&pos, &limits, stop, &mut |p| {
                        emit(Reply::Info(Info::Solve(*p)))
                    }),
                };
                (Finished::Solve { pos, solution }, Some(engine))
            }
            Work::Analyse {
                start,
                moves,
                limits,
            } => {
                let mut engine = engine(None);
                let solver = full_proofs(&mut engine);
                let analysis = analyse(&start, &moves, solver, &limits, stop, &mut |p| {
                    emit(Reply::Info(Info::analyse(p)))
                });
                (Finished::Analyse(analysis), Some(engine))
            }
            Work::Explore { pos, limits } => {
                let mut engine = engine(None);
                let side_after = !pos.side_to_move();
                let solver = full_proofs(&mut engine);
                let found = explore(&pos, solver, &limits, stop, &mut |event| {
                    emit(match event {
                        ExploreEvent::Valued(m) => Reply::explored(m),
                        ExploreEvent::Solving { mv, progress } => Reply::Info(Info::Exploring {
                            mv,
                            side_after,
                            progress: *progress,
                        }),
                    })
                });
                (Finished::Explore(found), Some(engine))
            }
        };
        JobDone { result, engine }
    }
}

/// The engine's solver, reading the book's values wherever its own table
/// knows nothing ([`proofs::values`]): for the commands that ask for whole
/// proofs (`solve`, `analyse`, `explore`), whose answers near the start
/// come quicker for it. Building that index the first time takes a third
/// of a second, which a first move at move time does not wait for; once a
/// session has built it, its solver keeps reading it, at move time too.
fn full_proofs(engine: &mut Engine) -> &mut Solver {
    let solver = engine.solver();
    solver.set_known(Some(proofs::values()));
    solver
}

#[cfg(test)]
mod tests;
