//! A small deterministic generator (SplitMix64) for the seeded walks of the
//! keep set and the tuning samples, and for every test that wants random
//! input: the same on every machine, whatever the sharding.

pub struct Rng(u64);

impl Rng {
    /// A generator for one walk, from the parts that name it (seed, opening,
    /// sample number, ...). The parts are folded in by xor and a constant
    /// step, not hashed, so small parts can trade bits: made with seed 2, 8
    /// of the hard set's 80 walks were walks of the keep set (seed 1). A
    /// set meant to be independent of another takes a seed differing in
    /// high bits (the hard set's is 2^32). Hashing the parts would change
    /// every committed set's walks, which their recorded commands remake.
    pub fn new(parts: &[u64]) -> Rng {
        let mut r = Rng(0x9E37_79B9_7F4A_7C15);
        for p in parts {
            r.0 ^= *p;
            r.next_u64();
        }
        r
    }

    /// A generator that goes on from `state` as it is: the draws of a plain
    /// SplitMix64 seeded with `state`.
    pub fn from_state(state: u64) -> Rng {
        Rng(state)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform below `n` (> 0), near enough for walks.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
