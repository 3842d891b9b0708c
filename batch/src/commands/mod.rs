//! The subcommands.

pub mod archive;
pub mod check;
pub mod clean;
pub mod perft;
pub mod sp;
pub mod stats;
pub mod xfen;
