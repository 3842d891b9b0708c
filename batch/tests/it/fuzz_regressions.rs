//! Replays every input in `fixtures/fuzz-regressions` and `fixtures/pgn` through the whole
//! check/clean path (read, validate, write): no panic, and the counts add up.

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
