//! The monoid of stats tables: the games of an archive cut anywhere, counted part by part
//! and merged in any order — in memory ([`SpTables::merge`]) or through the CSV tables and
//! strata tables a run writes ([`merge_csv`]) — give the tables of the whole, byte for
//! byte, significance within strata included, for every `--strata` and `--by` cut.

use pgn960::range::ByteRange;
use pgn960::stats::by::ByKey;
use pgn960::stats::table::SpTables;
use pgn960::stats::{compute, merge_csv, write_strata, write_table, StatsOptions, TextFormat};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::{Path, PathBuf};

/// A small seeded generator (SplitMix64), so the generated archive is the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// An archive that exercises the strata: games of 12 SPs (a few with many games, so that
/// both the normal and the exact tests run) in five events — one all draws, one whose name
/// needs CSV quoting, one cut at 200 bytes, and games without an Event tag — at four
/// speeds (and none), over several months, with some unfinished and some classical games
/// that are not counted.
fn archive() -> String {
    let long_event = format!("Long {}", "y".repeat(260));
    let events = ["Open A", "Cup, \"B\"", "Drawn C", long_event.as_str(), ""];
    let speeds = ["60+0", "180+2", "600+5", "5400+30", ""];
    let sps: [u16; 12] = [0, 1, 2, 17, 100, 333, 518, 700, 959, 44, 45, 46];
    let mut rng = Rng(960);
    let mut text = String::new();
    for i in 0..500u64 {
        // SPs 0, 1 and 2 hold most games.
        let choices = if rng.below(3) > 0 {
            3
        } else {
            sps.len() as u64
        };
        let sp = sps[rng.below(choices) as usize];
        let event = rng.pick(&events);
        let result = match (event, rng.below(10)) {
            ("Drawn C", _) => "1/2-1/2",
            (_, 0) if i % 7 == 0 => "*",
            (_, 0..=3) => "1-0",
            (_, 4..=6) => "1/2-1/2",
            _ => "0-1",
        };
        let mut tags = String::new();
        if !event.is_empty() {
            tags.push_str(&format!("[Event \"{}\"]\n", event.replace('"', "\\\"")));
        }
        let speed = rng.pick(&speeds);
        if !speed.is_empty() {
            tags.push_str(&format!("[TimeControl \"{speed}\"]\n"));
        }
        let month = 1 + rng.below(4);
        tags.push_str(&format!("[UTCDate \"2024.{month:02}.15\"]\n"));
        let (white, black) = (1500 + rng.below(900), 1500 + rng.below(900));
        tags.push_str(&format!("[WhiteElo \"{white}\"]\n[BlackElo \"{black}\"]\n"));
        let rank = chess960_rank(sp);
        let variant = if i % 41 == 5 {
            ""
        } else {
            "[Variant \"Chess960\"]\n"
        };
        text.push_str(&format!(
            "{tags}{variant}[Result \"{result}\"]\n[FEN \"{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} \
             w KQkq - 0 1\"]\n\n1. a3 {{ [%eval 0.{}] }} a6 {result}\n\n",
            rank.to_lowercase(),
            rng.below(9)
        ));
    }
    text
}

/// The back rank of `sp`.
fn chess960_rank(sp: u16) -> String {
    pgn960::stats::table::back_rank(sp)
}

/// The options of one case: strata and `--by` keys.
fn options(strata: usize, by: usize) -> StatsOptions {
    let strata = [Some(ByKey::Event), Some(ByKey::TimeControl), None][strata];
    let by = [
        vec![],
        vec![ByKey::Month],
        vec![ByKey::Event, ByKey::TimeControl],
        vec![ByKey::RatingBand],
    ][by]
        .clone();
    StatsOptions {
        strata,
        by,
        threads: 1,
        ..StatsOptions::default()
    }
}

/// The SP table of `tables` as `pgn960 stats` writes it.
fn sp_csv(tables: &SpTables) -> Vec<u8> {
    let mut csv = Vec::new();
    let cells = tables.sp_cells();
    write_table(
        &mut csv,
        &tables.keys,
        cells,
        false,
        TextFormat::Csv,
        |_| {},
    )
    .unwrap();
    csv
}

/// The strata table of `tables` (empty without strata).
fn strata_csv(tables: &SpTables) -> Vec<u8> {
    let mut csv = Vec::new();
    if tables.strata.is_some() {
        write_strata(&mut csv, tables).unwrap();
    }
    csv
}

/// The tables of the games of `path` in `range` (the whole without one).
fn tables_of(path: &Path, options: &StatsOptions, range: Option<(u64, u64)>) -> SpTables {
    let options = StatsOptions {
        range: range.map(|(start, end)| ByteRange {
            start,
            end,
            first_line: None,
        }),
        ..options.clone()
    };
    compute(&[path.to_path_buf()], &options).unwrap().tables
}

/// `items` in the order of the permutation drawn from `seed`.
fn shuffled<T>(mut items: Vec<T>, seed: u64) -> Vec<T> {
    let mut rng = Rng(seed);
    let mut out = Vec::with_capacity(items.len());
    while !items.is_empty() {
        out.push(items.remove(rng.below(items.len() as u64) as usize));
    }
    out
}

/// One case: the archive cut at `cuts` (fractions of its length), each part counted, the
/// parts merged in the order drawn from `seed`, in memory and through CSV.
fn check_case(
    path: &Path,
    whole: &(Vec<u8>, Vec<u8>),
    options: &StatsOptions,
    cuts: &[f64],
    seed: u64,
) -> Result<(), TestCaseError> {
    let len = std::fs::metadata(path).unwrap().len();
    let mut points: Vec<u64> = cuts.iter().map(|c| (c * len as f64) as u64).collect();
    points.extend([0, len]);
    points.sort_unstable();
    let parts: Vec<SpTables> = points
        .windows(2)
        .map(|w| tables_of(path, options, Some((w[0], w[1]))))
        .collect();
    let parts = shuffled(parts, seed);
    // In memory.
    let mut merged = SpTables::new(options.by.clone());
    merged.strata = options.strata;
    for part in parts.iter().cloned() {
        merged.merge(part);
    }
    prop_assert_eq!(&sp_csv(&merged), &whole.0);
    prop_assert_eq!(&strata_csv(&merged), &whole.1);
    // Through the tables a run writes: each part's SP table and strata table, the strata
    // tables anywhere among the SP tables.
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        files.push((format!("part {i}"), sp_csv(part)));
        if part.strata.is_some() {
            files.push((format!("strata {i}"), strata_csv(part)));
        }
    }
    let files = shuffled(files, seed ^ 0x5eed);
    let read = merge_csv(files.iter().map(|(n, b)| (n.clone(), b.as_slice())), &[]).unwrap();
    prop_assert_eq!(read.strata, options.strata.is_some());
    prop_assert_eq!(read.tables.strata, options.strata);
    prop_assert_eq!(&sp_csv(&read.tables), &whole.0);
    prop_assert_eq!(&strata_csv(&read.tables), &whole.1);
    Ok(())
}

#[test]
fn merges_of_random_cuts_in_any_order_are_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.pgn");
    std::fs::write(&path, archive()).unwrap();
    // The wholes, once per option (strata × --by).
    let mut wholes = Vec::new();
    for strata in 0..3 {
        for by in 0..4 {
            let options = options(strata, by);
            let tables = tables_of(&path, &options, None);
            wholes.push((options, (sp_csv(&tables), strata_csv(&tables))));
        }
    }
    // The archive is what the strata are for: several events, tests within them.
    let event_strata = String::from_utf8(wholes[0].1 .1.clone()).unwrap();
    assert!(event_strata.starts_with("stratum_event,sp,white_wins,draws,black_wins\n"));
    assert!(event_strata.contains("\"Cup, \"\"B\"\"\",") && event_strata.contains("[truncated]"));
    let mut runner = TestRunner::new(Config::with_cases(200));
    let strategy = (
        0..wholes.len(),
        proptest::collection::vec(0.0..1.0f64, 1..=12),
        any::<u64>(),
    );
    runner
        .run(&strategy, |(which, cuts, seed)| {
            let (options, whole) = &wholes[which];
            check_case(&path, whole, options, &cuts, seed)
        })
        .unwrap();
}

#[test]
fn strata_change_the_verdicts_so_a_merge_without_them_is_a_table_of_one() {
    // Why the strata must travel: the same counts tested within events and as one table
    // give other p-values on this archive; merged without strata tables, the table is
    // that of --strata none.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.pgn");
    std::fs::write(&path, archive()).unwrap();
    let within = tables_of(&path, &options(0, 0), None);
    let flat = tables_of(&path, &options(2, 0), None);
    assert_ne!(sp_csv(&within), sp_csv(&flat));
    let len = std::fs::metadata(&path).unwrap().len();
    let halves = [(0, len / 2), (len / 2, len)];
    let tables: Vec<Vec<u8>> = halves
        .iter()
        .map(|&h| sp_csv(&tables_of(&path, &options(0, 0), Some(h))))
        .collect();
    let named = tables.iter().map(|t| ("half".to_string(), t.as_slice()));
    let merged = merge_csv(named, &[]).unwrap();
    assert!(!merged.strata);
    assert_eq!(sp_csv(&merged.tables), sp_csv(&flat));
}

#[test]
fn strata_that_do_not_add_up_to_the_tables_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mixed.pgn");
    std::fs::write(&path, archive()).unwrap();
    let len = std::fs::metadata(&path).unwrap().len();
    let options = options(0, 1);
    let (a, b) = (
        tables_of(&path, &options, Some((0, len / 3))),
        tables_of(&path, &options, Some((len / 3, len))),
    );
    let merge = |files: &[(&str, Vec<u8>)]| {
        merge_csv(
            files.iter().map(|(n, b)| (n.to_string(), b.as_slice())),
            &[],
        )
        .map(|m| m.tables.strata)
        .map_err(|e| e.to_string())
    };
    // One strata table missing.
    let error = merge(&[("a", sp_csv(&a)), ("b", sp_csv(&b)), ("as", strata_csv(&a))]).unwrap_err();
    assert!(error.contains("do not add up to the SP tables"), "{error}");
    assert!(error.contains("of the cell \"2024-0"), "{error}");
    // Strata alone.
    let error = merge(&[("as", strata_csv(&a))]).unwrap_err();
    assert!(error.contains("without the SP tables"), "{error}");
    // Strata of another key.
    let speeds = tables_of(
        &path,
        &StatsOptions {
            strata: Some(ByKey::TimeControl),
            ..options.clone()
        },
        Some((len / 3, len)),
    );
    let files = [
        ("a", sp_csv(&a)),
        ("as", strata_csv(&a)),
        ("b", sp_csv(&b)),
        ("bs", strata_csv(&speeds)),
    ];
    let error = merge(&files).unwrap_err();
    assert!(
        error.starts_with("bs: a strata table by time_control, not event"),
        "{error}"
    );
    // Other --by keys.
    let plain = tables_of(&path, &self::options(0, 0), Some((0, len)));
    let error = merge(&[("a", sp_csv(&a)), ("p", strata_csv(&plain))]).unwrap_err();
    assert!(error.contains("same keys"), "{error}");
    // A row twice, an SP out of range, a bad count: each named by its line.
    let text = String::from_utf8(strata_csv(&a)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let twice = format!("{}\n{}\n{}\n", lines[0], lines[1], lines[1]);
    let error = merge(&[("a", sp_csv(&a)), ("t", twice.into_bytes())]).unwrap_err();
    assert!(error.contains("t: line 3: the row of SP"), "{error}");
    let fields: Vec<&str> = lines[1].split(',').collect();
    for (column, value, why) in [(2, "960", "SP 960 is out of range"), (3, "x", "white_wins")] {
        let mut bad: Vec<&str> = fields.clone();
        bad[column] = value;
        let table = format!("{}\n{}\n", lines[0], bad.join(","));
        let error = merge(&[("a", sp_csv(&a)), ("x", table.into_bytes())]).unwrap_err();
        assert!(
            error.contains("x: line 2: ") && error.contains(why),
            "{error}"
        );
    }
    // The two parts with their strata: the whole.
    let whole = tables_of(&path, &options, None);
    let files = [
        ("bs", strata_csv(&b)),
        ("a", sp_csv(&a)),
        ("b", sp_csv(&b)),
        ("as", strata_csv(&a)),
    ];
    let merged = merge_csv(
        files.iter().map(|(n, b)| (n.to_string(), b.as_slice())),
        &[],
    );
    let merged = merged.unwrap();
    assert_eq!(sp_csv(&merged.tables), sp_csv(&whole));
    assert_eq!(strata_csv(&merged.tables), strata_csv(&whole));
}

#[test]
fn partitions_of_the_real_files_merge_to_the_whole_within_events() {
    let Some(dir) = test_support::shared_data(
        "stats_merge::partitions_of_the_real_files_merge_to_the_whole_within_events",
        "pgn",
    ) else {
        return;
    };
    let paths: Vec<PathBuf> = vec![dir];
    let options = StatsOptions {
        threads: 2,
        ..StatsOptions::default()
    };
    let whole = compute(&paths, &options).unwrap().tables;
    let events = whole.by_stratum.values().map(|s| s.len()).sum::<usize>();
    assert!(events > 5, "{events} events");
    let parts = pgn960::range::partitions(&paths, 60_000).unwrap();
    assert!(parts.len() > 10);
    let mut files = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let options = StatsOptions {
            range: Some(ByteRange::from(part)),
            ..options.clone()
        };
        let tables = compute(std::slice::from_ref(&part.path), &options)
            .unwrap()
            .tables;
        files.push((format!("part {i}"), sp_csv(&tables)));
        files.push((format!("strata {i}"), strata_csv(&tables)));
    }
    let files = shuffled(files, 27);
    let merged = merge_csv(files.iter().map(|(n, b)| (n.clone(), b.as_slice())), &[]).unwrap();
    assert_eq!(sp_csv(&merged.tables), sp_csv(&whole));
    assert_eq!(strata_csv(&merged.tables), strata_csv(&whole));
}
