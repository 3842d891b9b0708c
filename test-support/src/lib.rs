//! What the workspace's tests share: where the fixtures and the external test data are,
//! and how a test whose requirement is absent skips.
//!
//! A skip is written straight to standard error (not through `eprintln!`, which the test
//! harness captures), so `cargo test` shows it without `--nocapture`:
//! `skipped: <test>: <what is missing>`. The external data in `../shared/data` is found
//! through `$PGN960_SHARED_DATA` when set (a path that does not exist hides it, which CI
//! uses to check that every test skips cleanly without it). Python packages and a browser
//! are optional on a developer machine, but required when `$CI` is set: there a missing
//! one fails the test instead of skipping it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// A file below `fixtures/`.
pub fn fixture(relative: &str) -> PathBuf {
    workspace().join("fixtures").join(relative)
}

/// The `.pgn` files directly below each of the `fixtures/` directories `dirs`, each
/// directory's sorted by name.
pub fn fixture_pgns(dirs: &[&str]) -> Vec<PathBuf> {
    let mut paths = Vec::new();
    for dir in dirs {
        let mut found: Vec<PathBuf> = std::fs::read_dir(fixture(dir))
            .unwrap_or_else(|e| panic!("cannot read fixtures/{dir}: {e}"))
            .map(|entry| entry.expect("a fixtures entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
            .collect();
        found.sort();
        paths.extend(found);
    }
    paths
}

/// Says, where `cargo test` shows it, that `test` skipped and why.
pub fn skip(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "skipped: {test}: {why}");
}

/// Whether this is a CI run (`$CI` set), where optional tools must be present.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// The external test data directory: `$PGN960_SHARED_DATA`, else `../shared/data` beside
/// the workspace; `None` when it does not exist.
pub fn shared_data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("PGN960_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("../shared/data"));
    dir.is_dir().then_some(dir)
}

/// A path below the external test data, or `None` (with a visible skip line for `test`)
/// when the data is absent.
pub fn shared_data(test: &str, relative: &str) -> Option<PathBuf> {
    let found = shared_data_dir()
        .map(|dir| dir.join(relative))
        .filter(|p| p.exists());
    if found.is_none() {
        skip(
            test,
            &format!("needs ../shared/data/{relative} (set PGN960_SHARED_DATA to its directory)"),
        );
    }
    found
}

/// The text of a file below the external test data, or `None` (with a visible skip line
/// for `test`) when the data is absent.
pub fn read_shared(test: &str, relative: &str) -> Option<String> {
    std::fs::read_to_string(shared_data(test, relative)?).ok()
}

/// `bytes` compressed with gzip (fast level), for tests of compressed inputs.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// `bytes` compressed with bzip2 (fast level).
pub fn bzip2(bytes: &[u8]) -> Vec<u8> {
    let mut enc = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
    enc.write_all(bytes).expect("writing to memory");
    enc.finish().expect("writing to memory")
}

/// `bytes` compressed with zstd (level 1).
pub fn zstd(bytes: &[u8]) -> Vec<u8> {
    zstd::encode_all(bytes, 1).expect("writing to memory")
}

/// A Python interpreter that imports every module of `modules`, or `None` (with a visible
/// skip line) when there is none; in CI a missing module fails the test.
pub fn python_with(test: &str, modules: &[&str]) -> Option<String> {
    let import = format!("import {}", modules.join(", "));
    for python in ["python3", "python"] {
        let ok = Command::new(python)
            .args(["-c", &import])
            .output()
            .is_ok_and(|o| o.status.success());
        if ok {
            return Some(python.to_string());
        }
    }
    let why = format!(
        "needs Python with {} (pip install {})",
        modules.join(", "),
        modules.join(" ")
    );
    assert!(!in_ci(), "{test}: {why}; CI installs them (.ci/run)");
    skip(test, &why);
    None
}

/// A program found on `PATH` (the first of `names`), or `None` (with a visible skip line)
/// when there is none; in CI a missing program fails the test.
pub fn program(test: &str, names: &[&str], install: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return Some(candidate);
            }
        }
    }
    let why = format!("needs {} ({install})", names.join(" or "));
    assert!(!in_ci(), "{test}: {why}; CI installs it (.ci/run)");
    skip(test, &why);
    None
}
