//! Shared helpers for the pgn960 benchmarks.
