//! The score scales, in one place: the static evaluation's range, the
//! search's mate scores and the solver's win scores.
//!
//! Two scales of proven results exist on purpose, with different names:
//! - [`SEARCH_MATE`] (30,000): the heuristic search's win on the spot; a
//!   win `n` plies from the root scores `SEARCH_MATE - n`. Its transposition
//!   table keeps scores in an `i16` too, and anything within [`MAX_PLY`] of
//!   it ([`MATE_BOUND`]) is a proven result, kept above every static value
//!   ([`EVAL_LIMIT`]).
//! - [`SOLVER_WIN`] (10,000): the exact solver's win on the spot; a win in
//!   `k` plies from the node scores `SOLVER_WIN - k`, a loss `-(SOLVER_WIN -
//!   k)`, a draw 0. Scores are node-relative and never mixed with static
//!   values (the solver uses the evaluation only to order moves), so the
//!   scale need only exceed the longest game, and it fits the solver's
//!   packed `i16` bounds with room to spare.
//!
//! Changing either number changes node counts (the search's and the
//! solver's move ordering read them), so they stay as they were.

/// No static value may look like a proven result: the evaluation stays
/// within `±EVAL_LIMIT`.
pub const EVAL_LIMIT: i32 = 20_000;

/// The search's score of winning right now; a win `n` plies away scores
/// `SEARCH_MATE - n`.
pub const SEARCH_MATE: i32 = 30_000;
/// The deepest the search goes, quiescence included.
pub const MAX_PLY: i32 = 128;
/// Any search score at least this large is a proven win.
pub const MATE_BOUND: i32 = SEARCH_MATE - MAX_PLY;

/// The solver's score of a win on the spot; `SOLVER_WIN - k` is a win in
/// `k` plies.
pub const SOLVER_WIN: i32 = 10_000;

const _: () = assert!(EVAL_LIMIT < MATE_BOUND);
const _: () = assert!(SEARCH_MATE < i16::MAX as i32);
const _: () = assert!(SOLVER_WIN < i16::MAX as i32);
