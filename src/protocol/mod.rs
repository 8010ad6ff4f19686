//! The line protocol: parsing a line into a command, running it against a
//! session's state, formatting replies. No I/O: the server moves the lines.

mod command;
pub mod reply;
mod session;

pub use reply::ErrorCode;
pub use session::{Action, DEFAULT_HASH_MIB, Job, JobDone, JobTerms, Session, SessionOptions};
