//! Where the test data is (see the `test-support` crate).

use std::path::PathBuf;

/// The shared data directory, or `None` with a visible skip line for `test`.
#[allow(dead_code)]
pub fn shared_dir(test: &str) -> Option<PathBuf> {
    test_support::shared_data(test, ".")
}

/// A file below the shared data directory, or `None` with a visible skip line for `test`.
#[allow(dead_code)]
pub fn read_shared(test: &str, relative: &str) -> Option<String> {
    let path = test_support::shared_data(test, relative)?;
    std::fs::read_to_string(path).ok()
}
