//! The command line's subcommands beyond the protocol itself.

pub mod progress;
pub mod solve;
