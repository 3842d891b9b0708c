//! Byte ranges (`pgn960::range`): files cut at random points read as ranges give every
//! game exactly once, in order, with the same rows as the whole file.

use pgn960::input::Input;
use pgn960::pipeline::{self, PipelineOptions};
use pgn960::table::columns::{value, Value};
use pgn960::table::{table_rows, ExportCounts, Grain, TableSpec};
use proptest::prelude::*;
use std::path::PathBuf;

/// The fixture files, each read whole and as ranges.
fn files() -> Vec<PathBuf> {
    let mut files = vec![
        test_support::fixture("sample.pgn"),
        test_support::fixture("check/reasons.pgn"),
    ];
    for name in [
        "boundaries",
        "bom",
        "crlf",
        "grammar",
        "leniency",
        "unterminated",
    ] {
        files.push(test_support::fixture(&format!("pgn/{name}.pgn")));
    }
    files
}

/// Every row of `path` (or of its range) rendered as text: offset, verdict, reason,
/// location, SP, plies, final position and moves. A range may carry the line of its
/// start (else the lines before it are counted).
fn rows(
    path: &PathBuf,
    range: Option<(u64, u64, Option<u64>)>,
    pool: &rayon::ThreadPool,
) -> Vec<String> {
    let names: Vec<String> = [
        "offset",
        "valid",
        "reason",
        "location",
        "sp",
        "plies",
        "final_xfen",
        "moves_uci",
        "Event",
    ]
    .map(String::from)
    .to_vec();
    let spec = TableSpec::new(Grain::Game, &[], false, &names, true).unwrap();
    let mut input = Input::open(path).unwrap();
    let options = PipelineOptions {
        chunk_bytes: 700,
        lines_at_cut: true,
        ..PipelineOptions::default()
    };
    let options = match range {
        Some((start, end, line)) => {
            pgn960::range::range_options(&input, start, end, line, options).unwrap()
        }
        None => options,
    };
    let mut out = Vec::new();
    pipeline::run_chunks(
        &mut input,
        pool,
        &options,
        |bytes, origin, info| {
            let mut rows = Vec::new();
            let counts = table_rows(bytes, origin, info, "f", &spec, |game, ply| {
                let row: Vec<String> = spec
                    .columns
                    .iter()
                    .map(|c| match value(&c.field, game, ply) {
                        Value::Moves(moves, which) => {
                            moves.iter().map(|m| which.text(m).to_string()).collect()
                        }
                        v => format!("{v:?}"),
                    })
                    .collect();
                rows.push(row.join("|"));
            });
            Rows(rows, counts)
        },
        |chunk: Rows, _| {
            out.extend(chunk.0);
            Ok::<(), pgn960::Error>(())
        },
    )
    .unwrap();
    out
}

struct Rows(Vec<String>, ExportCounts);

impl pipeline::ChunkOutput for Rows {
    fn games(&self) -> u64 {
        self.1.games_read
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn ranges_that_meet_read_every_game_once(
        file in 0..8usize,
        cuts in proptest::collection::vec(0.0..1.0f64, 1..=12),
    ) {
        let pool = pipeline::thread_pool(2).unwrap();
        let path = &files()[file];
        let len = std::fs::metadata(path).unwrap().len();
        let whole = rows(path, None, &pool);
        let mut points: Vec<u64> = cuts.iter().map(|c| (c * len as f64) as u64).collect();
        points.push(0);
        points.push(len);
        points.sort_unstable();
        let mut parts = Vec::new();
        for pair in points.windows(2) {
            parts.extend(rows(path, Some((pair[0], pair[1], None)), &pool));
        }
        prop_assert_eq!(parts, whole);
    }
}

#[test]
fn partitions_read_as_the_whole() {
    let pool = pipeline::thread_pool(2).unwrap();
    let files = files();
    let parts = pgn960::range::partitions(&files, 2000).unwrap();
    assert!(parts.len() > files.len());
    for path in &files {
        let mut joined = Vec::new();
        for part in parts.iter().filter(|p| &p.path == path) {
            let range = (part.start, part.end, Some(part.first_line));
            joined.extend(rows(path, Some(range), &pool));
        }
        // The rows hold each reject's location: the planner's lines are the file's.
        assert_eq!(joined, rows(path, None, &pool), "{}", path.display());
    }
}

#[test]
fn a_partition_knows_the_line_of_its_first_byte() {
    let files = files();
    let parts = pgn960::range::partitions(&files, 700).unwrap();
    for part in &parts {
        let bytes = std::fs::read(&part.path).unwrap();
        let lines = 1 + pgn_parse::count_line_breaks(&bytes[..part.start as usize]);
        assert_eq!(
            part.first_line,
            lines,
            "{} at {}",
            part.path.display(),
            part.start
        );
    }
}

#[test]
fn a_wrong_first_line_moves_the_locations_a_right_one_keeps() {
    let pool = pipeline::thread_pool(1).unwrap();
    let path = test_support::fixture("check/reasons.pgn");
    let len = std::fs::metadata(&path).unwrap().len();
    let parts = pgn960::range::partitions(std::slice::from_ref(&path), len / 3).unwrap();
    let last = parts.last().unwrap();
    assert!(last.first_line > 1);
    let counted = rows(&path, Some((last.start, last.end, None)), &pool);
    let planned = rows(
        &path,
        Some((last.start, last.end, Some(last.first_line))),
        &pool,
    );
    let wrong = rows(
        &path,
        Some((last.start, last.end, Some(last.first_line + 1))),
        &pool,
    );
    assert_eq!(planned, counted);
    assert_ne!(wrong, counted);
}

#[test]
fn a_compressed_file_is_one_partition_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.pgn.gz");
    let text = std::fs::read(test_support::fixture("sample.pgn")).unwrap();
    std::fs::write(&path, test_support::gzip(&text)).unwrap();
    let parts = pgn960::range::partitions(std::slice::from_ref(&path), 100).unwrap();
    assert_eq!(parts.len(), 1);
    let input = Input::open(&path).unwrap();
    let size = parts[0].end;
    let options = PipelineOptions::default();
    assert!(pgn960::range::range_options(&input, 0, size, Some(1), options).is_ok());
    assert!(pgn960::range::range_options(&input, 1, size, None, options).is_err());
}

/// The per-SP CSV of a stats table.
fn sp_csv(tables: &pgn960::stats::table::SpTables) -> Vec<u8> {
    use pgn960::stats::{write_table, TextFormat};
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

#[test]
fn stats_of_partitions_merged_are_the_stats_of_the_whole() {
    use pgn960::range::ByteRange;
    use pgn960::stats::{compute, merge_csv, StatsOptions};
    let path = test_support::fixture("sample.pgn");
    let paths = std::slice::from_ref(&path);
    for by in [vec![], vec![pgn960::stats::by::ByKey::Month]] {
        let options = StatsOptions {
            by: by.clone(),
            threads: 2,
            ..StatsOptions::default()
        };
        let whole = sp_csv(&compute(paths, &options).unwrap().tables);
        let parts = pgn960::range::partitions(paths, 1500).unwrap();
        assert!(parts.len() > 2);
        let pieces: Vec<Vec<u8>> = parts
            .iter()
            .map(|part| {
                let range = Some(ByteRange::from(part));
                let options = StatsOptions {
                    range,
                    ..options.clone()
                };
                sp_csv(&compute(paths, &options).unwrap().tables)
            })
            .collect();
        let named = pieces.iter().map(|p| ("part".to_string(), p.as_slice()));
        let merged = merge_csv(named, &[]).unwrap();
        assert_eq!(sp_csv(&merged.tables), whole);
    }
}

#[test]
fn a_fold_over_a_range_is_of_one_file() {
    use pgn960::range::ByteRange;
    use pgn960::stats::{compute, StatsOptions};
    let paths = files();
    let options = StatsOptions {
        range: Some(ByteRange {
            start: 0,
            end: 10,
            first_line: None,
        }),
        ..StatsOptions::default()
    };
    assert!(matches!(
        compute(&paths, &options),
        Err(pgn960::Error::Range { .. })
    ));
}
