//! The line protocol: parsing a line into a command, running it against a
//! session's state, the typed replies it sends. No I/O: the server moves
//! the lines.

mod command;
pub mod reply;
mod session;
pub mod variant_ini;
pub mod xboard;

pub use command::{ParseError, Verb};
pub use reply::{Dialect, ErrorCode, FINAL_WORDS, Refusal, Reply, is_final_line};
pub use session::{Action, DEFAULT_HASH_MIB, Job, JobDone, JobTerms, Session, SessionOptions};
