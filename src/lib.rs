//! pawnrace: a Pawn Race engine and line-protocol server.
//!
//! Dependencies flow one way: `server` -> `protocol` -> `engine` -> `rules`.
//! The classic problems' front ends sit beside them: `problems` -> `chess`
//! (a full-chess model with pieces as data) -> `rules` (for colours only).
//! `autorunner` plays one game in the Imperial College harness's protocol
//! with `engine` and `rules`. `tournament` referees matches between
//! engine processes with `rules` (and `engine`'s solver to adjudicate).
//! `analysis` values every move of recorded games with `engine`'s proofs.

pub mod analysis;
pub mod autorunner;
pub mod chess;
pub mod engine;
pub mod problems;
pub mod protocol;
pub mod rules;
pub mod server;
pub mod tournament;
