//! The offline tools' room: benchmarks and the data they and the tuning
//! are made from, above the engine they measure. Nothing below (`engine`,
//! `proofs`, `solver`, `eval`, `rules`) reaches up into it.
//!
//! - `bench`: the fixed search benchmark, whose node total is a signature
//!   of the search;
//! - `keep`: the keep-rate benchmark's positions and the engine's trial on
//!   each;
//! - `tune`: labelled positions and the fit of the leaf evaluation's
//!   weights;
//! - `rng`: the seeded walks' generator that `keep` and `tune` share.

pub mod bench;
pub mod keep;
mod rng;
pub mod tune;
