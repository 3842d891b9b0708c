//! The integration tests of `chess960-core`, in one binary.

mod differential_shakmaty;
mod legality_state;
mod perft_excerpt;
mod perft_suites;
mod undo;
mod vectors;
