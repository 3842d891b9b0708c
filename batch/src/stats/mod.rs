//! Per-start-position statistics.

pub mod by;
pub mod chart;
pub mod exact;
pub mod pairs;
pub mod pentanomial;
pub mod significance;
pub mod table;
