//! The command line's own subcommands, run as a user would.

#[path = "../common/mod.rs"]
mod common;

mod bench;
mod book;
mod flags;
mod solve;
mod traps;

fn pawnrace(args: &[&str]) -> (bool, String, String) {
    common::run_binary(args, b"")
}
