//! Per-start-position statistics.

pub mod chart;
pub mod pentanomial;
pub mod significance;
pub mod table;
