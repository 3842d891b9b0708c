//! `stats --merge` with strata tables (`--strata-table`): the tables of parts of an
//! archive that mixes events, merged, equal the table of the whole with the default
//! `--strata event` (and `time-control`), byte for byte, p- and q-values included; without
//! strata tables the merge is the table of `--strata none`.

use crate::util::*;

use pgn960::stats::table::back_rank;
use std::path::{Path, PathBuf};

/// Runs `pgn960 stats ARGS`, asserting it succeeds (exit 1: some games were invalid).
fn stats(args: &[&std::ffi::OsStr]) {
    let out = pgn960_process().arg("stats").args(args).output().unwrap();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "stats {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `pgn960 stats ARGS`, asserting it fails with usage or input errors (exit 2) and
/// says `needle`.
fn refused(args: &[&std::ffi::OsStr], needle: &str) {
    let out = pgn960_process().arg("stats").args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
}

/// Games in three events whose results differ (one all draws, one mostly white wins) at
/// two speeds, so that tests within events and over one table disagree.
fn mixed_events() -> String {
    let mut text = String::new();
    for i in 0..240u16 {
        let sp = [0, 1, 2, 3, 518][usize::from(i % 5)];
        let (event, result) = match i % 3 {
            0 => ("Drawn", "1/2-1/2"),
            1 if sp < 2 => ("Sharp", "1-0"),
            1 => ("Sharp", ["1-0", "0-1"][usize::from(i % 2)]),
            _ => ("Mixed", ["1-0", "1/2-1/2", "0-1"][usize::from(i / 3 % 3)]),
        };
        let speed = ["180+2", "600+5"][usize::from(i / 7 % 2)];
        let rank = back_rank(sp);
        text.push_str(&format!(
            "[Event \"{event}\"]\n[Variant \"Chess960\"]\n[TimeControl \"{speed}\"]\n\
             [UTCDate \"2024.0{}.01\"]\n[Result \"{result}\"]\n\
             [FEN \"{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1\"]\n\n1. a3 {result}\n\n",
            1 + i % 3,
            rank.to_lowercase()
        ));
    }
    text
}

/// `path` as an argument.
fn os(path: &Path) -> &std::ffi::OsStr {
    path.as_os_str()
}

/// The SP table and strata table of `input` with `flags`, written into `dir` as
/// `NAME.csv` and `NAME.strata.csv`.
fn tables(dir: &Path, name: &str, input: &Path, flags: &[&str]) -> (PathBuf, PathBuf) {
    let (sp, strata) = (
        dir.join(format!("{name}.csv")),
        dir.join(format!("{name}.strata.csv")),
    );
    let mut args = vec![os(input), "-o".as_ref(), os(&sp), "--strata-table".as_ref()];
    args.push(os(&strata));
    args.extend(flags.iter().map(std::ffi::OsStr::new));
    stats(&args);
    (sp, strata)
}

#[test]
fn merged_parts_with_their_strata_tables_are_the_whole_within_strata() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("mixed.pgn");
    std::fs::write(&input, mixed_events()).unwrap();
    let bytes = std::fs::read(&input).unwrap();
    let chunks = pgn_parse::split_at_game_boundaries(&bytes, bytes.len() / 3);
    assert!(chunks.len() >= 3);
    let mut parts = Vec::new();
    for (i, chunk) in chunks.iter().enumerate() {
        let part = d.join(format!("part{i}.pgn"));
        std::fs::write(&part, &bytes[chunk.range.clone()]).unwrap();
        parts.push(part);
    }
    let cases: [&[&str]; 4] = [
        &[],
        &["--strata", "time-control"],
        &["--by", "month"],
        &["--by", "event,time-control", "--strata", "event"],
    ];
    for flags in cases {
        let (whole, whole_strata) = tables(d, "whole", &input, flags);
        let mut args: Vec<PathBuf> = Vec::new();
        for (i, part) in parts.iter().enumerate().rev() {
            let (sp, strata) = tables(d, &format!("p{i}"), part, flags);
            // Strata tables anywhere among the SP tables.
            args.extend(if i % 2 == 0 {
                [sp, strata]
            } else {
                [strata, sp]
            });
        }
        let (merged, merged_strata) = (d.join("m.csv"), d.join("m.strata.csv"));
        let report = d.join("m.json");
        let (groups, whole_groups) = (d.join("m.groups.csv"), d.join("whole.groups.csv"));
        let mut merge: Vec<&std::ffi::OsStr> = vec!["--merge".as_ref()];
        merge.extend(args.iter().map(|p| os(p)));
        merge.extend([
            "-o".as_ref(),
            os(&merged),
            "--strata-table".as_ref(),
            os(&merged_strata),
            "--report".as_ref(),
            os(&report),
            "--groups".as_ref(),
            os(&groups),
        ]);
        stats(&merge);
        let read = |p: &Path| std::fs::read_to_string(p).unwrap();
        assert_eq!(read(&merged), read(&whole), "{flags:?}");
        assert_eq!(read(&merged_strata), read(&whole_strata), "{flags:?}");
        // The verdicts too: tested within the same strata.
        let whole_report = d.join("whole.json");
        let mut again = vec![os(&input), "-o".as_ref(), os(&whole), "--report".as_ref()];
        again.push(os(&whole_report));
        again.extend(["--groups".as_ref(), os(&whole_groups)]);
        again.extend(flags.iter().map(std::ffi::OsStr::new));
        stats(&again);
        // The groups' tests run within the merged strata as within the whole's.
        assert_eq!(read(&groups), read(&whole_groups), "{flags:?}");
        let significance = |p: &Path| {
            let report: serde_json::Value = serde_json::from_str(&read(p)).unwrap();
            report["significance"].clone()
        };
        let verdicts = significance(&report);
        assert_eq!(verdicts, significance(&whole_report), "{flags:?}");
        if flags.is_empty() {
            let text = verdicts[0]["verdict"].as_str().unwrap();
            assert!(text.contains("Tested within 3 strata by event"), "{text}");
        }
    }
    // Stratified and flat tests disagree on this archive: the merge without strata tables
    // is the table of --strata none, not of the default.
    let (within, _) = tables(d, "within", &input, &[]);
    let flat = d.join("flat.csv");
    stats(&[
        os(&input),
        "-o".as_ref(),
        os(&flat),
        "--strata".as_ref(),
        "none".as_ref(),
    ]);
    assert_ne!(
        std::fs::read(&within).unwrap(),
        std::fs::read(&flat).unwrap()
    );
    let sps: Vec<PathBuf> = (parts.iter().enumerate())
        .map(|(i, part)| tables(d, &format!("q{i}"), part, &[]).0)
        .collect();
    let fresh = d.join("fresh.csv");
    let mut merge: Vec<&std::ffi::OsStr> = vec!["--merge".as_ref()];
    merge.extend(sps.iter().map(|p| os(p)));
    merge.extend(["-o".as_ref(), os(&fresh)]);
    stats(&merge);
    assert_eq!(
        std::fs::read(&fresh).unwrap(),
        std::fs::read(&flat).unwrap()
    );
}

#[test]
fn strata_tables_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let input = d.join("mixed.pgn");
    std::fs::write(&input, mixed_events()).unwrap();
    let (sp, strata) = tables(d, "a", &input, &[]);
    let text = std::fs::read_to_string(&strata).unwrap();
    assert!(
        text.starts_with("stratum_event,sp,white_wins,draws,black_wins\n"),
        "{text}"
    );
    assert!(text.contains("\nSharp,0,"), "{text}");
    let out = d.join("m.csv");
    let o: [&std::ffi::OsStr; 2] = ["-o".as_ref(), os(&out)];
    // --strata none keeps none to write; a merge without strata tables neither.
    refused(
        &[
            os(&input),
            o[0],
            o[1],
            "--strata".as_ref(),
            "none".as_ref(),
            "--strata-table".as_ref(),
            os(&strata),
        ],
        "--strata none keeps no strata",
    );
    refused(
        &[
            "--merge".as_ref(),
            os(&sp),
            o[0],
            o[1],
            "--strata-table".as_ref(),
            os(&d.join("s.csv")),
        ],
        "no strata table was given",
    );
    // The strata table is CSV.
    refused(
        &[
            os(&input),
            o[0],
            o[1],
            "--strata-table".as_ref(),
            os(&d.join("s.json")),
        ],
        "writes csv, not json",
    );
    // Strata that are not those of the SP tables: the file's name and what differs.
    let (other, other_strata) = tables(d, "b", &input, &["--since", "2024.02.01"]);
    refused(
        &["--merge".as_ref(), os(&sp), os(&other_strata), o[0], o[1]],
        "the strata tables do not add up to the SP tables",
    );
    refused(
        &["--merge".as_ref(), os(&strata), o[0], o[1]],
        "without the SP tables they go with",
    );
    // A strata table of another key.
    let (_, speeds) = tables(d, "c", &input, &["--strata", "time-control"]);
    refused(
        &[
            "--merge".as_ref(),
            os(&sp),
            os(&strata),
            os(&other),
            os(&speeds),
            o[0],
            o[1],
        ],
        "a strata table by time_control, not event",
    );
    assert!(!out.exists());
}

#[test]
fn each_real_file_with_its_strata_table_merges_to_the_whole_directory() {
    let Some(pgn) = shared_data(
        "stats_merge::each_real_file_with_its_strata_table_merges_to_the_whole_directory",
        "pgn",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mut files: Vec<PathBuf> = walk(&pgn);
    files.sort();
    assert!(files.len() > 10);
    let (whole, whole_strata) = tables(d, "whole", &pgn, &[]);
    let strata = std::fs::read_to_string(&whole_strata).unwrap();
    let events: std::collections::BTreeSet<&str> = strata
        .lines()
        .skip(1)
        .filter_map(|l| l.rsplitn(5, ',').last())
        .collect();
    assert!(events.len() > 5, "{events:?}");
    let mut merge: Vec<PathBuf> = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let (sp, strata) = tables(d, &format!("f{i}"), file, &[]);
        merge.extend([sp, strata]);
    }
    let merged = d.join("m.csv");
    let mut args: Vec<&std::ffi::OsStr> = vec!["--merge".as_ref()];
    args.extend(merge.iter().map(|p| os(p)));
    args.extend(["-o".as_ref(), os(&merged)]);
    stats(&args);
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        std::fs::read_to_string(&whole).unwrap()
    );
}

/// The PGN files below `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else if path.extension().is_some_and(|e| e == "pgn") {
            out.push(path);
        }
    }
    out
}
