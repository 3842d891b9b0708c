//! The one small deterministic generator of the crate's unit tests.

/// A xorshift64 generator (shifts 13, 7, 17): the same seed gives the same numbers.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// A number below `n` (which must not be 0), from the next state.
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
