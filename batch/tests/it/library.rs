//! The library's verdicts are `pgn960 check`'s: for every fixture and every real file of
//! the shared data, the games the library rejects (index, reason, line, column) are the
//! rows `clean` writes to its reasons file, and its counts are `check`'s.

use crate::util::*;
use pgn960::{Archive, Verdict};
use std::path::{Path, PathBuf};

fn pgn_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.sort();
    for path in paths {
        if path.is_dir() {
            pgn_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
}

/// (valid, unsupported, rejected rows "game reason line:column") by the library.
fn library(path: &Path) -> (u64, u64, Vec<String>) {
    let (mut valid, mut unsupported, mut rows) = (0, 0, Vec::new());
    for record in Archive::open(path).unwrap().par_records(2).unwrap() {
        let record = record.unwrap();
        match &record.verdict {
            Verdict::Valid(_) => valid += 1,
            Verdict::Unsupported(_) => unsupported += 1,
            Verdict::Invalid(r) => {
                let (line, column) = record.problem_at.unwrap();
                rows.push(format!("{} {} {line}:{column}", record.index + 1, r.reason));
            }
        }
    }
    (valid, unsupported, rows)
}

/// The same by the command line (`check --json` counts, `clean`'s reasons file).
fn command_line(path: &Path, dir: &Path) -> (u64, u64, Vec<String>) {
    let out = pgn960()
        .args(["check", "--json"])
        .arg(path)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rejects = dir.join("r.pgn");
    pgn960()
        .arg("clean")
        .arg(path)
        .arg("-o")
        .arg(dir.join("kept.pgn"))
        .arg("--rejects")
        .arg(&rejects)
        .output()
        .unwrap();
    let tsv = std::fs::read_to_string(dir.join("r.tsv")).unwrap();
    let n = |k: &str| report[k].as_u64().unwrap();
    if tsv.is_empty() {
        return (n("valid"), n("unsupported_variant"), Vec::new());
    }
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (game, reason, line, column) = (col("game"), col("reason"), col("line"), col("column"));
    let rows = lines
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            format!("{} {} {}:{}", f[game], f[reason], f[line], f[column])
        })
        .collect();
    (n("valid"), n("unsupported_variant"), rows)
}

#[test]
fn library_verdicts_equal_check_on_every_fixture_and_real_file() {
    let mut files = Vec::new();
    for dir in ["", "pgn", "check", "fuzz-regressions"] {
        let mut found = Vec::new();
        pgn_files(&fixture(dir), &mut found);
        files.extend(
            found
                .into_iter()
                .filter(|p| dir.is_empty() || p.parent() == Some(&fixture(dir))),
        );
    }
    files.dedup();
    if let Some(shared) = shared_data(
        "library::library_verdicts_equal_check_on_every_fixture_and_real_file",
        "pgn",
    ) {
        pgn_files(&shared, &mut files);
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut rejected = 0;
    for file in &files {
        let ours = library(file);
        let theirs = command_line(file, tmp.path());
        assert_eq!(ours, theirs, "{}", file.display());
        rejected += ours.2.len();
    }
    assert!(
        files.len() >= 15 && rejected >= 20,
        "{} files, {rejected} rejections",
        files.len()
    );
}
