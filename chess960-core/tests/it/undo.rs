//! Taking a move back ([`Position::unplay`] with the [`Position::undo_record`] taken before
//! it) gives the position before the move again, key included: every legal move of every
//! position of random Chess960 playouts and of positions with en passant, promotions,
//! Chess960 castling (king or rook already on its target square) and checks.

use crate::Rng;
use chess960_core::Position;

/// Every legal move of `pos`, played and taken back, keyed and plain.
fn every_move_taken_back(pos: &Position, context: &str) -> usize {
    let moves = pos.legal_moves();
    for &m in moves.iter() {
        for start in [pos.clone(), pos.clone().without_key()] {
            let mut played = start.clone();
            let undo = played.undo_record();
            played.play_unchecked(m);
            played.unplay(m, undo);
            assert_eq!(played, start, "{m:?} in {context}");
            assert_eq!(played.zobrist(), start.zobrist(), "key, {m:?} in {context}");
            assert_eq!(played.keeps_key(), start.keeps_key(), "{context}");
            assert_eq!(played.legal_moves(), moves, "{m:?} in {context}");
        }
    }
    moves.len()
}

#[test]
fn every_move_of_random_playouts_is_taken_back_exactly() {
    let mut rng = Rng(0x0960_bac4_5eed_0001);
    let mut taken_back = 0;
    for game in 0..150 {
        let sp = rng.below(960) as u16;
        let mut pos = Position::from_sp(sp).unwrap();
        for ply in 0..(20 + rng.below(200)) {
            let context = format!("game {game} (SP {sp}) ply {ply}: {pos:?}");
            taken_back += every_move_taken_back(&pos, &context);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    assert!(taken_back > 100_000, "{taken_back} moves");
}

#[test]
fn en_passant_promotions_and_chess960_castling_are_taken_back() {
    for fen in [
        "r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1",
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
        "4k3/8/8/8/8/8/8/RK6 w A - 0 1",
        "1r4k1/8/8/8/8/8/8/1KR5 w Cb - 0 1",
        "nrk2rnb/pppppppp/8/8/8/8/PPPPPPPP/NRK2RNB w FBfb - 0 1",
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
        "7k/P5pp/8/8/8/8/6PP/6K1 w - - 0 1",
        "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
        "4k3/8/8/8/1b6/8/3N1N2/4K3 w - - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        assert!(every_move_taken_back(&pos, fen) > 0, "{fen}");
    }
}
