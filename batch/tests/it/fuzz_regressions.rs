//! Replays every input in `fixtures/fuzz-regressions` and `fixtures/pgn` through the bodies
//! of the fuzz targets: the whole check/clean path (read, validate, write: no panic, the
//! counts add up, `check` and `clean` agree) and the reader (chunked, streamed and skipping
//! reads agree with a sequential read).

#[allow(unused_imports)]
use crate::util::*;

use pgn960_cli::archive::chunk::process_chunk_counts;
use pgn960_cli::archive::ArchiveOptions;
use std::path::Path;

#[test]
fn regressions_and_fixtures_never_panic_and_add_up() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = 0;
    for dir in ["fuzz-regressions", "pgn", "check"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md" || e == "py") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let opts = ArchiveOptions {
                write: true,
                ..ArchiveOptions::default()
            };
            let (games, kept, unsupported, rejected) = process_chunk_counts(&bytes, &opts);
            assert_eq!(games, kept + unsupported + rejected, "{}", path.display());
            // The check_path target: checking while reading counts what cleaning counts.
            let checked = process_chunk_counts(
                &bytes,
                &ArchiveOptions {
                    write: false,
                    ..opts
                },
            );
            assert_eq!(
                checked,
                (games, kept, unsupported, rejected),
                "{}",
                path.display()
            );
            for text in bytes.split(|&b| b == b'\n') {
                if let Ok(text) = std::str::from_utf8(text) {
                    let _ = chess960_core::Position::from_fen(text);
                }
            }
            files += 1;
        }
    }
    assert!(files >= 8, "{files} files replayed");
}

/// Every game's byte range (and whether it was damaged), read from `input` at `origin`.
fn ranges(input: &[u8], origin: pgn_parse::Origin) -> Vec<(std::ops::Range<usize>, bool)> {
    pgn_parse::read_games_at(input, origin)
        .map(|g| match g {
            Ok(g) => (g.byte_range, true),
            Err(b) => (b.byte_range, false),
        })
        .collect()
}

/// Every game's end with the movetext read or skipped.
fn game_ends(input: &[u8], skip: bool) -> Vec<pgn_parse::GameEnd> {
    struct Ends(bool);
    impl pgn_parse::Visitor<'_> for Ends {
        type Output = pgn_parse::GameEnd;
        fn end_tags(&mut self) -> pgn_parse::Skip {
            pgn_parse::Skip(self.0)
        }
        fn end_game(&mut self, end: pgn_parse::GameEnd) -> pgn_parse::GameEnd {
            end
        }
    }
    let mut reader = pgn_parse::Reader::new(input);
    std::iter::from_fn(|| reader.read_game(&mut Ends(skip))).collect()
}

#[test]
fn regressions_and_fixtures_read_alike_chunked_streamed_and_skipped() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = 0;
    for dir in ["fuzz-regressions", "pgn", "check"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "pgn") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let sequential = ranges(&bytes, pgn_parse::Origin::default());
            for target in [1, 7, 64, 300, 1000, 4096] {
                let chunked: Vec<_> = pgn_parse::split_at_game_boundaries(&bytes, target)
                    .iter()
                    .flat_map(|c| ranges(&bytes[c.range.clone()], c.origin()))
                    .collect();
                assert_eq!(
                    chunked,
                    sequential,
                    "{} in chunks of {target}",
                    path.display()
                );
                let mut stream = pgn_parse::StreamReader::with_block_size(&bytes[..], target);
                let mut streamed = Vec::new();
                while let Some(block) = stream.next_block().unwrap() {
                    streamed.extend(ranges(&block.data, block.origin()));
                }
                assert_eq!(
                    streamed,
                    sequential,
                    "{} in blocks of {target}",
                    path.display()
                );
            }
            assert_eq!(
                game_ends(&bytes, true),
                game_ends(&bytes, false),
                "{}",
                path.display()
            );
            files += 1;
        }
    }
    assert!(files >= 8, "{files} files replayed");
}

/// The `parquet_rows` and `selection` targets: every `parquet-rows-*` input opened as a
/// Parquet table of games (an error or records, no panic) and every `selection-*` input
/// given to the selection-expression parsers (no panic).
#[test]
fn parquet_and_selection_regressions_never_panic() {
    use pgn960::select::{parse_date_span, Date, Reaches, SpList, Speed, TagMatch};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fuzz-regressions");
    let (mut tables, mut texts) = (0, 0);
    for entry in std::fs::read_dir(root).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).unwrap();
        if name.starts_with("parquet-rows-") {
            if let Ok(archive) = pgn960::Archive::from_reader(&name, std::io::Cursor::new(bytes)) {
                for record in archive.with_moves().records() {
                    if record.is_err() {
                        break;
                    }
                }
            }
            tables += 1;
        } else if name.starts_with("selection-") {
            let text = String::from_utf8_lossy(&bytes);
            let _ = text.parse::<SpList>();
            let _ = text.parse::<TagMatch>();
            let _ = text.parse::<Date>();
            let _ = parse_date_span(&text);
            let _ = text.parse::<Speed>();
            let _ = text.parse::<Reaches>();
            let _ = pgn960::facts::speed_of(&text);
            texts += 1;
        }
    }
    assert!(
        tables >= 1 && texts >= 1,
        "{tables} tables, {texts} texts replayed"
    );
}
