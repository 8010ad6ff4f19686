//! Many games at once, as `pawnrace analyse` reads them from a match: the
//! games shared among workers, each with its own solver, every game
//! analysed by [`analyse`] as it would be alone.
//!
//! Games with the same start go to the same worker, one after another:
//! their positions repeat, and the worker's table still holds the proofs.

use super::{GameAnalysis, analyse, judge, line_of};
use crate::rules::{Move, Position};
use crate::solver::{SolveLimits, Solver};
use crate::stop::Stop;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// One game to analyse: where it starts and the moves played (legal in
/// turn).
#[derive(Clone, Debug)]
pub struct Game {
    pub start: Position,
    pub moves: Vec<Move>,
}

/// Analyses `games` on as many threads as `solvers` has (one solver each),
/// games with the same start on the same worker in their order; `done`
/// hears of each game as it ends (its index, its analysis, the time it
/// took), from the worker's thread. The analyses come back in the games'
/// order; with no solver, every position is unknown.
pub fn analyse_games(
    games: &[Game],
    solvers: &mut [Solver],
    limits: &SolveLimits,
    stop: &Stop,
    done: &(dyn Fn(usize, &GameAnalysis, Duration) + Sync),
) -> Vec<GameAnalysis> {
    let mut groups: Vec<(Position, Vec<usize>)> = Vec::new();
    for (i, g) in games.iter().enumerate() {
        match groups.iter_mut().find(|(start, _)| *start == g.start) {
            Some((_, members)) => members.push(i),
            None => groups.push((g.start, vec![i])),
        }
    }
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<GameAnalysis>>> = Mutex::new(vec![None; games.len()]);
    std::thread::scope(|s| {
        for solver in solvers.iter_mut() {
            let (groups, next, results) = (&groups, &next, &results);
            s.spawn(move || {
                while let Some((_, members)) = groups.get(next.fetch_add(1, Ordering::Relaxed)) {
                    for &i in members {
                        let started = Instant::now();
                        let g = &games[i];
                        let a = analyse(&g.start, &g.moves, solver, limits, stop, &mut |_| {});
                        done(i, &a, started.elapsed());
                        if let Ok(mut r) = results.lock() {
                            r[i] = Some(a);
                        }
                    }
                }
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results
        .into_iter()
        .zip(games)
        .map(|(a, g)| a.unwrap_or_else(|| unreached(g)))
        .collect()
}

/// A game no worker reached (there were no solvers): every position
/// unknown, as the stop flag would leave it.
fn unreached(game: &Game) -> GameAnalysis {
    let line = line_of(&game.start, &game.moves);
    let values = vec![None; line.len()];
    GameAnalysis {
        moves: judge(&line, &game.moves, &values),
        positions: values,
        stopped: true,
    }
}

#[cfg(test)]
#[path = "batch_tests.rs"]
mod tests;
