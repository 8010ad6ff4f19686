//! pawnrace: a Pawn Race engine and line-protocol server.
//!
//! Dependencies flow one way: `server` -> `protocol` -> `engine` -> `rules`.

pub mod engine;
pub mod protocol;
pub mod rules;
pub mod server;
