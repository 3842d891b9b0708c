//! The integration tests of `chess960-core`, in one binary.

mod differential_shakmaty;
mod has_legal_moves;
mod legality_state;
mod perft_excerpt;
mod perft_suites;
mod san_written;
mod undo;
mod vectors;

/// The tests' random numbers: xorshift64, seeded per test (runs are repeatable).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
