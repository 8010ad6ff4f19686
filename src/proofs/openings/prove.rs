//! The driver that proves the openings (`pawnrace solve --all-gaps`): each
//! opening's result, distance and line, then which of white's first moves
//! keep the result.

use super::{Opening, Openings, ProvenOpening, mirror_proof};
use crate::proofs::ProofEvent;
use crate::rules::{Color, Gaps, Move, Position, RuleSet};
use crate::solver::{SolveLimits, SolveProgress, Solver, Source, Value};
use crate::stop::Stop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Budgets of one opening's proof.
#[derive(Copy, Clone, Debug, Default)]
pub struct ProveLimits {
    /// For the opening itself.
    pub opening: SolveLimits,
    /// For each first move when sorting out which keep the result.
    pub first_move: SolveLimits,
}

/// One opening's proof and what it cost.
#[derive(Clone, Debug)]
pub struct Proved {
    pub proof: Opening,
    /// Proving the result, its distance and its line; `None` when they came
    /// from the table and only first moves were tried again.
    pub solving: Option<Duration>,
    /// Sorting out which first moves keep the result.
    pub keeping: Duration,
}

/// Proves one opening: its result, its line, and which first moves keep it.
pub fn prove(
    solver: &mut Solver,
    gaps: Gaps,
    limits: &ProveLimits,
    stop: &Stop,
    progress: &mut dyn FnMut(&SolveProgress),
) -> Proved {
    let started = Instant::now();
    let unknown = |note: String| Proved {
        proof: Opening::Unknown(note),
        solving: Some(started.elapsed()),
        keeping: Duration::ZERO,
    };
    let start = match Position::start(RuleSet::PAWNRACE, Some(gaps)) {
        Ok(p) => p,
        Err(e) => return unknown(e.to_string()),
    };
    let Some(mut proven) = solver.solve(&start, &limits.opening, stop, progress) else {
        return unknown("not proven within the budget".into());
    };
    proven.source = Source::Openings;
    let solving = started.elapsed();
    let winner = proven.winner(Color::White);
    let (keep, unsettled) = sort_first_moves(
        solver,
        &start,
        winner,
        start.legal_moves().iter().copied(),
        &limits.first_move,
        stop,
    );
    Proved {
        proof: Opening::Proven(ProvenOpening {
            proven,
            keep,
            unsettled,
        }),
        solving: Some(solving),
        keeping: started.elapsed() - solving,
    }
}

/// Tries again, within `limits.first_move`, the first moves a proven
/// opening left unsettled. `None` when there were none.
pub fn settle(
    solver: &mut Solver,
    gaps: Gaps,
    proven: &ProvenOpening,
    limits: &ProveLimits,
    stop: &Stop,
) -> Option<Proved> {
    if proven.unsettled.is_empty() {
        return None;
    }
    let start = Position::start(RuleSet::PAWNRACE, Some(gaps)).ok()?;
    let started = Instant::now();
    let (kept, still) = sort_first_moves(
        solver,
        &start,
        proven.winner(),
        proven.unsettled.iter().copied(),
        &limits.first_move,
        stop,
    );
    // In the order the moves are generated, as a fresh proof lists them.
    let mut keep: Vec<Move> = proven.keep.iter().chain(&kept).copied().collect();
    let generated = start.legal_moves();
    keep.sort_by_key(|m| generated.iter().position(|l| l == m));
    Some(Proved {
        proof: Opening::Proven(ProvenOpening {
            keep,
            unsettled: still,
            ..proven.clone()
        }),
        solving: None,
        keeping: started.elapsed(),
    })
}

/// Which of `moves`, white's first moves from `start`, keep the opening's
/// result (`winner`), and which could not be settled within `limits`.
/// Nothing keeps a black win: every move loses.
fn sort_first_moves(
    solver: &mut Solver,
    start: &Position,
    winner: Option<Color>,
    moves: impl Iterator<Item = Move>,
    limits: &SolveLimits,
    stop: &Stop,
) -> (Vec<Move>, Vec<Move>) {
    // What black must not reach after a first move that keeps the result.
    let spoiler = match winner {
        Some(Color::White) => Value::Draw,
        None => Value::Win,
        Some(Color::Black) => return (Vec::new(), Vec::new()),
    };
    let (mut keep, mut unsettled) = (Vec::new(), Vec::new());
    for m in moves {
        let child = start.play_unchecked(m);
        match solver.at_least(&child, spoiler, limits, stop) {
            Some(false) => keep.push(m),
            Some(true) => {}
            None => unsettled.push(m),
        }
    }
    (keep, unsettled)
}

/// The pairs that need proving; their file mirrors share the result.
pub fn canonical_gaps(width: u8) -> impl Iterator<Item = Gaps> {
    Gaps::all(width).filter(move |g| 2 * g.white < width)
}

/// How `prove_all` spreads the openings over the machine.
pub struct Workers<'a> {
    /// Openings proven at once, each on its own thread with its own solver
    /// (one per core measured faster than two threads on one opening: 62.5
    /// s against 86.6 s for AB and AC).
    pub count: usize,
    /// Makes one worker's solver (its table and threads).
    pub solver: &'a (dyn Fn() -> Solver + Sync),
}

/// What a worker sends back to the thread that holds the table.
enum Message {
    Progress(Gaps, SolveProgress),
    Done(Gaps, Proved),
}

/// Proves every opening missing from `table` (or not proven there), and
/// tries again the first moves that proven ones left unsettled, up to
/// `workers.count` openings at once. The calling thread stores each result
/// and its mirror as soon as it is known and reports it
/// ([`ProofEvent::Opening`], with the table to save, so that a long run can
/// stop and resume) to `report`, which also hears each solve's progress.
pub fn prove_all(
    table: &mut Openings,
    workers: &Workers<'_>,
    limits: &ProveLimits,
    stop: &Stop,
    report: &mut dyn FnMut(ProofEvent),
) {
    let width = RuleSet::PAWNRACE.width();
    let todo: Vec<(Gaps, Option<ProvenOpening>)> = canonical_gaps(width)
        .filter_map(|gaps| match table.get(gaps) {
            Some(Opening::Proven(p)) if p.unsettled.is_empty() => None,
            Some(Opening::Proven(p)) => Some((gaps, Some(p.clone()))),
            _ => Some((gaps, None)),
        })
        .collect();
    let next = AtomicUsize::new(0);
    let (sender, messages) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..workers.count.clamp(1, todo.len().max(1)) {
            let sender = sender.clone();
            let (todo, next) = (&todo, &next);
            scope.spawn(move || {
                let mut solver = (workers.solver)();
                while !stop.is_raised() {
                    let Some((gaps, known)) = todo.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let gaps = *gaps;
                    let proved = match known {
                        Some(proven) => settle(&mut solver, gaps, proven, limits, stop),
                        None => Some(prove(&mut solver, gaps, limits, stop, &mut |p| {
                            // The receiver only goes away when the run ends.
                            let _ = sender.send(Message::Progress(gaps, *p));
                        })),
                    };
                    if let Some(proved) = proved
                        && sender.send(Message::Done(gaps, proved)).is_err()
                    {
                        break;
                    }
                }
            });
        }
        // The loop ends when every worker has finished and hung up.
        drop(sender);
        for message in messages {
            match message {
                Message::Progress(gaps, progress) => report(ProofEvent::Progress {
                    gaps: Some(gaps),
                    progress: &progress,
                }),
                Message::Done(gaps, proved) => {
                    let mirror = Gaps {
                        white: width - 1 - gaps.white,
                        black: width - 1 - gaps.black,
                    };
                    table.insert(mirror, mirror_proof(&proved.proof, width));
                    table.insert(gaps, proved.proof.clone());
                    report(ProofEvent::Opening {
                        table,
                        gaps,
                        proved: &proved,
                    });
                }
            }
        }
    });
}
