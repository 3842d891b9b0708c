//! Integration tests of `pgn960 split`, on the archive of [`crate::filter`]: every selected
//! game in exactly one file, the right one for its key as python-chess and the generator's
//! truth say; safe names for hostile values; the same files at any `-j` and open-file
//! bound; nothing left behind by a failed run.

#[allow(unused_imports)]
use crate::util::*;

use crate::filter::{archive, game_ids, games_of};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Runs `pgn960 split` into `dir` (which must not exist yet): every file's bytes by name.
fn split(input: &Path, args: &[&str], dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let result = pgn960()
        .arg("split")
        .arg(input)
        .arg("-o")
        .arg(dir)
        .args(args)
        .output()
        .unwrap();
    let code = result.status.code();
    assert!(
        code == Some(0) || code == Some(1),
        "{args:?}: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    files(dir)
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The file name a game's key value should give, from the generator's truth.
fn expected_name(key: &str, t: &Value) -> Option<String> {
    let tags = &t["tags"];
    let (w, b) = (t["white_sp"].as_u64()?, t["black_sp"].as_u64()?);
    Some(match key {
        "sp" if t["variant"] == "other" => "sp-other-variant.pgn".into(),
        "sp" if w == b => format!("sp-{w:04}.pgn"),
        "sp" => format!("sp-{w:04}-{b:04}.pgn"),
        "sp-pair" if t["variant"] == "other" => "sp-pair-other-variant.pgn".into(),
        "sp-pair" => format!("sp-pair-{w:04}-{b:04}.pgn"),
        "year" | "month" => {
            let date = tags["UTCDate"].as_str().or(tags["Date"].as_str());
            let parts: Vec<&str> = date.map(|d| d.split('.').collect()).unwrap_or_default();
            match (key, parts.as_slice()) {
                (_, [y, ..]) if y.starts_with('?') => format!("{key}-unknown.pgn"),
                ("year", [y, ..]) => format!("year-{y}.pgn"),
                ("month", [_, m, _]) if m.starts_with('?') => "month-unknown.pgn".into(),
                ("month", [y, m, _]) => format!("month-{y}-{m}.pgn"),
                _ => format!("{key}-unknown.pgn"),
            }
        }
        "result" => {
            let r = match tags["Result"].as_str()? {
                "1/2-1/2" => "draw",
                "*" => "unfinished",
                r => r,
            };
            format!("result-{r}.pgn")
        }
        _ => return None,
    })
}

#[test]
fn every_selected_game_is_in_exactly_one_file_the_right_one() {
    const TEST: &str = "split::every_selected_game_is_in_exactly_one_file_the_right_one";
    let Some(archive) = archive(TEST) else {
        return;
    };
    let truth = archive.truth();
    let by_id: BTreeMap<&str, &Value> = truth
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t))
        .collect();
    let input = std::fs::read(archive.pgn()).unwrap();
    let originals: BTreeSet<&[u8]> = games_of(&input).into_iter().collect();
    let queries: Vec<Value> = [r#"{}"#, r#"{"min_elo": 1800, "sp": "0-700"}"#]
        .iter()
        .map(|q| serde_json::from_str(q).unwrap())
        .collect();
    let expected = archive.expected(&queries);
    let tmp = tempfile::tempdir().unwrap();
    for (q, (query, want)) in queries.iter().zip(&expected).enumerate() {
        let selection = crate::filter::flags(query);
        let selection: Vec<&str> = selection.iter().map(String::as_str).collect();
        for key in [
            "sp",
            "sp-pair",
            "month",
            "year",
            "event",
            "time-control",
            "white",
            "result",
            "games:50",
        ] {
            let dir = tmp.path().join(format!("{q}-{}", key.replace(':', "-")));
            let mut args = vec!["--by", key];
            args.extend(&selection);
            let files = split(&archive.pgn(), &args, &dir);
            let mut seen = Vec::new();
            for (name, bytes) in &files {
                assert!(name.ends_with(".pgn") && !name.starts_with('.'), "{name}");
                assert!(name.len() <= 255 && !name.contains('/'), "{name}");
                let ids = game_ids(bytes);
                assert!(!ids.is_empty(), "{key}: {name} is empty");
                // Each file holds whole games, as they were read, in input order.
                for game in games_of(bytes) {
                    assert!(originals.contains(game), "{key}: {name}: a game changed");
                }
                for id in &ids {
                    if let Some(want) = expected_name(key, by_id[id.as_str()]) {
                        assert_eq!(name, &want, "{key}: {id}");
                    }
                }
                if let Some(n) = key.strip_prefix("games:") {
                    let n: usize = n.parse().unwrap();
                    let last = files.keys().last().unwrap();
                    assert!(ids.len() == n || name == last, "{name}: {}", ids.len());
                }
                seen.extend(ids);
            }
            let unique: BTreeSet<&String> = seen.iter().collect();
            assert_eq!(unique.len(), seen.len(), "{key}: a game in two files");
            let want_set: BTreeSet<&String> = want.iter().collect();
            assert_eq!(unique, want_set, "{key} {query}");
            if key.starts_with("games") {
                assert_eq!(&seen, want, "games:N keeps the input order");
            }
            if key == "event" {
                // Every distinct event a file of its own, hostile ones included, all in DIR.
                let events: BTreeSet<Vec<u8>> = want
                    .iter()
                    .map(|id| {
                        by_id[id.as_str()]["event_bytes"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|b| b.as_u64().unwrap() as u8)
                            .collect()
                    })
                    .collect();
                assert_eq!(files.len(), events.len());
                assert!(events.iter().any(|e| e.len() == 300));
                assert!(events.iter().any(|e| e.starts_with(b"../")));
                assert!(events.iter().any(|e| std::str::from_utf8(e).is_err()));
                assert_eq!(
                    std::fs::read_dir(tmp.path()).unwrap().count(),
                    dir_count(tmp.path())
                );
            }
        }
    }
}

/// Entries of `dir` (nothing a split wrote may appear beside its output directories).
fn dir_count(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().is_dir())
        .count()
}

#[test]
fn the_same_files_at_any_thread_count_and_open_file_bound() {
    const TEST: &str = "split::the_same_files_at_any_thread_count_and_open_file_bound";
    let Some(archive) = archive(TEST) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let big = tmp.path().join("big.pgn");
    let one = std::fs::read(archive.pgn()).unwrap();
    std::fs::write(&big, [&one[..], &one, &one, &one].join(&b"\n"[..])).unwrap();
    let mut runs = Vec::new();
    for (j, open) in [("1", "64"), ("2", "3"), ("8", "1")] {
        let dir = tmp.path().join(format!("j{j}"));
        let result = pgn960()
            .args(["-j", j, "split"])
            .arg(&big)
            .arg("-o")
            .arg(&dir)
            .args(["--by", "sp", "--max-open", open])
            .output()
            .unwrap();
        assert_eq!(result.status.code(), Some(1));
        runs.push(files(&dir));
    }
    assert!(runs[0].len() > 100, "{} files", runs[0].len());
    assert!(runs[1] == runs[0] && runs[2] == runs[0]);
}

#[test]
fn a_failed_run_leaves_no_file() {
    const TEST: &str = "split::a_failed_run_leaves_no_file";
    let Some(archive) = archive(TEST) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let junk = tmp.path().join("junk.pgn");
    std::fs::write(&junk, b"this is not PGN\n").unwrap();
    let dir = tmp.path().join("out");
    // The first input is split, then the second turns out to hold no game.
    pgn960()
        .arg("split")
        .arg(archive.pgn())
        .arg(&junk)
        .arg("-o")
        .arg(&dir)
        .args(["--by", "event"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no game found"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn templates_name_files_and_stay_in_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("out");
    let files = split(
        &fixture("sample.pgn"),
        &["--by", "games:2", "--template", "part-{value}.pgn"],
        &dir,
    );
    assert!(files.contains_key("part-000001.pgn"), "{:?}", files.keys());
    for bad in ["../{value}.pgn", "x.pgn", ".{value}"] {
        pgn960()
            .arg("split")
            .arg(fixture("sample.pgn"))
            .arg("-o")
            .arg(&dir)
            .args(["--by", "sp", "--template", bad])
            .assert()
            .code(2);
    }
    // Split writes plain PGN (it appends and reopens its files): a name that says
    // compressed is refused before anything is written, saying why.
    let other = tmp.path().join("compressed");
    for compressed in ["{value}.pgn.gz", "{value}.pgn.zst", "{value}.PGN.XZ"] {
        pgn960()
            .arg("split")
            .arg(fixture("sample.pgn"))
            .arg("-o")
            .arg(&other)
            .args(["--by", "sp", "--template", compressed])
            .assert()
            .code(2)
            .stderr(predicates::str::contains("split writes plain PGN"));
        assert!(!other.exists(), "nothing written for {compressed}");
    }
}

/// Games from 100 start positions (a few games each), for the open-file bound.
fn hundred_sps(path: &Path) {
    let mut text = String::new();
    for i in 0..300u16 {
        let rank = pgn960::stats::table::back_rank(i % 100 * 9);
        text.push_str(&format!(
            "[Event \"g{i}\"]\n[Variant \"Chess960\"]\n[Result \"*\"]\n[FEN \"{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1\"]\n\n1. a3 a6 *\n\n",
            rank.to_lowercase()
        ));
    }
    std::fs::write(path, text).unwrap();
}

/// `pgn960 split ARGS` run under an open-file limit of `limit` (soft and hard).
fn split_under_limit(limit: u32, input: &Path, dir: &Path, args: &[&str]) -> std::process::Output {
    let bin = pgn960_process().get_program().to_owned();
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -n {limit} && exec \"$0\" \"$@\""))
        .arg(bin)
        .args(["--no-progress", "-q", "-j1", "split"])
        .arg(input)
        .arg("-o")
        .arg(dir)
        .args(["--by", "sp"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn the_default_open_file_bound_follows_the_limit_and_an_explicit_one_is_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("in.pgn");
    hundred_sps(&input);
    let want = split(
        &input,
        &["--by", "sp", "--max-open", "1"],
        &tmp.path().join("one"),
    );
    assert_eq!(want.len(), 100);
    // By default half the limit (24 of 48) are open: the 100 files are written.
    let dir = tmp.path().join("default");
    let run = split_under_limit(48, &input, &dir, &[]);
    assert_eq!(
        run.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(files(&dir) == want);
    // An explicit bound is kept, even above the limit: the run fails, writing nothing.
    let dir = tmp.path().join("explicit");
    let run = split_under_limit(48, &input, &dir, &["--max-open", "100"]);
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("Too many open files"), "{stderr}");
    assert!(files(&dir).is_empty());
    let run = split_under_limit(48, &input, &tmp.path().join("kept"), &["--max-open", "20"]);
    assert_eq!(run.status.code(), Some(0));
    assert!(files(&tmp.path().join("kept")) == want);
}
