//! pawnrace: a Pawn Race engine and line-protocol server.
//!
//! Dependencies flow one way: `server` -> `protocol` -> `engine` -> `rules`.

pub mod rules;
