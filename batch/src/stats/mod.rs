//! Per-start-position statistics.

pub mod filter;
pub mod table;
