//! Arbitrary bytes as a Parquet table of games, through the library's input (`Archive`,
//! recognised by the `PAR1` magic): no panic; opening either fails with an error or gives
//! records, each a game or an error, and reading them ends. The parquet/arrow crates panic
//! on some malformed pages; the library turns such a panic while decoding a row group into
//! an error, so here a panic raised inside those crates unwinds to it, and any panic that
//! reaches this target (ours, or theirs outside a row group's decoding) is a crash.
#![no_main]

use libfuzzer_sys::fuzz_target;
use pgn960::Archive;
use std::panic::PanicHookInfo;
use std::sync::Once;

/// Whether a panic was raised in the parquet or arrow crates' own sources.
fn raised_upstream(info: &PanicHookInfo) -> bool {
    info.location()
        .is_some_and(|at| at.file().contains("/parquet-") || at.file().contains("/arrow-"))
}

/// Keeps libFuzzer's hook (print, then abort) for every panic but those raised upstream,
/// which unwind silently to the library's guard.
fn let_upstream_panics_unwind() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let fuzzer_hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !raised_upstream(info) {
                fuzzer_hook(info);
            }
        }));
    });
}

fuzz_target!(|data: &[u8]| {
    let_upstream_panics_unwind();
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
