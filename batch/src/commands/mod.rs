//! The subcommands.

pub mod book;
pub mod check;
pub mod clean;
pub mod export;
pub mod filter;
pub mod perft;
pub mod report;
pub mod sp;
pub mod split;
pub mod stats;
pub mod tree;
pub mod xfen;
