//! `--cache FILE`: a solver's proofs read before a run and written after
//! it, so that the next run (another solve, another book run in the same
//! opening) starts from them. Opt-in, one file per run at a time.

use pawnrace::solver::{CACHE_MIN_WORK, Solver};
use std::path::{Path, PathBuf};

/// The cache a run was given, and whether it may be written over.
pub struct CacheFile {
    path: PathBuf,
    /// False when the file is there but could not be read as a cache (a
    /// damaged file, another build's, not a cache at all): it is left as it
    /// is rather than lost.
    writable: bool,
}

impl CacheFile {
    /// Reads `path` into `solver`'s table, saying on stderr what came of
    /// it. A file that is missing is made by [`CacheFile::save`]; one that
    /// cannot be read is reported and the run goes on without it.
    pub fn open(tool: &str, path: Option<&Path>, solver: &mut Solver) -> Option<CacheFile> {
        let path = path?;
        let writable = match std::fs::read(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                eprintln!(
                    "{tool}: {} does not exist yet; it will be made",
                    path.display()
                );
                true
            }
            Err(e) => {
                eprintln!(
                    "{tool}: cannot read the cache {}: {e}; going on without it",
                    path.display()
                );
                false
            }
            Ok(bytes) => match solver.load_cache(&bytes) {
                Ok(n) => {
                    eprintln!("{tool}: {n} proofs read from {}", path.display());
                    true
                }
                Err(e) => {
                    eprintln!(
                        "{tool}: the cache {}: {e}; going on without it, and leaving the file as it is (remove it to start a new one)",
                        path.display()
                    );
                    false
                }
            },
        };
        Some(CacheFile {
            path: path.to_path_buf(),
            writable,
        })
    }

    /// Writes the table's proofs from big subtrees (those read at the start
    /// among them, while the table kept them) over the file. `false` if it
    /// could not be written.
    pub fn save(&self, tool: &str, solver: &Solver) -> bool {
        if !self.writable {
            return true;
        }
        let bytes = solver.cache_bytes(CACHE_MIN_WORK);
        match super::save(&self.path, &bytes) {
            Ok(()) => {
                eprintln!(
                    "{tool}: {:.1} MiB of proofs written to {}",
                    bytes.len() as f64 / f64::from(1 << 20),
                    self.path.display()
                );
                true
            }
            Err(e) => {
                eprintln!(
                    "{tool}: cannot write the cache {}: {e}",
                    self.path.display()
                );
                false
            }
        }
    }
}
