//! What the test modules share: the binary under test and the test data.

pub use test_support::{fixture, python_with, shared_data, shared_data_dir};

/// The `pgn960` binary, quiet (no progress bar), as an `assert_cmd` command.
pub fn pgn960() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("pgn960").expect("binary built");
    cmd.arg("--no-progress");
    cmd
}

/// The `pgn960` binary, quiet, as a plain process (for signals, pipes and timing).
pub fn pgn960_process() -> std::process::Command {
    use assert_cmd::cargo::CommandCargoExt;
    let mut cmd = std::process::Command::cargo_bin("pgn960").expect("binary built");
    cmd.arg("--no-progress");
    cmd
}

/// Runs a Python script with `args`; returns its standard output (the test fails on error).
pub fn python(python: &str, script: &str, args: &[&std::path::Path]) -> String {
    let out = std::process::Command::new(python)
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
        .expect("python runs");
    assert!(
        out.status.success(),
        "python failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}
