//! pawnrace: a Pawn Race engine and line-protocol server.
//!
//! Dependencies flow one way: `server` -> `protocol` -> `engine` -> `proofs`
//! (the openings table and the book) -> `solver` (exact values) -> `eval`
//! (race arithmetic and score scales, shared by the search and the solver)
//! -> `rules`. The engine uses `solver` and `eval` directly too; nothing
//! below it reaches back up.
//! The classic problems' front ends sit beside them: `problems` -> `chess`
//! (a full-chess model with pieces as data) -> `rules` (for colours only),
//! and `problems` -> `solver`.
//! `autorunner` plays one game in the Imperial College harness's protocol
//! with `engine` and `rules`. `tournament` referees matches between
//! engine processes with `rules` (and the `solver` to adjudicate).
//! `analysis` values every move of recorded games with the proofs and the solver.
//! `lab` holds the offline tools above the engine: the benchmarks, the
//! keep set and the evaluation's tuning.
//! `rng` (a seeded generator) depends on nothing; `testkit`, for tests
//! only, sits on top of everything.

pub mod analysis;
pub mod autorunner;
pub mod chess;
pub mod engine;
mod eval;
pub mod lab;
pub mod memory;
pub mod pgn;
pub mod problems;
pub mod proofs;
pub mod protocol;
pub mod rng;
pub mod rules;
pub mod server;
pub mod solver;
pub mod stop;
#[doc(hidden)]
pub mod testkit;
pub mod tournament;
