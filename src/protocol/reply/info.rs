//! `info ...`: what a session says on the way to a final line. A GUI shows
//! UCI's keys (depth, nodes, time, ...) as numbers and `string` as text.

use crate::analysis::{PositionDone, write::value_text};
use crate::engine::SearchInfo;
use crate::rules::{Position, uci_line};
use crate::solver::{SolvePhase, SolveProgress, Standing, Value};
use std::fmt;

#[derive(Clone, Debug)]
pub enum Info {
    /// `info depth 5 seldepth 7 score cp 12 nodes 900 nps 90000 time 10 pv
    /// e2e4 ...`, the pv written in UCI's coordinates (a promotion as
    /// `a7a8q`) from the position searched.
    Search { info: SearchInfo, pv: String },
    /// `info nodes N nps N time MS hashfull H string <phase>`: a solve's
    /// progress.
    Solve(SolveProgress),
    /// `info time MS string position 12 of 30 white wins in 19 (solver)`:
    /// one per position `analyse` values, in the order it values them.
    Analyse {
        time_ms: u64,
        index: usize,
        /// The positions' last index (the game's moves).
        last: usize,
        value: String,
        source: &'static str,
    },
    /// `info nodes N nps N time MS hashfull H string after e2e4 (black to
    /// move): deciding`: the progress of `explore`'s solve of the position
    /// after one move, for the side to move there.
    Exploring {
        mv: crate::rules::Move,
        side_after: crate::rules::Color,
        progress: SolveProgress,
    },
    /// `info string proven win in 29 plies` (or `proven win` when the
    /// distance is not known yet): the score that follows is exact.
    Proven(Standing),
    /// `info string <text>`: news for a person (a result, the gaps the
    /// engine chose, the server closing).
    String(String),
}

impl Info {
    pub fn analyse(p: &PositionDone) -> Info {
        Info::Analyse {
            time_ms: p.time_ms,
            index: p.index,
            last: p.of - 1,
            value: value_text(p.known, p.side),
            source: p.known.map_or("no proof", |k| k.source.name()),
        }
    }

    pub fn search(pos: &Position, info: &SearchInfo) -> Info {
        Info::Search {
            pv: uci_line(pos, &info.pv),
            info: info.clone(),
        }
    }
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info ")?;
        match self {
            Info::Search { info, pv } => {
                write!(f, "depth {} seldepth {}", info.depth, info.seldepth)?;
                if info.multipv != 0 {
                    write!(f, " multipv {}", info.multipv)?;
                }
                write!(
                    f,
                    " score {} nodes {} nps {} time {}",
                    info.score,
                    info.nodes,
                    info.nps(),
                    info.time_ms
                )?;
                if !info.pv.is_empty() {
                    write!(f, " pv {pv}")?;
                }
                Ok(())
            }
            Info::Solve(p) => solve_progress(f, p),
            Info::Exploring {
                mv,
                side_after,
                progress,
            } => {
                solve_counts(f, progress)?;
                write!(f, "after {mv} ({} to move): ", side_after.name())?;
                solve_phase(f, progress)
            }
            Info::Analyse {
                time_ms,
                index,
                last,
                value,
                source,
            } => write!(
                f,
                "time {time_ms} string position {index} of {last} {value} ({source})"
            ),
            Info::Proven(standing) => write!(f, "string proven {standing}"),
            Info::String(text) => write!(f, "string {text}"),
        }
    }
}

/// `nodes N nps N time MS hashfull H string <phase>`: a solve's progress.
fn solve_progress(f: &mut fmt::Formatter<'_>, p: &SolveProgress) -> fmt::Result {
    solve_counts(f, p)?;
    solve_phase(f, p)
}

/// The counts of a solve's progress, up to its `string `.
fn solve_counts(f: &mut fmt::Formatter<'_>, p: &SolveProgress) -> fmt::Result {
    write!(
        f,
        "nodes {} nps {} time {} hashfull {} string ",
        p.nodes,
        p.nps(),
        p.time_ms,
        p.hashfull
    )
}

/// Where a solve stands: `deciding`, `win proven, distance 33 so far`, ...
fn solve_phase(f: &mut fmt::Formatter<'_>, p: &SolveProgress) -> fmt::Result {
    match p.phase {
        SolvePhase::Deciding => f.write_str("deciding"),
        SolvePhase::Distance {
            value: Value::Draw, ..
        } => f.write_str("draw proven"),
        SolvePhase::Line {
            value: Value::Draw, ..
        } => f.write_str("draw proven, walking the line"),
        SolvePhase::Distance { value, plies } => {
            write!(f, "{value} proven, distance {plies} so far")
        }
        SolvePhase::Line { value, plies } => {
            write!(f, "{value} in {plies} plies, walking the line")
        }
    }
}
