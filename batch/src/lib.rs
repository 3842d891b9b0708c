//! The `pgn960` tool as a library: inputs, the parallel pipeline, outputs, validation of
//! games and the subcommands. The binary is a thin layer over [`cli`].

#![warn(missing_docs)]

pub mod cli;
pub mod commands;
pub mod input;
pub mod output;
pub mod pipeline;
pub mod progress;
pub mod stats;
pub mod validate;
