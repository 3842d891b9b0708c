//! The whole check/clean path on arbitrary bytes: read, validate (replay, X-FEN) and write
//! every game; the counts add up.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960::commands::archive::{process_chunk_counts, ArchiveOptions};

fuzz_target!(|data: &[u8]| {
    let opts = ArchiveOptions {
        write: true,
        ..ArchiveOptions::default()
    };
    let (games, kept, unsupported, rejected) = process_chunk_counts(data, &opts);
    assert_eq!(games, kept + unsupported + rejected);
});
