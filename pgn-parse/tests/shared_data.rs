#![allow(dead_code)]
//! Locating `../shared/data` (the project's external test data, see its README) for tests.
//!
//! Tests that need it call [`shared_data`] and return early, with a message, when it is absent.

use std::path::PathBuf;

/// The shared data directory: `$PGN960_SHARED_DATA`, else `../../shared/data` from this crate.
pub fn shared_data() -> Option<PathBuf> {
    let dir = std::env::var_os("PGN960_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"));
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: shared test data not found at {} (set PGN960_SHARED_DATA)",
            dir.display()
        );
        None
    }
}

/// Reads a file below the shared data directory, or `None` (with a message) when absent.
pub fn read_shared(relative: &str) -> Option<String> {
    let path = shared_data()?.join(relative);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!("skipping: cannot read {}: {e}", path.display());
            None
        }
    }
}
