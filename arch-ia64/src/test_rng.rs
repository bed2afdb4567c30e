//! A small deterministic generator (xorshift64) for the crate's randomised unit tests: a
//! failing case is reproducible from its seed, and no extra crate is needed.

/// xorshift64 state; any nonzero seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next value.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
