//! UCI reading on arbitrary bytes from a few positions: no panic; a UCI move that is read
//! writes back to itself, a move that is found is legal, and its UCI in both castling
//! notations reads back to the same move.
#![no_main]

use chess960_core::{CastlingNotation, Position, UciMove};
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 6] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // Chess960 castling: king next to its rook, king that does not move, inner rooks.
    "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
    "4k3/8/8/8/8/8/8/6KR w K - 0 1",
    "1r2k2r/8/8/8/8/8/8/1R3K1R w KQkq - 0 1",
    // Promotions and en passant.
    "4k3/1P6/8/3pP3/8/8/8/4K3 w - d6 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, text)) = data.split_first() else { return };
    let Ok(pos) = Position::from_fen(FENS[which as usize % FENS.len()]) else { return };
    if let Ok(uci) = UciMove::from_ascii(text) {
        assert_eq!(uci.to_string().parse::<UciMove>(), Ok(uci));
    }
    if let Ok(m) = pos.parse_uci(text) {
        assert!(pos.is_legal(m));
        for notation in [CastlingNotation::KingTakesRook, CastlingNotation::KingTwoSquares] {
            let written = m.to_uci(notation).to_string();
            assert_eq!(pos.parse_uci(&written), Ok(m), "{written} ({notation:?})");
        }
    }
});
