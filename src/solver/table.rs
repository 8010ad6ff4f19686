//! The solver's transposition table: both bounds of a position's exact value
//! in one entry, so that successive null-window proofs sharpen the same entry.
//!
//! Scores are relative to the entry's own position (win in k plies from
//! here), so they are valid wherever the position recurs. There is no search
//! depth: every bound is a proof. What an entry is worth keeping is the work
//! it saved, so a bucket replaces the entry with the smallest subtree, but
//! first any entry left by an earlier solve: those are still proofs and are
//! used while they last, yet a run through many openings would otherwise
//! fill the table with big subtrees of positions it never sees again.
//!
//! Several threads may probe and store at once (a parallel solve): every
//! word is an atomic read or written whole, and a slot's key word holds the
//! key XOR the data word, so a slot half-written by another thread fails
//! the key check and reads as a miss rather than as a wrong proof. A store
//! that races another may be lost; a lost bound is only work to redo.

use crate::memory::ZeroedTable;
use crate::rules::{Move, Square};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket: four 16-byte entries fill a 64-byte cache line.
const WAYS: usize = 4;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Hit {
    pub lo: i32,
    pub hi: i32,
    pub mv: Option<Move>,
}

pub(super) struct Table {
    /// Pairs of words: the full key XOR the data, then the packed data
    /// (0 = empty slot).
    words: ZeroedTable<AtomicU64>,
    /// Bucket count minus one; the count is a power of two.
    mask: usize,
    /// The current solve's generation, 1..=255: never 0, so that a used
    /// slot's data word is never 0.
    generation: u8,
}

/// The packed data word: lo (16), hi (16), move (16), work (8), generation (8).
fn pack(lo: i32, hi: i32, mv: Option<Move>, work: u8, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| {
        0x1000 | (m.from.index() as u64) | (m.to.index() as u64) << 6
    });
    (lo as i16 as u16 as u64)
        | (hi as i16 as u16 as u64) << 16
        | m << 32
        | (work as u64) << 48
        | (generation as u64) << 56
}

fn unpack(data: u64) -> Hit {
    let m = (data >> 32) as u16;
    let square = |i: u16| Square::from_index((i & 63) as u8);
    let mv = if m & 0x1000 == 0 {
        None
    } else {
        square(m).zip(square(m >> 6)).map(|(f, t)| Move::new(f, t))
    };
    Hit {
        lo: data as u16 as i16 as i32,
        hi: (data >> 16) as u16 as i16 as i32,
        mv,
    }
}

fn work_of(data: u64) -> u8 {
    (data >> 48) as u8
}

fn generation_of(data: u64) -> u8 {
    (data >> 56) as u8
}

impl Table {
    /// A table of at most `mib` MiB (at least one bucket). If the memory is
    /// not there, a smaller table is made rather than aborting.
    pub fn new(mib: usize) -> Table {
        let bytes = mib.saturating_mul(1 << 20).max(WAYS * 16);
        let mut buckets = 1usize << (usize::BITS - 1 - (bytes / (WAYS * 16)).leading_zeros());
        loop {
            // SAFETY: zero is a valid `AtomicU64`, and an empty slot.
            if let Some(words) = unsafe { ZeroedTable::new(buckets * WAYS * 2) } {
                return Table {
                    words,
                    mask: buckets - 1,
                    generation: 1,
                };
            }
            if buckets == 1 {
                // Not even one bucket's memory: nothing can run anyway.
                std::alloc::handle_alloc_error(std::alloc::Layout::new::<[AtomicU64; WAYS * 2]>());
            }
            buckets /= 2;
        }
    }

    /// Marks what is stored from now on as the new solve's, so that what
    /// earlier solves left is replaced first.
    pub fn new_generation(&mut self) {
        self.generation = if self.generation == u8::MAX {
            1
        } else {
            self.generation + 1
        };
    }

    pub fn clear(&mut self) {
        for word in self.words.iter_mut() {
            *word.get_mut() = 0;
        }
        self.generation = 1;
    }

    /// Starts loading `key`'s bucket into the cache: probes are random reads
    /// of a big table, and a node can fetch all its children's at once.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let p = self.words[self.bucket(key)..].as_ptr();
            // SAFETY: a prefetch is only a hint; it never faults, and the
            // address is inside the table anyway.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    fn bucket(&self, key: u64) -> usize {
        // The low bits pick the bucket; the high bits are checked by the key.
        (key as usize & self.mask) * WAYS * 2
    }

    /// Slot `i` of the bucket at `b`: its key (checked against the data)
    /// and its data, 0 for an empty or torn slot.
    fn slot(&self, b: usize, i: usize) -> (u64, u64) {
        let data = self.words[b + 2 * i + 1].load(Relaxed);
        let key = self.words[b + 2 * i].load(Relaxed) ^ data;
        (key, data)
    }

    fn write(&self, b: usize, i: usize, key: u64, data: u64) {
        self.words[b + 2 * i + 1].store(data, Relaxed);
        self.words[b + 2 * i].store(key ^ data, Relaxed);
    }

    pub fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        (0..WAYS)
            .map(|i| self.slot(b, i))
            .find(|&(k, data)| k == key && data != 0)
            .map(|(_, data)| unpack(data))
    }

    /// Records that the value lies in `lo..=hi`, merged with what is known.
    /// `work` ranks entries for replacement (log2 of the subtree's nodes).
    pub fn store(&self, key: u64, lo: i32, hi: i32, mv: Option<Move>, work: u8) {
        let generation = self.generation;
        let b = self.bucket(key);
        let mut victim = 0;
        // An empty slot ranks lowest, then earlier solves' entries, then the
        // current solve's; within each, the smaller subtree goes.
        let mut victim_rank = u16::MAX;
        for i in 0..WAYS {
            let (k, data) = self.slot(b, i);
            if data != 0 && k == key {
                let old = unpack(data);
                let merged = pack(
                    lo.max(old.lo),
                    hi.min(old.hi),
                    mv.or(old.mv),
                    work.max(work_of(data)),
                    generation,
                );
                self.write(b, i, key, merged);
                return;
            }
            let rank = if data == 0 {
                0
            } else {
                let current = u16::from(generation_of(data) == generation);
                1 + (current << 8 | u16::from(work_of(data)))
            };
            if rank < victim_rank {
                victim = i;
                victim_rank = rank;
            }
        }
        self.write(b, victim, key, pack(lo, hi, mv, work, generation));
    }

    /// Every entry: its key, its bounds and move, and its work.
    pub fn entries(&self) -> impl Iterator<Item = (u64, Hit, u8)> + '_ {
        (0..self.words.len() / 2)
            .map(|i| self.slot(0, i))
            .filter(|&(_, data)| data != 0)
            .map(|(key, data)| (key, unpack(data), work_of(data)))
    }

    /// Permille of slots in use, from a sample at the start of the table.
    pub fn hashfull(&self) -> u32 {
        let n = (self.words.len() / 2).min(4000);
        let used = (0..n)
            .filter(|i| self.words[2 * i + 1].load(Relaxed) != 0)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(a: &str, b: &str) -> Move {
        Move::new(a.parse().unwrap(), b.parse().unwrap())
    }

    #[test]
    fn sizes_are_powers_of_two_within_the_budget() {
        let t = Table::new(1);
        assert_eq!(t.words.len() * 8, 1 << 20);
        let t = Table::new(3);
        assert_eq!(t.words.len() * 8, 2 << 20);
        assert_eq!(Table::new(0).words.len(), WAYS * 2);
    }

    #[test]
    fn bounds_merge_and_moves_survive() {
        let t = Table::new(1);
        assert_eq!(t.probe(42), None);
        t.store(42, -9_998, 9_997, Some(mv("e2", "e4")), 3);
        t.store(42, 0, 20_000, None, 1);
        let h = t.probe(42).unwrap();
        assert_eq!((h.lo, h.hi, h.mv), (0, 9_997, Some(mv("e2", "e4"))));
        t.store(42, -20_000, 0, None, 1);
        assert_eq!(t.probe(42).map(|h| (h.lo, h.hi)), Some((0, 0)));
        assert_eq!(t.probe(42 + (1 << 40)), None);
    }

    #[test]
    fn a_full_bucket_drops_its_smallest_subtree() {
        let t = Table::new(0);
        for (i, work) in [5u8, 1, 7, 3].into_iter().enumerate() {
            t.store(i as u64 * 1024, 0, 0, None, work);
        }
        t.store(9 * 1024, 1, 1, None, 2);
        assert!(t.probe(1024).is_none());
        for k in [0, 2 * 1024, 3 * 1024, 9 * 1024] {
            assert!(t.probe(k).is_some(), "{k}");
        }
    }

    #[test]
    fn earlier_solves_make_way_first_but_still_answer() {
        let mut t = Table::new(0);
        for (i, work) in [5u8, 1, 7, 3].into_iter().enumerate() {
            t.store(i as u64 * 1024, 0, 0, None, work);
        }
        t.new_generation();
        // A bound sharpened now makes that entry the current solve's.
        t.store(1024, 0, 0, None, 0);
        t.store(9 * 1024, 1, 1, None, 0);
        assert!(t.probe(0).is_some() && t.probe(1024).is_some());
        assert!(t.probe(3 * 1024).is_none(), "the smallest old subtree goes");
        assert_eq!(t.probe(2 * 1024).map(|h| h.lo), Some(0));
        for _ in 0..300 {
            t.new_generation();
        }
        assert_ne!(t.generation, 0, "0 marks an empty slot");
    }
}
