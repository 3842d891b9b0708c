//! The picture of per-start-position statistics (`stats --chart`); the tables, cuts and
//! significance are the library's [`pgn960::stats`].

pub mod chart;
