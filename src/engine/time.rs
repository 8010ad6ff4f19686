//! Search limits and how much time a move may take.

/// The limits of one search, as `go` gives them. Clock values may be
/// negative (a late GUI); they count as zero.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime_ms: Option<u64>,
    pub wtime_ms: Option<i64>,
    pub btime_ms: Option<i64>,
    pub winc_ms: Option<i64>,
    pub binc_ms: Option<i64>,
    pub movestogo: Option<u32>,
    /// Search until stopped; never end on its own.
    pub infinite: bool,
}
