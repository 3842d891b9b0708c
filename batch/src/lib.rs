//! The `pgn960` command line as a library: subcommands over one input driver, outputs
//! written atomically, signals and progress. The games themselves are read and validated
//! by the `pgn960` library crate; this crate adds what a command line needs.

#![warn(missing_docs)]

pub mod archive;
pub mod args;
pub mod cli;
pub mod commands;
pub mod driver;
pub mod handlers;
pub mod progress;
pub mod report;
pub mod stats;
#[cfg(test)]
mod test_rng;

/// Outputs, signals and the tables of `export` live in the library (the Python package
/// writes through them too).
pub use pgn960::{export, output, signals};
