//! Zobrist hashing keys: pieces on squares, castling rights by rook square, en-passant file,
//! side to move. Keys are fixed (computed at compile time from a constant seed), so hashes
//! are stable across runs and machines.
//!
//! ```
//! use chess960_core::Position;
//!
//! // The same position reached by two move orders has the same key.
//! let start = Position::startpos();
//! let play = |sans: &[&str]| {
//!     let mut pos = start.clone();
//!     for san in sans {
//!         let m = pos.parse_san(san).unwrap();
//!         pos.play_unchecked(m);
//!     }
//!     pos.zobrist()
//! };
//! assert_eq!(play(&["Nf3", "Nf6", "Nc3"]), play(&["Nc3", "Nf6", "Nf3"]));
//! assert_ne!(play(&["Nf3"]), start.zobrist());
//! ```

use crate::types::{Color, Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (state, z ^ (z >> 31))
}

const KEY_COUNT: usize = 12 * 64 + 64 + 8 + 1;

const KEYS: [u64; KEY_COUNT] = {
    let mut keys = [0u64; KEY_COUNT];
    let mut state = 0x5eed_0960_0000_0518u64;
    let mut i = 0;
    while i < KEY_COUNT {
        let (next, key) = splitmix(state);
        state = next;
        keys[i] = key;
        i += 1;
    }
    keys
};

/// Key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece_key(piece: Piece, sq: Square) -> u64 {
    // A square's index is below 64: the mask says so to the compiler, and the index then
    // needs no bounds check.
    KEYS[(piece.color.index() * 6 + piece.role.index()) * 64 + (sq.index() & 63)]
}

/// Key of a castling right whose rook stands on `rook`.
#[inline]
pub fn castling_key(rook: Square) -> u64 {
    KEYS[12 * 64 + rook.index()]
}

/// Key of an en-passant capture being possible on the file of `sq`.
#[inline]
pub fn en_passant_key(sq: Square) -> u64 {
    KEYS[13 * 64 + sq.file().index() as usize]
}

/// Key XOR-ed in when black is to move.
#[inline]
pub fn turn_key(turn: Color) -> u64 {
    match turn {
        Color::White => 0,
        Color::Black => KEYS[13 * 64 + 8],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut keys = KEYS.to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), KEY_COUNT);
    }
}
