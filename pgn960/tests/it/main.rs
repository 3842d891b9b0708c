//! The integration tests of the `pgn960` library, in one binary.

mod plumbing;
mod records;
