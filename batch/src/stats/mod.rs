//! Per-start-position statistics.

pub mod chart;
pub mod table;
