//! Outputs and signals under stress: SIGTERM like Ctrl-C, leftovers of killed runs removed
//! by the next, two runs on one output, long names, a closed pipe, absurd thread counts.

use crate::util::*;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A PGN file of `games` copies of the sample (about 24 kB each).
fn copies(dir: &Path, games: usize) -> std::path::PathBuf {
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let path = dir.join("big.pgn");
    std::fs::write(&path, sample.repeat(games)).unwrap();
    path
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn sigterm_and_sighup_stop_like_ctrl_c_and_leave_nothing() {
    for signal in ["-TERM", "-HUP"] {
        let dir = tempfile::tempdir().unwrap();
        let out_dir = dir.path().join("out");
        std::fs::create_dir(&out_dir).unwrap();
        // Standard input held open and empty: the run waits with its outputs open.
        let mut child = pgn960_process()
            .args(["clean", "-", "-o"])
            .arg(out_dir.join("clean.pgn"))
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while entries(&out_dir).len() < 2 {
            assert!(std::time::Instant::now() < deadline, "no temporary file");
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = Command::new("kill")
            .args([signal, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        // The first signal asks the run to stop (handled on a thread of its own, so give it
        // a moment); closing its input lets it.
        std::thread::sleep(Duration::from_millis(300));
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(130),
            "{signal}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            entries(&out_dir).is_empty(),
            "{signal}: left {:?}",
            entries(&out_dir)
        );
    }
}

#[test]
fn leftovers_of_a_killed_run_are_removed_by_the_next_run_of_that_output() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let mut child = pgn960_process()
        .args(["clean", "-", "-o"])
        .arg(out_dir.join("clean.pgn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !entries(&out_dir).iter().any(|n| n.ends_with(".tmp")) {
        assert!(std::time::Instant::now() < deadline, "no temporary file");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap(); // SIGKILL: nothing can clean up.
    child.wait().unwrap();
    assert!(
        entries(&out_dir).iter().any(|n| n.ends_with(".tmp")),
        "the kill left files"
    );
    let out = pgn960_process()
        .arg("clean")
        .arg(fixture("sample.pgn"))
        .arg("-o")
        .arg(out_dir.join("clean.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("left by an interrupted run"));
    assert_eq!(
        entries(&out_dir),
        ["clean.pgn", "clean.rejects.pgn", "clean.rejects.tsv"]
    );
}

#[test]
fn a_second_run_on_the_same_output_is_refused_while_the_first_writes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("clean.pgn");
    let mut first = pgn960_process()
        .args(["clean", "-", "-o"])
        .arg(&out)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The lock file exists from its `open`, before it is locked; the temporary output is
    // made only after the lock is held, so wait for both (waiting for the lock file alone
    // let the second run win the lock under load).
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !{
        let names = entries(dir.path());
        names.iter().any(|n| n.ends_with(".lock")) && names.iter().any(|n| n.ends_with(".tmp"))
    } {
        assert!(std::time::Instant::now() < deadline, "no lock");
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = pgn960_process()
        .arg("clean")
        .arg(fixture("sample.pgn"))
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(second.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&second.stderr).contains("another pgn960 run is writing"));
    // The first run finishes normally and removes its lock.
    let mut stdin = first.stdin.take().unwrap();
    std::io::Write::write_all(&mut stdin, &std::fs::read(fixture("sample.pgn")).unwrap()).unwrap();
    drop(stdin);
    assert_eq!(first.wait().unwrap().code(), Some(1));
    assert!(!entries(dir.path())
        .iter()
        .any(|n| n.ends_with(".lock") || n.ends_with(".tmp")));
}

#[test]
fn output_names_of_255_bytes_work() {
    let dir = tempfile::tempdir().unwrap();
    let name = format!("{}.pgn", "x".repeat(251));
    let out = pgn960_process()
        .arg("clean")
        .arg(fixture("pgn/crlf.pgn"))
        .arg("-o")
        .arg(dir.path().join(&name))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(dir.path().join(&name).exists());
}

#[test]
fn a_closed_pipe_ends_the_run_with_the_verdict_so_far_and_no_panic() {
    let dir = tempfile::tempdir().unwrap();
    let big = copies(dir.path(), 3000); // 9,000 rejected games
    for args in [
        &["check", "--max-errors", "100000"][..],
        &["clean", "-o", "-"],
    ] {
        let mut child = pgn960_process()
            .args(args)
            .arg(&big)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Read a little, then close the pipe.
        let mut stdout = child.stdout.take().unwrap();
        let mut first = [0u8; 4096];
        std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(
            out.status.code(),
            Some(1),
            "{args:?}: invalid games seen before the pipe closed"
        );
    }
}

#[test]
fn absurd_thread_counts_are_capped_with_a_message() {
    let out = pgn960_process()
        .args(["-j", "100000", "check"])
        .arg(fixture("sample.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("threads per core"));
}
