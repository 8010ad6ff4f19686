//! Argument groups that several subcommands share, so that a flag means
//! the same thing, with the same help, wherever it is given.

use clap::Args;
use pawnrace::rules::{Gaps, Move, Position, PositionError, RuleSet, Variant};
use pawnrace::solver::SolveLimits;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Table size for what a move at move time gets: a session's engine, and
/// the benchmarks and tools that measure or check move-time play.
pub const SESSION_HASH_MIB: usize = pawnrace::protocol::DEFAULT_HASH_MIB;
/// Table size for the offline proofs (openings, book, keep set, analysis):
/// long solves that live on their table.
pub const PROOF_HASH_MIB: usize = 1024;
/// Table size for labelling tuning positions: many small solves of a
/// million nodes or so each, where a bigger table buys nothing.
pub const LABEL_HASH_MIB: usize = 64;

/// `--hash`: the one table flag, the same name and help everywhere, with
/// the default of the purpose (one of the constants above). A type per
/// purpose rather than one generic over the default: clap's derive keeps a
/// default's text in one static per impl, which every instance of a
/// generic would share.
macro_rules! table_args {
    ($(#[$doc:meta] $name:ident = $default:expr;)*) => {$(
        #[$doc]
        #[derive(Args, Clone, Copy, Debug)]
        pub struct $name {
            /// Size of each table the command searches with, MiB: the
            /// search's transposition table and the exact solver's, or the
            /// solver's alone where nothing else searches.
            #[arg(long = "hash", value_name = "MIB", default_value_t = $default)]
            pub mib: usize,
        }
    )*};
}

table_args! {
    /// A session's engine, or a tool measuring move-time play.
    SessionTable = SESSION_HASH_MIB;
    /// An offline proof.
    ProofTable = PROOF_HASH_MIB;
    /// Labelling tuning positions.
    LabelTable = LABEL_HASH_MIB;
}

/// `--gaps`, `--fen`, `--variant`: the position a command starts from.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The start of a Pawn Race with these gaps (white's first, e.g. AH).
    #[arg(long, conflicts_with = "fen")]
    pub gaps: Option<Gaps>,
    /// This position instead (see protocol.md for the text).
    #[arg(long)]
    pub fen: Option<String>,
    /// The rules of --fen: pawnrace or mini4.
    #[arg(long, default_value = "pawnrace")]
    pub variant: Variant,
}

impl PositionArgs {
    /// The position asked for; `None` where neither --gaps nor --fen is
    /// given.
    pub fn position(&self) -> Option<Result<Position, PositionError>> {
        let rules = self.variant.rules();
        match (&self.fen, self.gaps) {
            (Some(fen), _) => Some(Position::from_fen(fen, rules)),
            (None, Some(gaps)) => Some(Position::start(rules, Some(gaps))),
            (None, None) => None,
        }
    }

    /// The position asked for, or the start of `default` gaps.
    pub fn position_or(&self, default: Gaps) -> Result<Position, PositionError> {
        self.position()
            .unwrap_or_else(|| Position::start(self.variant.rules(), Some(default)))
    }
}

/// `--movetime`, `--nodes`: when a proof gives up.
#[derive(Args, Clone, Copy, Debug)]
pub struct BudgetArgs {
    /// Give up on a position after this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub movetime: Option<u64>,
    /// Give up on a position after this many nodes.
    #[arg(long, value_name = "N")]
    pub nodes: Option<u64>,
}

impl BudgetArgs {
    /// The solver's limits, unbounded where nothing is given.
    pub fn limits(&self) -> SolveLimits {
        SolveLimits {
            nodes: self.nodes,
            movetime_ms: self.movetime,
        }
    }

    /// The solver's limits, `movetime_ms` where neither flag is given.
    pub fn limits_or_movetime(&self, movetime_ms: u64) -> SolveLimits {
        match (self.movetime, self.nodes) {
            (None, None) => SolveLimits {
                nodes: None,
                movetime_ms: Some(movetime_ms),
            },
            _ => self.limits(),
        }
    }
}

/// `--set`: the keep set the keep and solver benchmarks read.
#[derive(Args, Debug)]
pub struct SetArgs {
    /// Read the positions from this file instead of the committed keep set.
    #[arg(long, value_name = "FILE")]
    pub set: Option<PathBuf>,
    /// Only the set's positions this many plies into their opening: `1-3`,
    /// or `2` for one length.
    #[arg(long, value_name = "LO-HI", value_parser = parse_ply_range)]
    pub plies: Option<(u32, u32)>,
}

/// `LO-HI` or `N` (for `N-N`), plies into an opening, `1 <= LO <= HI`.
pub fn parse_ply_range(s: &str) -> Result<(u32, u32), String> {
    let (lo, hi) = s.split_once('-').unwrap_or((s, s));
    let number = |t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| format!("'{t}' is not a number"))
    };
    let (lo, hi) = (number(lo)?, number(hi)?);
    if lo == 0 || lo > hi {
        return Err(format!("plies {lo}-{hi}: want 1 <= LO <= HI"));
    }
    Ok((lo, hi))
}

/// `--shard I/N`: of the work left, every N-th item starting at I, so that
/// shards run in parallel and their files are merged afterwards.
#[derive(Clone, Copy, Debug)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// This shard's share of `left`, in order. Shards split what is left,
    /// so that a resumed run spreads evenly.
    pub fn of<T>(self, left: impl IntoIterator<Item = T>) -> Vec<T> {
        left.into_iter()
            .enumerate()
            .filter(|(n, _)| n % self.count == self.index)
            .map(|(_, item)| item)
            .collect()
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or("want I/N, e.g. 0/4")?;
        let index: usize = i.parse().map_err(|_| format!("'{i}' is not a number"))?;
        let count: usize = n.parse().map_err(|_| format!("'{n}' is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: want 0 <= I < N"));
        }
        Ok(Shard { index, count })
    }
}

/// Opens a resumable tool's output to append to, writing `header` first
/// where the file is new or empty.
pub fn append_to(path: &Path, header: impl FnOnce() -> String) -> std::io::Result<File> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    if file.metadata()?.len() == 0 {
        file.write_all(header().as_bytes())?;
    }
    Ok(file)
}

/// A resumable table's header: `about` (what its lines mean), then every
/// `run: ` line of the `existing` file's header (once each), and
/// `this_run` unless it is there already.
pub fn runs_header(about: &str, existing: &str, this_run: Option<String>) -> String {
    let mut runs: Vec<String> = Vec::new();
    let earlier = existing
        .lines()
        .filter_map(|l| l.strip_prefix("# "))
        .filter(|l| l.starts_with("run: "))
        .map(str::to_string);
    for run in earlier.chain(this_run) {
        if !runs.contains(&run) {
            runs.push(run);
        }
    }
    format!(
        "{about}\nEach run below resumes from this file.\n{}",
        runs.join("\n")
    )
}

/// The position after `after` (coordinates, separated by commas or
/// spaces) from the start of `gaps`: `--after`.
pub fn position_after(gaps: Gaps, after: &str) -> Result<Position, String> {
    line_after(gaps, after).map(|(_, pos)| pos)
}

/// The position after `after` (as [`position_after`] reads it) and the
/// positions before it from `gaps`' start, the start first.
pub fn line_after(gaps: Gaps, after: &str) -> Result<(Vec<Position>, Position), String> {
    let moves = after
        .split([',', ' '])
        .filter(|w| !w.is_empty())
        .map(str::parse)
        .collect::<Result<Vec<Move>, _>>()?;
    let mut at = Position::start(RuleSet::PAWNRACE, Some(gaps)).map_err(|e| e.to_string())?;
    let mut before = Vec::new();
    for m in moves {
        let next = at.play_line(&[m]).map_err(|e| format!("--after: {e}"))?;
        before.push(std::mem::replace(&mut at, next));
    }
    Ok((before, at))
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_split_what_is_left_between_them() {
        let shards: Vec<Shard> = ["0/3", "1/3", "2/3"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let left = || (0..10).filter(|i| i % 4 != 0);
        let parts: Vec<Vec<i32>> = shards.iter().map(|s| s.of(left())).collect();
        assert_eq!(parts, [vec![1, 5, 9], vec![2, 6], vec![3, 7]]);
        for bad in ["3/3", "0/0", "1", "a/2"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
