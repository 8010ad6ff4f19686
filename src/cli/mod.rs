//! The command line's subcommands beyond the protocol itself.

pub mod analyse;
pub mod book;
pub mod keep;
pub mod loadtest;
pub mod match_cmd;
pub mod perft;
pub mod progress;
pub mod solve;

use pawnrace::problems::duel;
use std::process::ExitCode;

/// `pawnrace duel e2 e7 w`: one answer, or the reason there is none.
pub fn duel_once(query: &str) -> ExitCode {
    match duel::parse_query(query).and_then(|(w, b, side)| duel::duel(w, b, side)) {
        Ok(winner) => {
            println!("{}", duel::answer_word(winner));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pawnrace duel: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` to `path` through a temporary file, so that a long run
/// interrupted while saving never leaves half a file.
pub fn save(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, text)?;
    std::fs::rename(&tmp, path)
}
