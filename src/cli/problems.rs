//! The classic problems' front ends (`chess-validator`, `pawn-validator`,
//! `mini4`): input on stdin, answers on stdout, nothing to configure.

use std::io::{self, Stderr, StdinLock, StdoutLock};
use std::process::ExitCode;

/// A problem's front end on the standard streams. Bad input is answered and
/// explained by the problem itself; only a stream that fails ends it early.
pub fn run(
    problem: fn(StdinLock<'static>, StdoutLock<'static>, Stderr) -> io::Result<()>,
) -> ExitCode {
    match problem(io::stdin().lock(), io::stdout().lock(), io::stderr()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pawnrace: {e}");
            ExitCode::FAILURE
        }
    }
}
