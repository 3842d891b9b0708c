//! The integration tests of the `pgn960` library, in one binary.

mod annotations;
mod decoded_san;
mod game_limit;
mod main_moves;
mod plumbing;
mod ranges;
mod records;
mod stats_merge;
