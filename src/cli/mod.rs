//! The command line's subcommands beyond the protocol itself.

pub mod analyse;
pub mod book;
pub mod book_merge;
pub mod cache;
pub mod keep;
pub mod loadtest;
pub mod match_cmd;
pub mod perft;
pub mod progress;
pub mod solve;
pub mod solve_bench;
pub mod tune;

use pawnrace::problems::duel;
use pawnrace::stop::Stop;
use std::process::ExitCode;
use std::sync::Arc;

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

/// A stop flag raised by the first Ctrl-C, so that a long run (an analysis,
/// a solve) ends cleanly and reports what it has; a second Ctrl-C ends the
/// process at once. Where no handler can be installed, Ctrl-C just ends it.
pub fn stop_on_ctrl_c(what: &'static str) -> Arc<Stop> {
    let stop = Arc::new(Stop::new());
    let flag = Arc::clone(&stop);
    let watcher = std::thread::Builder::new()
        .name("ctrl-c".into())
        .spawn(move || {
            let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                .enable_io()
                .build()
            else {
                return;
            };
            runtime.block_on(async {
                if tokio::signal::ctrl_c().await.is_err() {
                    return;
                }
                eprintln!("\nstopping {what} (Ctrl-C again to quit at once)");
                flag.raise();
                if tokio::signal::ctrl_c().await.is_ok() {
                    std::process::exit(130);
                }
            });
        });
    if watcher.is_err() {
        eprintln!("pawnrace: cannot watch for Ctrl-C; it will end the run at once");
    }
    stop
}

/// Writes `contents` to `path` through a temporary file, so that a long run
/// interrupted while saving never leaves half a file.
pub fn save(path: &std::path::Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, contents)?;
    std::fs::rename(&tmp, path)
}
