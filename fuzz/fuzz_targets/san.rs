//! SAN reading on arbitrary bytes from a few positions: no panic; a move that is read is
//! legal and its canonical SAN reads back to the same move.
#![no_main]

use chess960_core::Position;
use libfuzzer_sys::fuzz_target;

const FENS: [&str; 3] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
];

fuzz_target!(|data: &[u8]| {
    let Some((&which, san)) = data.split_first() else { return };
    let Ok(pos) = Position::from_fen(FENS[which as usize % FENS.len()]) else { return };
    if let Ok(m) = pos.parse_san(san) {
        assert!(pos.is_legal(m));
        assert_eq!(pos.parse_san(pos.san_plus(m).to_string()), Ok(m));
    }
});
