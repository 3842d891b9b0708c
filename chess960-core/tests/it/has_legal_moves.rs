//! `Position::has_legal_moves` (its quick test of an unpinned pawn push or knight move
//! first) against the legal move list, on sparse random positions (where stalemates with
//! pinned pawns and knights are common) and at every ply of random playouts.

use crate::Rng;
use chess960_core::Position;

/// A random legal position with both kings and up to `extra` other pieces, no castling.
fn sparse_position(rng: &mut Rng, extra: usize) -> Option<Position> {
    let mut board = [b'.'; 64];
    let pieces = b"PNBRQpnbrq";
    for piece in [b'K', b'k'] {
        let sq = rng.below(64);
        if board[sq] != b'.' {
            return None;
        }
        board[sq] = piece;
    }
    for _ in 0..rng.below(extra + 1) {
        let sq = rng.below(64);
        let piece = pieces[rng.below(pieces.len())];
        let back_rank = !(8..56).contains(&sq);
        if board[sq] != b'.' || (back_rank && piece.eq_ignore_ascii_case(&b'p')) {
            continue;
        }
        board[sq] = piece;
    }
    let mut fen = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match board[rank * 8 + file] {
                b'.' => empty += 1,
                piece => {
                    if empty > 0 {
                        fen.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    fen.push(char::from(piece));
                }
            }
        }
        if empty > 0 {
            fen.push(char::from(b'0' + empty));
        }
        if rank > 0 {
            fen.push('/');
        }
    }
    let turn = if rng.below(2) == 0 { "w" } else { "b" };
    Position::from_fen(format!("{fen} {turn} - - 0 1")).ok()
}

#[test]
fn has_legal_moves_agrees_with_the_move_list_on_sparse_positions() {
    let mut rng = Rng(0x0960_1e6a_1b0c_4a11);
    let (mut positions, mut none) = (0u64, 0u64);
    for _ in 0..400_000 {
        let Some(pos) = sparse_position(&mut rng, 6) else {
            continue;
        };
        let expected = !pos.legal_moves().is_empty();
        assert_eq!(pos.has_legal_moves(), expected, "{pos}");
        positions += 1;
        none += u64::from(!expected);
    }
    assert!(
        positions > 100_000 && none > 200,
        "{positions} positions, {none} without moves"
    );
}

#[test]
fn stalemates_with_boxed_pieces_have_no_moves() {
    // A rook boxed in by its king and pawn, its diagonal free; a bishop boxed in, its files
    // free; a knight pinned, a pawn pinned.
    for fen in [
        "2r4k/8/8/8/8/p7/P7/RK6 w - - 0 1",
        "2r4k/8/8/8/8/1p6/1P6/BK6 w - - 0 1",
        "k7/8/8/8/8/8/r1N1K3/8 w - - 0 1",
        "4r2k/8/8/8/8/8/4P3/3qK3 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert_eq!(
            pos.has_legal_moves(),
            !pos.legal_moves().is_empty(),
            "{fen}"
        );
    }
}

#[test]
fn has_legal_moves_agrees_with_the_move_list_in_playouts() {
    let mut rng = Rng(0x5eed_1e6a_1b0c_4a12);
    for _ in 0..300 {
        let mut pos = Position::from_sp(rng.below(960) as u16).unwrap();
        for _ in 0..300 {
            let moves = pos.legal_moves();
            assert_eq!(pos.has_legal_moves(), !moves.is_empty(), "{pos}");
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
}
