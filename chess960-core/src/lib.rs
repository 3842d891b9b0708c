//! Chess960 rules engine.
