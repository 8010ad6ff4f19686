//! Work a session hands out to run off the async workers.

use crate::analysis::{GameAnalysis, PositionDone, analyse, write};
use crate::engine::{Engine, Limits, SearchResult};
use crate::memory::{MemoryBudget, Reservation};
use crate::protocol::reply::info_line;
use crate::rules::{Color, Gaps, Move, Position, RuleSet, perft_divide};
use crate::solver::{Solution, SolveLimits, SolvePhase, SolveProgress, Value};
use crate::stop::{Pacer, Stop};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// CPU-bound work of a session (a search, perft), run on a blocking thread.
pub struct Job {
    pub(super) work: Work,
    pub(super) stop: Arc<Stop>,
    /// Lines to emit as the job starts, before its own.
    pub(super) preamble: Vec<String>,
}

/// The session's engine as a job takes it. Making and resizing tables
/// costs up to a second at large sizes, so it happens in
/// [`EngineSlot::ready`] on the job's thread, never on the thread that
/// reads the peer's lines.
pub(super) struct EngineSlot {
    pub(super) held: Option<Held>,
    /// The `Hash` option: the most each table may take.
    pub(super) hash_mib: usize,
    pub(super) threads: usize,
    pub(super) budget: Arc<MemoryBudget>,
}

/// An engine and the memory its tables hold from the server's budget.
pub(super) struct Held {
    pub(super) engine: Box<Engine>,
    pub(super) memory: Reservation,
}

impl EngineSlot {
    /// The engine, with tables fit for a search with `allowance_ms` to go
    /// (see [`Engine::table_mib_for`]) and what the budget has left: they
    /// grow for a longer search than any before, and shrink only when
    /// `Hash` went below them.
    fn ready(self, allowance_ms: Option<u64>, share: Option<(usize, usize)>) -> Held {
        let want = match (share, allowance_ms) {
            (None, _) => Engine::table_mib_for(allowance_ms, self.hash_mib),
            // Sharing the cores, a timed search fills what its share of
            // them can; untimed work gets the smallest tables.
            (Some((cores, jobs)), Some(ms)) => {
                let expected = ms * cores as u64 / jobs.max(1) as u64;
                Engine::table_mib_for(Some(expected), self.hash_mib)
            }
            (Some(_), None) => 1,
        };
        let mut held = match self.held {
            Some(held) if (want..=self.hash_mib).contains(&held.engine.hash_mib()) => held,
            old => {
                // The old tables and their memory go before new ones come.
                drop(old);
                // Two tables of the size: the search's and the solver's.
                // With the budget spent they are made as small as they go
                // (a few buckets): a crowded server plays weaker, within
                // its memory.
                let memory = self.budget.reserve(2 * want, 0);
                let mib = memory.mib() / 2;
                Held {
                    engine: Box::new(Engine::new(mib)),
                    memory,
                }
            }
        };
        held.engine.set_threads(self.threads);
        held
    }
}

pub(super) enum Work {
    Search {
        engine: EngineSlot,
        pos: Position,
        limits: Limits,
    },
    ChooseGaps {
        engine: EngineSlot,
        rules: RuleSet,
        limits: Limits,
    },
    Perft {
        pos: Position,
        depth: u32,
    },
    Solve {
        engine: EngineSlot,
        pos: Position,
        limits: SolveLimits,
    },
    Analyse {
        engine: EngineSlot,
        start: Position,
        moves: Vec<Move>,
        limits: SolveLimits,
    },
}

/// The result of a [`Job`], to give back to the session that made it.
pub struct JobDone {
    pub(super) result: Finished,
}

pub(super) enum Finished {
    Search {
        engine: Held,
        result: SearchResult,
    },
    ChooseGaps {
        engine: Held,
        gaps: Gaps,
    },
    /// `None` when stopped before it finished.
    Perft {
        divide: Option<Vec<(Move, u64)>>,
    },
    /// `solution` is `None` when a budget ran out or it was stopped.
    Solve {
        engine: Held,
        pos: Position,
        solution: Option<Solution>,
    },
    Analyse {
        engine: Held,
        analysis: GameAnalysis,
    },
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match &self.work {
            Work::Search { .. } => "search",
            Work::ChooseGaps { .. } => "choose-gaps",
            Work::Perft { .. } => "perft",
            Work::Solve { .. } => "solve",
            Work::Analyse { .. } => "analyse",
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
    /// For a timed search: how long it may take from the moment it was
    /// received (see [`Job::received`]); it must answer by then whether or
    /// not it got a search slot.
    pub allowance: Option<Duration>,
    /// It ends on its own (every job but `go infinite` without a depth or
    /// node limit, and `go ponder`); at the end of input a bounded job
    /// finishes and an unbounded one is stopped.
    pub bounded: bool,
}

impl Job {
    pub fn terms(&self) -> JobTerms {
        let unbounded =
            |l: &Limits| l.ponder || (l.infinite && l.depth.is_none() && l.nodes.is_none());
        let ms = Duration::from_millis;
        match &self.work {
            Work::Search {
                engine,
                pos,
                limits,
            } => JobTerms {
                threads: engine.threads,
                allowance: limits.allowance_ms(pos.side_to_move()).map(ms),
                bounded: !unbounded(limits),
            },
            Work::ChooseGaps { engine, limits, .. } => JobTerms {
                threads: engine.threads,
                allowance: limits.allowance_ms(Color::Black).map(ms),
                bounded: !unbounded(limits),
            },
            Work::Solve { engine, .. } | Work::Analyse { engine, .. } => JobTerms {
                threads: engine.threads,
                allowance: None,
                bounded: true,
            },
            Work::Perft { .. } => JobTerms {
                threads: 1,
                allowance: None,
                bounded: true,
            },
        }
    }

    /// Tells a search when its command arrived: its time counts from then,
    /// whenever it gets to run.
    pub fn received(&mut self, at: Instant) {
        match &mut self.work {
            Work::Search { limits, .. } | Work::ChooseGaps { limits, .. } => {
                limits.started = Some(at);
            }
            Work::Perft { .. } | Work::Solve { .. } | Work::Analyse { .. } => {}
        }
    }

    /// Lets `pacer` pause the job at its polls while others have the cores
    /// (see [`crate::stop`]).
    pub fn pace_with(&self, pacer: Arc<dyn Pacer>) {
        self.stop.pace_with(pacer);
    }

    /// Runs to completion on the calling thread. `emit` gets progress lines
    /// (`info ...`) as they are produced.
    pub fn run(self, emit: &mut dyn FnMut(String)) -> JobDone {
        for line in self.preamble {
            emit(line);
        }
        let stop = &*self.stop;
        // Tables are made only once the job has its turn (a hundred jobs
        // making theirs at once would crowd out the threads that answer),
        // and only as large as its share of the cores can fill: making
        // them costs every search on the machine, and a hundred crowded
        // searches once spent two fifths of the time zeroing tables they
        // could not use.
        stop.poll();
        let share = stop.share();
        let result = match self.work {
            Work::Search {
                engine,
                pos,
                limits,
            } => {
                let mut engine = engine.ready(time_left(&limits, pos.side_to_move()), share);
                let result = engine.engine.search(&pos, &limits, stop, &mut |info| {
                    if let Some((value, plies)) = info.proven {
                        emit(proven_line(value, plies));
                    }
                    emit(info_line(&pos, info))
                });
                Finished::Search { engine, result }
            }
            Work::ChooseGaps {
                engine,
                rules,
                limits,
            } => {
                let mut engine = engine.ready(time_left(&limits, Color::Black), share);
                let gaps = engine.engine.choose_gaps(&rules, &limits, stop);
                Finished::ChooseGaps { engine, gaps }
            }
            Work::Perft { pos, depth } => Finished::Perft {
                divide: perft_divide(&pos, depth, stop),
            },
            Work::Solve {
                engine,
                pos,
                limits,
            } => {
                let mut engine = engine.ready(None, share);
                let solution = engine
                    .engine
                    .solver()
                    .solve(&pos, &limits, stop, &mut |p| emit(solve_info(p)));
                Finished::Solve {
                    engine,
                    pos,
                    solution,
                }
            }
            Work::Analyse {
                engine,
                start,
                moves,
                limits,
            } => {
                let mut engine = engine.ready(None, share);
                let analysis = analyse(
                    &start,
                    &moves,
                    engine.engine.solver(),
                    &limits,
                    stop,
                    &mut |p| emit(analyse_info(p)),
                );
                Finished::Analyse { engine, analysis }
            }
        };
        JobDone { result }
    }
}

/// What is left of a timed search's allowance now that it starts (it may
/// have waited for its turn).
fn time_left(limits: &Limits, side: Color) -> Option<u64> {
    let waited = limits.started.map_or(0, |t| t.elapsed().as_millis() as u64);
    limits
        .allowance_ms(side)
        .map(|ms| ms.saturating_sub(waited))
}

/// `info nodes N nps N time MS hashfull H string <phase>`: UCI's keys, so
/// that a GUI shows the numbers, and the phase as text.
fn solve_info(p: &SolveProgress) -> String {
    let phase = match p.phase {
        SolvePhase::Deciding => "deciding".to_string(),
        SolvePhase::Distance {
            value: Value::Draw, ..
        } => "draw proven".to_string(),
        SolvePhase::Line {
            value: Value::Draw, ..
        } => "draw proven, walking the line".to_string(),
        SolvePhase::Distance { value, plies } => {
            format!("{value} proven, distance {plies} so far")
        }
        SolvePhase::Line { value, plies } => {
            format!("{value} in {plies} plies, walking the line")
        }
    };
    format!(
        "info nodes {} nps {} time {} hashfull {} string {phase}",
        p.nodes,
        p.nps(),
        p.time_ms,
        p.hashfull
    )
}

/// `info time MS string position 12 of 30 white wins in 19 (solver)`: one
/// per position, in the order they are valued (the last first).
fn analyse_info(p: &PositionDone) -> String {
    let value = write::value_text(p.known.as_ref());
    let source = p.known.map_or("no proof", |k| k.source.name());
    format!(
        "info time {} string position {} of {} {value} ({source})",
        p.time_ms,
        p.index,
        p.of - 1
    )
}

/// `info string proven win in 29 plies` (or `proven win` when the distance
/// is not known yet): the score that follows is exact.
fn proven_line(value: Value, plies: Option<u32>) -> String {
    match (value, plies) {
        (Value::Draw, _) => "info string proven draw".into(),
        (_, Some(plies)) => format!("info string proven {value} in {plies} plies"),
        (_, None) => format!("info string proven {value}"),
    }
}
