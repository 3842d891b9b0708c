//! The FEN parser on arbitrary text: no panic; a position that is read writes X-FEN and
//! Shredder-FEN that read back to the same position, and its moves can be generated.
#![no_main]

use chess960_core::{CastlingStyle, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(pos) = Position::from_fen(text) {
        let shredder = pos.fen(CastlingStyle::Shredder).to_string();
        for fen in [pos.to_string(), shredder.clone()] {
            let again = Position::from_fen(&fen).expect("written FEN reads back");
            assert_eq!(again.fen(CastlingStyle::Shredder).to_string(), shredder);
        }
        let _ = pos.legal_moves();
        let _ = pos.termination();
    }
});
