//! The whole check/clean path on arbitrary bytes: read, validate (replay, X-FEN) and write
//! every game; the counts add up, checking while reading (`check`) gives the same counts as
//! checking read games (`clean`), and validating with the moves the reader decoded gives
//! every game the same end and verdict as reading each move from its text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960::validate::{ValidateOptions, Validator};
use pgn960_cli::archive::chunk::process_chunk_counts;
use pgn960_cli::archive::ArchiveOptions;
use pgn_parse::Reader;

/// Every game's end and verdict, written out, with moves decoded by the reader or read as
/// text.
fn verdicts(data: &[u8], opts: ValidateOptions, decode: bool) -> Vec<String> {
    let mut reader = Reader::new(data);
    let validator = Validator::new(opts);
    let mut validator = if decode {
        validator
    } else {
        validator.reading_san_as_text()
    };
    std::iter::from_fn(|| reader.read_game(&mut validator))
        .map(|(end, verdict)| format!("{end:?} {verdict:?}"))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let drop_bad_variations = data.first().is_some_and(|b| b & 1 == 1);
    let opts = ArchiveOptions {
        write: true,
        drop_bad_variations,
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
    let opts = ValidateOptions {
        drop_bad_variations,
        moves: data.first().is_some_and(|b| b & 2 == 2),
        ..ValidateOptions::default()
    };
    assert_eq!(verdicts(data, opts, true), verdicts(data, opts, false));
});
