//! The integration tests of `chess960-core`, in one binary.

mod differential_shakmaty;
mod perft_excerpt;
mod perft_suites;
mod vectors;
