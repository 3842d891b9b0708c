//! Arbitrary bytes as a Parquet table of games, through the library's input (`Archive`,
//! recognised by the `PAR1` magic): no panic; opening either fails with an error or gives
//! records, each a game or an error, and reading them ends.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960::Archive;

fuzz_target!(|data: &[u8]| {
    let mut bytes = b"PAR1".to_vec();
    bytes.extend_from_slice(data.strip_prefix(b"PAR1").unwrap_or(data));
    let Ok(archive) = Archive::from_reader("fuzz.parquet", std::io::Cursor::new(bytes)) else {
        return;
    };
    for record in archive.with_moves().records() {
        if record.is_err() {
            break;
        }
    }
});
