//! Faults: a full disk, a missing output directory, Ctrl-C in the middle of a run. Each
//! must end with a clear message, the right exit status and no half-written output.

#[allow(unused_imports)]
use crate::util::*;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

#[test]
fn writing_to_a_full_disk_is_a_clear_error_and_no_output_is_left() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipping: no /dev/full");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = pgn960_process()
        .args(["clean", "-o", "-", "--rejects"])
        .arg(dir.path().join("rejects.pgn"))
        .arg(fixture("sample.pgn"))
        .stdout(Stdio::from(full))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("No space left on device"), "{stderr}");
    assert!(!stderr.contains("panicked"));
    // The kept games could not be written, so the rejects are not committed either.
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

/// `len` bytes of the sample repeated, in `dir`.
fn big_input(dir: &Path, len: usize) -> PathBuf {
    let path = dir.join("big.pgn");
    let sample = std::fs::read(fixture("sample.pgn")).unwrap();
    let mut bytes = Vec::with_capacity(len + sample.len());
    while bytes.len() < len {
        bytes.extend_from_slice(&sample);
        bytes.push(b'\n');
    }
    std::fs::write(&path, &bytes).unwrap();
    path
}

#[test]
fn an_input_truncated_while_mapped_is_a_clear_error_not_a_crash() {
    // Truncating a mapped file makes the next read of a page past the new end raise
    // SIGBUS: the run must end with a message and status 2, leaving no output behind.
    let dir = tempfile::tempdir().unwrap();
    let big = big_input(dir.path(), 150 << 20);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let child = pgn960_process()
        .args(["-j1", "clean"])
        .arg(&big)
        .arg("-o")
        .arg(out_dir.join("clean.pgn"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until kept games are being written (the input is mapped and half-read).
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let writing = || {
        std::fs::read_dir(&out_dir).unwrap().any(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with(".pgn960-")
                && name.ends_with(".tmp")
                && e.metadata().is_ok_and(|m| m.len() > 0)
        })
    };
    while !writing() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(&big)
        .unwrap()
        .set_len(4096)
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Killed by a signal, the status would have no code.
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("truncated while it was being read") || stderr.contains("changed size"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn a_read_only_output_directory_is_a_clear_error() {
    // As root every directory is writable: run the binary as `nobody` with setpriv.
    let dir = tempfile::tempdir().unwrap();
    let locked = dir.path().join("locked");
    std::fs::create_dir(&locked).unwrap();
    let input = dir.path().join("sample.pgn");
    std::fs::copy(fixture("sample.pgn"), &input).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&input, std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).unwrap();
    let binary = assert_cmd::cargo::cargo_bin("pgn960");
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0");
    let mut cmd = if is_root {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&binary);
        c
    } else {
        Command::new(&binary)
    };
    let Ok(out) = cmd
        .args(["--no-progress", "clean"])
        .arg(&input)
        .arg("-o")
        .arg(locked.join("clean.pgn"))
        .output()
    else {
        eprintln!("skipping: setpriv is not available");
        return;
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    if is_root && stderr.contains("setpriv") {
        eprintln!("skipping: cannot drop privileges here: {stderr}");
        return;
    }
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot create a temporary file in")
            && stderr.contains("Permission denied"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(&locked).unwrap().count(), 0);
}

#[test]
fn a_missing_output_directory_is_a_clear_error_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = pgn960_process()
        .arg("clean")
        .arg(fixture("sample.pgn"))
        .arg("-o")
        .arg(dir.path().join("no/such/dir/out.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("cannot create a temporary file in"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_missing_input_names_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let out = pgn960_process()
        .arg("check")
        .arg(dir.path().join("no-such.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cannot read"), "{stderr}");
    assert_eq!(stderr.matches("os error 2").count(), 1, "{stderr}");
}

#[test]
fn ctrl_c_leaves_no_output_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let big = big_input(dir.path(), 80 << 20);
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let child = pgn960_process()
        .args(["-j1", "clean"])
        .arg(&big)
        .arg("-o")
        .arg(out_dir.join("clean.pgn"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The handler is installed first thing: once the output's temporary file exists, the
    // signal is the handler's (a fixed wait let a loaded machine's signal arrive before it).
    let started = std::time::Instant::now();
    while std::fs::read_dir(&out_dir).unwrap().next().is_none()
        && started.elapsed() < Duration::from_secs(20)
    {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(50));
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let out = child.wait_with_output().unwrap();
    if out.status.code() == Some(1) {
        eprintln!("skipping: the run finished before the signal arrived");
        return;
    }
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("interrupted; no output was written"));
    let left: Vec<_> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}

#[test]
fn writing_to_dev_null_never_replaces_it() {
    use std::os::unix::fs::FileTypeExt;
    if !Path::new("/dev/null").exists() {
        return;
    }
    // Found in this project's own benchmarks: atomic replace must never rename a regular
    // file over a device.
    let status = pgn960_process()
        .args(["stats", "-o", "/dev/null", "--chart", "/dev/null"])
        .arg(fixture("sample.pgn"))
        .status()
        .unwrap();
    // (sample.pgn holds invalid games: stats exits 1, the one rule of docs/outputs.md.)
    assert_eq!(status.code(), Some(1));
    let status = pgn960_process()
        .args(["xfen", "-o", "/dev/null", "--input", "fen"])
        .arg(fixture("sample.pgn"))
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.code().is_some());
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
}

#[test]
fn a_second_ctrl_c_stops_a_run_blocked_on_its_input_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = pgn960_process()
        .args(["clean", "-", "-o"])
        .arg(dir.path().join("clean.pgn"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let interrupt = |pid: u32| {
        let sent = Command::new("kill")
            .args(["-INT", &pid.to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
    };
    // Standard input stays open and empty: the run waits for it, temporary files open.
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while std::fs::read_dir(dir.path()).unwrap().count() < 3 {
        assert!(std::time::Instant::now() < deadline, "no temporary files");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(100));
    interrupt(child.id());
    std::thread::sleep(Duration::from_millis(200));
    assert!(child.try_wait().unwrap().is_none(), "still blocked reading");
    interrupt(child.id());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    // The second signal may also wake the blocked read, so the run can stop through either
    // path first: both say so and leave nothing.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("interrupted again")
            || stderr.contains("interrupted; no output was written"),
        "{stderr}"
    );
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
}
