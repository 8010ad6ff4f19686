//! A solver's proofs as bytes, so that a second run reuses what the first
//! proved (`--cache FILE`): every bound in the table is a proof, valid for
//! as long as positions hash and score the same way, so the entries worth
//! keeping (those that saved a big subtree) are written out and read back
//! into another table of any size.
//!
//! The format, all integers little-endian:
//!
//! ```text
//! magic "pawnrace solver cache\n" | version u32 | build fingerprint u64 | count u64
//! count entries of 16 bytes: key u64, lo i16, hi i16, from u8, to u8, work u8, 0 u8
//! checksum u64 (FNV-1a of everything before it)
//! ```
//!
//! A file is taken whole or not at all: the magic, the version, the
//! fingerprint (the keys of fixed positions and the score scale, which
//! change when the hashing or the scores do), the length, the checksum
//! and every entry's bounds and squares are checked before anything is
//! stored. Files and their names are the caller's business; this is pure.

use super::Solver;
use super::table::Hit;
use crate::eval::score::SOLVER_WIN;
use crate::rules::{Gaps, Move, Position, RuleSet, Square};
use std::fmt;

const MAGIC: &[u8] = b"pawnrace solver cache\n";
/// Bumped whenever what an entry means changes in a way the fingerprint
/// cannot see (a bound's sense, the entry layout).
const VERSION: u32 = 1;
const HEADER: usize = MAGIC.len() + 4 + 8 + 8;
const ENTRY: usize = 16;
const NO_SQUARE: u8 = 0xFF;

/// Entries whose subtree had fewer than `2^(MIN_WORK - 1)` nodes are left
/// out: the search redoes them at once, and they are most of the table.
pub const MIN_WORK: u8 = 10;

/// Why a cache was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheError {
    /// Not a solver cache at all.
    NotACache,
    /// A cache of another format version.
    Version { found: u32 },
    /// Made by a build that hashes positions or scores differently.
    OtherBuild,
    /// Shorter or longer than its header says.
    Length,
    /// The checksum does not match: the file was damaged.
    Checksum,
    /// An entry with impossible bounds or squares (its index).
    Entry(u64),
}

impl fmt::Display for CacheError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheError::NotACache => write!(f, "not a pawnrace solver cache"),
            CacheError::Version { found } => {
                write!(f, "cache format {found}, this build reads {VERSION}")
            }
            CacheError::OtherBuild => write!(
                f,
                "made by a build that hashes or scores positions differently"
            ),
            CacheError::Length => write!(f, "truncated, or longer than its header says"),
            CacheError::Checksum => write!(f, "checksum mismatch: the file is damaged"),
            CacheError::Entry(i) => write!(f, "entry {i} is not a proof this build can use"),
        }
    }
}

impl std::error::Error for CacheError {}

/// What this build's keys and scores look like: fixed positions' keys (one
/// with an en passant square, one with black to move, another rule set)
/// and the score of a win.
fn fingerprint() -> u64 {
    let mut h = SOLVER_WIN as u64;
    let gaps = Gaps { white: 0, black: 7 };
    let starts = [
        Position::start(RuleSet::PAWNRACE, Some(gaps)).ok(),
        Position::start(RuleSet::MINI4, None).ok(),
    ];
    for start in starts.into_iter().flatten() {
        h = h.rotate_left(17) ^ start.hash();
        // The last move generated: a double step where the rules have them
        // (an en passant square), and black to move.
        if let Some(&m) = start.legal_moves().last() {
            h = h.rotate_left(17) ^ start.play_unchecked(m).hash();
        }
    }
    h
}

/// FNV-1a, 64 bits: enough to catch a damaged file.
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// One entry, checked: `None` if its bounds or squares are impossible.
fn decode(e: &[u8]) -> Option<(u64, Hit, u8)> {
    let word = |i: usize| u64::from_le_bytes(e[i..i + 8].try_into().unwrap_or_default());
    let half = |i: usize| i32::from(i16::from_le_bytes([e[i], e[i + 1]]));
    let (key, lo, hi) = (word(0), half(8), half(10));
    let (from, to, work, pad) = (e[12], e[13], e[14], e[15]);
    let bounded = |s: i32| (-SOLVER_WIN..=SOLVER_WIN).contains(&s);
    if !(bounded(lo) && bounded(hi) && lo <= hi && work <= 64 && pad == 0) {
        return None;
    }
    let mv = match (from, to) {
        (NO_SQUARE, NO_SQUARE) => None,
        _ => Some(Move::new(
            Square::from_index(from)?,
            Square::from_index(to)?,
        )),
    };
    Some((key, Hit { lo, hi, mv }, work))
}

impl Solver {
    /// The table's proofs from subtrees of at least `2^(min_work - 1)`
    /// nodes, in the format above.
    pub fn cache_bytes(&self, min_work: u8) -> Vec<u8> {
        let mut body = Vec::new();
        let mut count = 0u64;
        for (key, hit, work) in self.table.entries() {
            if work < min_work {
                continue;
            }
            count += 1;
            body.extend_from_slice(&key.to_le_bytes());
            body.extend_from_slice(&(hit.lo as i16).to_le_bytes());
            body.extend_from_slice(&(hit.hi as i16).to_le_bytes());
            let (from, to) = hit.mv.map_or((NO_SQUARE, NO_SQUARE), |m| {
                (m.from.index() as u8, m.to.index() as u8)
            });
            body.extend_from_slice(&[from, to, work, 0]);
        }
        let mut bytes = Vec::with_capacity(HEADER + body.len() + 8);
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&fingerprint().to_le_bytes());
        bytes.extend_from_slice(&count.to_le_bytes());
        bytes.extend_from_slice(&body);
        let sum = checksum(&bytes);
        bytes.extend_from_slice(&sum.to_le_bytes());
        bytes
    }

    /// Stores a cache's proofs in the table (merged with what it holds, as
    /// earlier solves' entries) and says how many there were; on any error
    /// the table is left as it was.
    pub fn load_cache(&mut self, bytes: &[u8]) -> Result<u64, CacheError> {
        if !bytes.starts_with(MAGIC) || bytes.len() < HEADER + 8 {
            return Err(CacheError::NotACache);
        }
        let word = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap_or_default());
        let at = MAGIC.len();
        let version = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or_default());
        if version != VERSION {
            return Err(CacheError::Version { found: version });
        }
        if word(at + 4) != fingerprint() {
            return Err(CacheError::OtherBuild);
        }
        let count = word(at + 12);
        let body_len = usize::try_from(count)
            .ok()
            .and_then(|n| n.checked_mul(ENTRY))
            .ok_or(CacheError::Length)?;
        if HEADER.checked_add(body_len).and_then(|n| n.checked_add(8)) != Some(bytes.len()) {
            return Err(CacheError::Length);
        }
        let end = bytes.len() - 8;
        if checksum(&bytes[..end]) != word(end) {
            return Err(CacheError::Checksum);
        }
        let entries: Vec<(u64, Hit, u8)> = bytes[HEADER..end]
            .chunks_exact(ENTRY)
            .enumerate()
            .map(|(i, e)| decode(e).ok_or(CacheError::Entry(i as u64)))
            .collect::<Result<_, _>>()?;
        for &(key, hit, work) in &entries {
            self.table.store(key, hit.lo, hit.hi, hit.mv, work);
        }
        // What is proven from now on is the new solve's: the cache's
        // entries make way first, as an earlier solve's would.
        self.table.new_generation();
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::{Proven, SolveLimits};
    use crate::stop::Stop;
    use crate::testkit::pawnrace as pos;

    fn solve(solver: &mut Solver, pos: &Position) -> (Proven, u64) {
        let s = solver
            .solve(pos, &SolveLimits::default(), &Stop::new(), &mut |_| {})
            .expect("no limits");
        (s, solver.last_nodes())
    }

    /// White wins in 21; the solver needs some ten thousand nodes.
    const FEN: &str = "8/pppp4/8/8/8/8/PPPP4/8 w -";

    #[test]
    fn a_second_solve_from_the_cache_gives_the_same_answer_in_fewer_nodes() {
        let p = pos(FEN);
        let mut first = Solver::new(1);
        let (answer, nodes) = solve(&mut first, &p);
        let bytes = first.cache_bytes(1);
        assert!(bytes.len() > HEADER + 8, "something was proven");
        let mut second = Solver::new(4);
        let count = second.load_cache(&bytes).unwrap();
        assert_eq!((bytes.len() - HEADER - 8) as u64, count * ENTRY as u64);
        let (again, fewer) = solve(&mut second, &p);
        same_answer(&p, &again, &answer);
        assert!(fewer * 10 < nodes, "{fewer} nodes against {nodes}");
        // Only big subtrees: fewer entries, the same answer.
        let few = first.cache_bytes(MIN_WORK);
        assert!(few.len() < bytes.len());
        let mut third = Solver::new(1);
        third.load_cache(&few).unwrap();
        same_answer(&p, &solve(&mut third, &p).0, &answer);
    }

    /// The same value and distance; the line may be another of the same
    /// length (the cache's moves are tried first), but it must be legal and
    /// end the game after exactly that many plies.
    fn same_answer(p: &Position, got: &Proven, want: &Proven) {
        assert_eq!((got.value, got.plies), (want.value, want.plies));
        let mut at = *p;
        for (i, m) in got.line.iter().enumerate() {
            assert!(at.outcome().is_none(), "the game ended before ply {i}");
            assert!(at.is_legal(*m), "{m} at ply {i}");
            at = at.play_unchecked(*m);
        }
        assert!(at.outcome().is_some());
        assert_eq!(Some(got.line.len() as u32), got.plies);
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_whole() {
        let p = pos(FEN);
        let mut solver = Solver::new(1);
        solve(&mut solver, &p);
        let good = solver.cache_bytes(1);
        let refused = |bytes: &[u8]| {
            let mut fresh = Solver::new(1);
            let e = fresh.load_cache(bytes).unwrap_err();
            // Nothing was stored: the solve starts from scratch.
            assert!(fresh.table.entries().next().is_none(), "{e}");
            e
        };
        assert_eq!(refused(b"8/8/8 w -\n"), CacheError::NotACache);
        assert_eq!(refused(&good[..good.len() - 1]), CacheError::Length);
        let mut flipped = good.clone();
        flipped[HEADER + 3] ^= 1;
        assert_eq!(refused(&flipped), CacheError::Checksum);
        let mut version = good.clone();
        version[MAGIC.len()] = 9;
        assert_eq!(refused(&version), CacheError::Version { found: 9 });
        let mut build = good.clone();
        build[MAGIC.len() + 4] ^= 1;
        assert_eq!(refused(&build), CacheError::OtherBuild);
        // An impossible bound with a checksum to match.
        let mut bad = good[..good.len() - 8].to_vec();
        bad[HEADER + 8..HEADER + 10].copy_from_slice(&i16::MAX.to_le_bytes());
        let sum = checksum(&bad);
        bad.extend_from_slice(&sum.to_le_bytes());
        assert_eq!(refused(&bad), CacheError::Entry(0));
        // Every error reads as one line.
        for e in [CacheError::Checksum, CacheError::Version { found: 2 }] {
            assert!(!e.to_string().contains('\n'));
        }
    }

    #[test]
    fn an_empty_table_makes_an_empty_cache() {
        let solver = Solver::new(1);
        let bytes = solver.cache_bytes(0);
        assert_eq!(bytes.len(), HEADER + 8);
        assert_eq!(Solver::new(1).load_cache(&bytes), Ok(0));
    }
}
