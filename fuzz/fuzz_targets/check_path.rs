//! The whole check/clean path on arbitrary bytes: read, validate (replay, X-FEN) and write
//! every game; the counts add up, and checking while reading (`check`) gives the same
//! counts as checking read games (`clean`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960_cli::archive::chunk::process_chunk_counts;
use pgn960_cli::archive::ArchiveOptions;

fuzz_target!(|data: &[u8]| {
    let opts = ArchiveOptions {
        write: true,
        drop_bad_variations: data.first().is_some_and(|b| b & 1 == 1),
        ..ArchiveOptions::default()
    };
    let (games, kept, unsupported, rejected) = process_chunk_counts(data, &opts);
    assert_eq!(games, kept + unsupported + rejected);
    let checked = process_chunk_counts(
        data,
        &ArchiveOptions {
            write: false,
            ..opts
        },
    );
    assert_eq!(checked, (games, kept, unsupported, rejected));
});
