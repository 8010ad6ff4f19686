//! Transposition table: a fixed number of two-entry buckets, indexed by the
//! low bits of the key. Pawn positions never repeat (pawns only move
//! forward), so the table never has to worry about path-dependent values.

use crate::eval::score::MATE_BOUND;
use crate::memory::ZeroedTable;
use crate::rules::{Move, Square};

/// How a stored score relates to the true value of its position.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The true value is this score.
    Exact,
    /// The true value is at least this score (the search failed high).
    Lower,
    /// The true value is at most this score (the search failed low).
    Upper,
}

impl Bound {
    const fn code(self) -> u8 {
        match self {
            Bound::Exact => 1,
            Bound::Lower => 2,
            Bound::Upper => 3,
        }
    }

    const fn from_code(code: u8) -> Option<Bound> {
        match code {
            1 => Some(Bound::Exact),
            2 => Some(Bound::Lower),
            3 => Some(Bound::Upper),
            _ => None,
        }
    }
}

/// What a probe found. The score is already adjusted back to the probing node.
#[derive(Copy, Clone, Debug)]
pub struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// 16 bytes: the full key, so that a false hit needs a 64-bit collision.
#[derive(Copy, Clone, Default)]
#[repr(C)]
struct Entry {
    key: u64,
    score: i16,
    mv: u16,
    depth: u8,
    /// Bound code in the low 2 bits, search generation above, so that entries
    /// left over from earlier searches are the first to be replaced.
    meta: u8,
    _pad: [u8; 2],
}

impl Entry {
    fn bound(&self) -> Option<Bound> {
        Bound::from_code(self.meta & 3)
    }

    fn generation(&self) -> u8 {
        self.meta >> 2
    }
}

const BUCKET: usize = 2;
const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

pub struct Table {
    entries: ZeroedTable<Entry>,
    /// Bucket count minus one; the bucket count is a power of two.
    mask: usize,
    generation: u8,
}

/// A move as 13 bits: from, to, and a presence bit so that zero means none.
fn pack(m: Move) -> u16 {
    (1 << 12) | (m.from.index() as u16) | ((m.to.index() as u16) << 6)
}

fn unpack(bits: u16) -> Option<Move> {
    if bits & (1 << 12) == 0 {
        return None;
    }
    let from = Square::from_index((bits & 63) as u8)?;
    let to = Square::from_index(((bits >> 6) & 63) as u8)?;
    Some(Move::new(from, to))
}

/// `len` empty entries, or `None` if the memory is not there.
fn zeroed(len: usize) -> Option<ZeroedTable<Entry>> {
    // SAFETY: an all-zero `Entry` is valid (integers only) and is
    // `Entry::default()`.
    unsafe { ZeroedTable::new(len) }
}

impl Table {
    /// A table of at most `mib` MiB (at least one bucket). If the memory is
    /// not there, a smaller table is made rather than aborting.
    pub fn new(mib: usize) -> Table {
        let bytes = mib.saturating_mul(1 << 20);
        let mut buckets = (bytes / (ENTRY_BYTES * BUCKET)).max(1);
        // Round down to a power of two for mask indexing.
        buckets = 1 << (usize::BITS - 1 - buckets.leading_zeros());
        loop {
            if let Some(entries) = zeroed(buckets * BUCKET) {
                return Table {
                    entries,
                    mask: buckets - 1,
                    generation: 0,
                };
            }
            if buckets == 1 {
                // Not even 32 bytes: nothing can run anyway.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[Entry; BUCKET]>());
            }
            buckets /= 2;
        }
    }

    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 0;
    }

    /// Marks the start of a new search, making older entries cheaper to evict.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * BUCKET
    }

    pub fn probe(&self, key: u64, ply: i32) -> Option<Hit> {
        let start = self.bucket(key);
        let e = self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.key == key)?;
        Some(Hit {
            mv: unpack(e.mv),
            score: score_from_tt(e.score as i32, ply),
            depth: e.depth as i32,
            bound: e.bound()?,
        })
    }

    pub fn store(
        &mut self,
        key: u64,
        ply: i32,
        depth: i32,
        score: i32,
        bound: Bound,
        mv: Option<Move>,
    ) {
        let start = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.entries[start..start + BUCKET];
        // The same position's slot, else the least valuable one: stale
        // generations first, then the shallowest.
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => {
                let worth = |e: &Entry| {
                    let stale = if e.generation() == generation { 0 } else { 256 };
                    e.depth as i32 - stale
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).unwrap_or(0)
            }
        };
        let e = &mut bucket[slot];
        // A shallower upper bound says less than what is already there.
        if e.key == key
            && bound != Bound::Exact
            && depth + 2 < e.depth as i32
            && e.generation() == generation
        {
            return;
        }
        let keep_move = if e.key == key { e.mv } else { 0 };
        *e = Entry {
            key,
            score: score_to_tt(score, ply).clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            mv: mv.map_or(keep_move, pack),
            depth: depth.clamp(0, u8::MAX as i32) as u8,
            meta: (generation << 2) | bound.code(),
            _pad: [0; 2],
        };
    }
}

/// Mate scores count plies from the root; in the table they must count from
/// the stored node, or a hit reached along a different path would claim the
/// wrong distance.
pub fn score_to_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

pub fn score_from_tt(score: i32, ply: i32) -> i32 {
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::score::SEARCH_MATE as MATE;

    fn mv(a: &str, b: &str) -> Move {
        Move::new(a.parse().unwrap(), b.parse().unwrap())
    }

    #[test]
    fn entries_are_sixteen_bytes_and_sizes_are_powers_of_two() {
        assert_eq!(ENTRY_BYTES, 16);
        let t = Table::new(1);
        assert_eq!(t.entries.len(), (1 << 20) / 16);
        assert!((t.mask + 1).is_power_of_two());
        let tiny = Table::new(0);
        assert_eq!(tiny.entries.len(), BUCKET);
    }

    #[test]
    fn stores_and_finds_with_key_check() {
        let mut t = Table::new(1);
        t.store(42, 0, 5, 17, Bound::Lower, Some(mv("e2", "e4")));
        let hit = t.probe(42, 0).unwrap();
        assert_eq!((hit.score, hit.depth, hit.bound), (17, 5, Bound::Lower));
        assert_eq!(hit.mv, Some(mv("e2", "e4")));
        // Same bucket, different key: no hit.
        assert!(t.probe(42 + (t.mask as u64 + 1), 0).is_none());
        // An update without a move keeps the old one.
        t.store(42, 0, 6, 20, Bound::Exact, None);
        assert_eq!(t.probe(42, 0).unwrap().mv, Some(mv("e2", "e4")));
        t.clear();
        assert!(t.probe(42, 0).is_none());
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let mut t = Table::new(1);
        // Found at ply 3: a win 5 plies from the root, 2 from this node.
        t.store(7, 3, 4, MATE - 5, Bound::Exact, None);
        // Reached at ply 1 along another path, the win is 3 plies away.
        assert_eq!(t.probe(7, 1).unwrap().score, MATE - 3);
        t.store(8, 2, 4, -(MATE - 6), Bound::Exact, None);
        assert_eq!(t.probe(8, 4).unwrap().score, -(MATE - 8));
        t.store(9, 2, 4, 123, Bound::Upper, None);
        assert_eq!(t.probe(9, 9).unwrap().score, 123);
    }

    #[test]
    fn a_bucket_keeps_the_deeper_entry() {
        let mut t = Table::new(0);
        // With one bucket every key collides.
        t.store(1, 0, 9, 1, Bound::Exact, None);
        t.store(2, 0, 3, 2, Bound::Exact, None);
        t.store(3, 0, 1, 3, Bound::Exact, None);
        assert!(t.probe(1, 0).is_some());
        assert!(t.probe(3, 0).is_some());
        assert!(t.probe(2, 0).is_none());
    }
}
