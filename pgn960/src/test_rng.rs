//! The one small deterministic generator of the crate's unit tests.

/// A xorshift64* generator: the same seed gives the same numbers everywhere.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number below `n` (which must not be 0), from the high bits.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 11) % n
    }

    /// An index below `n` (which must not be 0).
    pub(crate) fn index(&mut self, n: usize) -> usize {
        self.below(n as u64) as usize
    }
}
