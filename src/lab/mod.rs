//! The offline tools' room: benchmarks and the data they and the tuning
//! are made from, above the engine they measure. Nothing below (`engine`,
//! `proofs`, `solver`, `eval`, `rules`) reaches up into it.
//!
//! - `bench`: the fixed search benchmark, whose node total is a signature
//!   of the search;
//! - `keep`: the keep-rate benchmark's positions and the engine's trial on
//!   each;
//! - `tune`: labelled positions and the fit of the leaf evaluation's
//!   weights.
//!
//! Their walks' seeded generator is the crate's `rng`, which the tests use
//! too.

pub mod bench;
pub mod keep;
pub mod tune;
