//! The command line: one file per subcommand (its arguments and its run),
//! `args` for the groups several share. main.rs only dispatches.

pub mod analyse;
pub mod args;
pub mod autorunner;
pub mod bench;
pub mod book;
pub mod book_merge;
pub mod cache;
pub mod duel;
pub mod keep_set;
pub mod loadtest;
pub mod match_cmd;
pub mod perft;
pub mod problems;
pub mod progress;
pub mod serve;
pub mod solve;
pub mod traps;
pub mod tune;
pub mod xboard;

use pawnrace::stop::Stop;
use std::path::Path;
use std::sync::Arc;

/// The text of the table a resumable run grows (`--out`), read before it
/// writes anything. A file not there yet is an empty table; one that cannot
/// be read (not text, a folder, not permitted) is an error naming it, so
/// that a run never writes over a file it could not read.
pub fn read_out(path: &Path) -> Result<String, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Logs go to stderr: stdout belongs to the protocol. `default` is the
/// level when `RUST_LOG` does not say.
pub fn init_tracing(default: &str) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(ansi)
        .with_env_filter(filter)
        .init();
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
