//! Work a session hands out to run off the async workers.

use crate::analysis::{GameAnalysis, PositionDone, analyse, write};
use crate::engine::{Engine, Limits, SearchResult};
use crate::protocol::reply::info_line;
use crate::rules::{Gaps, Move, Position, RuleSet, perft_divide};
use crate::solver::{Solution, SolveLimits, SolvePhase, SolveProgress, Value};
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
    Solve {
        engine: Box<Engine>,
        pos: Position,
        limits: SolveLimits,
    },
    Analyse {
        engine: Box<Engine>,
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
    /// `solution` is `None` when a budget ran out or it was stopped.
    Solve {
        engine: Box<Engine>,
        pos: Position,
        solution: Option<Solution>,
    },
    Analyse {
        engine: Box<Engine>,
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
                let result = engine.search(&pos, &limits, stop, &mut |info| {
                    if let Some((value, plies)) = info.proven {
                        emit(proven_line(value, plies));
                    }
                    emit(info_line(&pos, info))
                });
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
            Work::Solve {
                mut engine,
                pos,
                limits,
            } => {
                let solution = engine
                    .solver()
                    .solve(&pos, &limits, stop, &mut |p| emit(solve_info(p)));
                Finished::Solve {
                    engine,
                    pos,
                    solution,
                }
            }
            Work::Analyse {
                mut engine,
                start,
                moves,
                limits,
            } => {
                let analysis = analyse(&start, &moves, engine.solver(), &limits, stop, &mut |p| {
                    emit(analyse_info(p))
                });
                Finished::Analyse { engine, analysis }
            }
        };
        JobDone { result }
    }
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
