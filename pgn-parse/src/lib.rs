//! Zero-copy PGN reader.
