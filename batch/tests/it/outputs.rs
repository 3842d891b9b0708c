//! Outputs as a user expects them: compressed by their name, rejects only where they
//! belong, `-q` silent, two outputs never the same file, names derived byte for byte.

use crate::util::*;
use std::path::Path;

fn reasons() -> std::path::PathBuf {
    fixture("check/reasons.pgn")
}

#[test]
fn outputs_are_compressed_as_their_names_say_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.pgn");
    pgn960()
        .arg("clean")
        .arg(reasons())
        .arg("-o")
        .arg(&plain)
        .assert()
        .code(1);
    let expected = std::fs::read(&plain).unwrap();
    for ext in ["zst", "gz", "bz2", "xz"] {
        let out = dir.path().join(format!("out.pgn.{ext}"));
        pgn960()
            .arg("clean")
            .arg(reasons())
            .arg("-o")
            .arg(&out)
            .assert()
            .code(1);
        let rejects = dir.path().join(format!("out.rejects.pgn.{ext}"));
        assert!(
            rejects.exists(),
            "{ext}: rejects compressed like the output"
        );
        assert!(dir.path().join("out.rejects.tsv").exists());
        // Read back through pgn960 itself: `xfen` copies a PGN byte for byte when the FENs
        // are already in the style asked for.
        let back = dir.path().join(format!("back-{ext}.pgn"));
        pgn960()
            .arg("xfen")
            .arg(&out)
            .arg("-o")
            .arg(&back)
            .assert()
            .success();
        assert_eq!(std::fs::read(&back).unwrap(), expected, "{ext}");
        let raw = std::fs::read(&out).unwrap();
        assert_ne!(raw, expected, "{ext} is compressed");
    }
}

#[test]
fn rejects_go_only_where_they_belong() {
    let dir = tempfile::tempdir().unwrap();
    // To standard output: no rejects file appears in the working directory.
    let out = pgn960()
        .current_dir(dir.path())
        .args(["clean", "-", "-o", "-"])
        .pipe_stdin(reasons())
        .unwrap()
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("11 counted, not written"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // Asked for: written even from standard output.
    pgn960()
        .current_dir(dir.path())
        .args(["clean", "-", "-o", "-", "--rejects", "bad.pgn"])
        .pipe_stdin(reasons())
        .unwrap()
        .assert()
        .code(1);
    assert!(dir.path().join("bad.pgn").exists() && dir.path().join("bad.tsv").exists());
    // No game rejected: no rejects file unless asked for.
    let out = dir.path().join("clean.pgn");
    pgn960()
        .arg("clean")
        .arg(fixture("pgn/crlf.pgn"))
        .arg("-o")
        .arg(&out)
        .assert()
        .success();
    assert!(!dir.path().join("clean.rejects.pgn").exists());
    assert!(!dir.path().join("clean.rejects.tsv").exists());
    // A device as output: nothing derived from its name.
    if Path::new("/dev/null").exists() {
        let before: Vec<_> = std::fs::read_dir("/dev")
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        pgn960()
            .arg("clean")
            .arg(reasons())
            .args(["-o", "/dev/null"])
            .assert()
            .code(1);
        let after: Vec<_> = std::fs::read_dir("/dev")
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert!(
            after.iter().all(|n| before.contains(n)),
            "nothing new in /dev"
        );
    }
}

#[test]
fn names_that_are_not_utf8_are_derived_byte_for_byte() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"\xff.pgn");
    // An unrelated file the old lossy derivation would have overwritten.
    std::fs::write(dir.path().join("out.rejects.pgn"), b"keep me").unwrap();
    pgn960()
        .arg("clean")
        .arg(reasons())
        .arg("-o")
        .arg(dir.path().join(name))
        .assert()
        .code(1);
    assert!(dir
        .path()
        .join(std::ffi::OsStr::from_bytes(b"\xff.rejects.pgn"))
        .exists());
    assert_eq!(
        std::fs::read(dir.path().join("out.rejects.pgn")).unwrap(),
        b"keep me"
    );
}

#[test]
fn two_outputs_that_are_the_same_file_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases: Vec<Vec<std::ffi::OsString>> = vec![
        vec![
            "-o".into(),
            d.join("out.pgn").into(),
            "--rejects".into(),
            d.join(".").join("out.pgn").into(),
        ],
        vec![
            "-o".into(),
            d.join("out.pgn").into(),
            "--report".into(),
            d.join("out.pgn").into(),
        ],
        vec![
            "-o".into(),
            d.join("r.tsv").into(),
            "--rejects".into(),
            d.join("./r.pgn").into(),
        ],
    ];
    for args in cases {
        let out = pgn960()
            .arg("clean")
            .arg(reasons())
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("are the same file"), "{args:?}: {stderr}");
        assert_eq!(
            std::fs::read_dir(d).unwrap().count(),
            0,
            "{args:?}: nothing written"
        );
    }
}

#[test]
fn quiet_prints_nothing_but_keeps_the_exit_status() {
    let out = pgn960_process()
        .arg("--quiet")
        .arg("check")
        .arg(reasons())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let dir = tempfile::tempdir().unwrap();
    let out = pgn960_process()
        .arg("-q")
        .arg("clean")
        .arg(reasons())
        .arg("-o")
        .arg(dir.path().join("o.pgn"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    assert!(dir.path().join("o.pgn").exists());
    // --json asks for output: it is printed even with -q.
    let out = pgn960_process()
        .args(["-q", "check", "--json"])
        .arg(reasons())
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["rejected"], 11);
    assert_eq!(report["first_problems"][0]["site"], "fixtures");
    assert_eq!(report["first_problems"][0]["white"], "?");
}
