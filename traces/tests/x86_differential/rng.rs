//! The native drivers' input generator (traces/x86/native/rng.h), so case `k` is rebuilt here
//! from `seed + k` without running the others.

/// splitmix64.
pub struct Rng(u64);

impl Rng {
    /// The generator of case `k` of a run seeded with `seed`.
    pub fn new(seed: u64, k: u64) -> Rng {
        Rng(seed.wrapping_add(k))
    }

    /// rng_next().
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// rng_below(n): next() % n (n > 0).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    /// rng_below(n) == 0, the drivers' "one in n".
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }
}
