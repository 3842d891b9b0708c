//! The plumbing of the command line: atomic outputs, refusing to overwrite inputs,
//! standard input and directories.

#[allow(unused_imports)]
use crate::util::*;

use pgn960::input;
use pgn960_cli::output::{refuse_input, AtomicFile, Sink};
use std::io::Write;
use std::path::Path;
use test_support::{bzip2, gzip, zstd};

#[test]
fn atomic_file_commit_and_drop() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("out.pgn");
    std::fs::write(&target, b"old").unwrap();
    let mut file = AtomicFile::create(&target).unwrap();
    file.write_all(b"new contents").unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    // The target, the temporary file and the output's lock.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 3);
    drop(file);
    assert_eq!(std::fs::read(&target).unwrap(), b"old");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    let mut file = AtomicFile::create(&target).unwrap();
    file.write_all(b"new contents").unwrap();
    file.commit().unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"new contents");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn writing_to_a_full_device_is_an_error_naming_it() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipping: no /dev/full");
        return;
    }
    let mut sink = Sink::create(Path::new("/dev/full"), &[]).unwrap();
    let written = sink.write_all(&vec![b'x'; 4 << 20]);
    let err = match written {
        Err(e) => anyhow::Error::from(e),
        Ok(()) => anyhow::Error::from(sink.commit().unwrap_err()),
    };
    let message = format!("{err:#}");
    assert!(message.contains("No space left on device"), "{message}");
}

#[test]
fn an_output_that_is_an_input_or_inside_an_input_directory_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games");
    std::fs::create_dir(&games).unwrap();
    let earlier = games.join("clean.pgn");
    std::fs::write(&earlier, b"").unwrap();
    let inputs = [games.clone()];
    assert!(refuse_input(&earlier, &inputs).is_err());
    assert!(refuse_input(&games.join("./clean.pgn"), &inputs).is_err());
    assert!(refuse_input(&games.join("new.pgn"), &inputs).is_ok());
    assert!(refuse_input(&dir.path().join("clean.pgn"), &inputs).is_ok());
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&earlier, &link).unwrap();
    assert!(refuse_input(&link, &[earlier]).is_err());
}

#[test]
fn compressed_standard_input_reads_like_the_plain_file() {
    use assert_cmd::assert::OutputAssertExt;
    let plain = std::fs::read(fixture("sample.pgn")).unwrap();
    let expected = pgn960_process()
        .args(["check", "--json"])
        .arg(fixture("sample.pgn"))
        .output()
        .unwrap();
    for bytes in [gzip(&plain), zstd(&plain), bzip2(&plain)] {
        let mut cmd = pgn960_process();
        cmd.args(["check", "--json", "-"]);
        let got = assert_cmd::Command::from_std(cmd)
            .write_stdin(bytes)
            .output()
            .unwrap();
        assert_eq!(got.status.code(), expected.status.code());
        let counts = |out: &[u8]| {
            let report: serde_json::Value = serde_json::from_slice(out).unwrap();
            ["games_read", "valid", "rejected", "bytes"].map(|k| report[k].as_u64())
        };
        assert!(counts(&expected.stdout)[0].is_some_and(|n| n > 0));
        assert_eq!(counts(&got.stdout), counts(&expected.stdout));
    }
    // The whole binary's exit statuses: usage error 2, help 0.
    pgn960_process().arg("--no-such-flag").assert().code(2);
    pgn960_process().arg("--help").assert().code(0);
}

#[test]
fn cleaning_into_an_input_directory_refuses_an_earlier_output() {
    use assert_cmd::assert::OutputAssertExt;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("sample.pgn"), dir.path().join("games.pgn")).unwrap();
    let earlier = dir.path().join("clean.pgn");
    std::fs::write(&earlier, b"earlier output\n").unwrap();
    pgn960_process()
        .arg("clean")
        .arg(dir.path())
        .arg("-o")
        .arg(&earlier)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("it is one of the inputs"));
    assert_eq!(std::fs::read(&earlier).unwrap(), b"earlier output\n");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
}

#[test]
fn a_directory_without_pgn_files_is_an_error_not_an_empty_run() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"not a game\n").unwrap();
    let err = input::expand_inputs(&[dir.path().to_path_buf()]).unwrap_err();
    assert!(err.to_string().contains("no PGN files below"), "{err}");
    use assert_cmd::assert::OutputAssertExt;
    pgn960_process()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no PGN files below"));
}
