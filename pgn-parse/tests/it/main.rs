//! The integration tests of `pgn-parse`, in one binary.

mod decoded_san;
mod entry_points;
mod fixtures;
mod game_boundaries;
mod properties;
mod real_files;
