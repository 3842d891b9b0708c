//! The legality state of a position (checkers, pinned pieces, computed where used) and its
//! optional Zobrist key, against independent computations at every ply of random playouts:
//! shakmaty's checkers, pins found by lifting each piece off shakmaty's board, and the key
//! computed from scratch. Positions with and without a kept key play the same moves and must
//! stay equal. The SAN reader's king-safety test is checked against shakmaty's legal moves.

use crate::Rng;
use chess960_core::{Bitboard, CastlingStyle, Move, Position};
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess, Position as _};

fn shakmaty_of(pos: &Position) -> Chess {
    let fen = pos.fen(CastlingStyle::Shredder).to_string();
    fen.parse::<Fen>()
        .ok()
        .and_then(|f| f.into_position(CastlingMode::Chess960).ok())
        .unwrap_or_else(|| panic!("shakmaty rejects {fen}"))
}

/// Pieces of the side to move whose removal lets a new enemy piece attack their king.
fn pinned_by_lifting(theirs: &Chess) -> u64 {
    let board = theirs.board();
    let us = theirs.turn();
    let Some(king) = board.king_of(us) else {
        return 0;
    };
    let before = board.attacks_to(king, !us, board.occupied());
    let mut pinned = 0;
    for sq in board.by_color(us) {
        if sq == king {
            continue;
        }
        let mut lifted = board.clone();
        lifted.discard_piece_at(sq);
        let after = lifted.attacks_to(king, !us, lifted.occupied());
        if (after & !before).any() {
            pinned |= 1u64 << u32::from(sq);
        }
    }
    pinned
}

#[test]
fn kept_checkers_pins_and_keys_agree_with_independent_computations() {
    let mut rng = Rng(0x5eed_0960_c4ec_4e75);
    let (mut plies, mut checks, mut pins) = (0u64, 0u64, 0u64);
    for game in 0..400 {
        let sp = rng.below(960) as u16;
        let mut keyed = Position::from_sp(sp).unwrap();
        let mut plain = keyed.clone().without_key();
        for ply in 0..(30 + rng.below(150)) {
            let theirs = shakmaty_of(&keyed);
            let context = format!("game {game} (SP {sp}) ply {ply}: {keyed:?}");
            assert_eq!(
                keyed.checkers().0,
                theirs.checkers().0,
                "checkers, {context}"
            );
            assert_eq!(
                keyed.pinned().0,
                pinned_by_lifting(&theirs),
                "pins, {context}"
            );
            assert_eq!(plain.checkers(), keyed.checkers(), "{context}");
            assert_eq!(plain.pinned(), keyed.pinned(), "{context}");
            assert_eq!(plain, keyed, "{context}");
            let fresh = Position::from_fen(keyed.fen(CastlingStyle::Shredder).to_string()).unwrap();
            assert_eq!(keyed.zobrist(), fresh.zobrist(), "key, {context}");
            assert_eq!(plain.zobrist(), fresh.zobrist(), "key, {context}");
            checks += u64::from(keyed.is_check());
            pins += u64::from(keyed.pinned() != Bitboard::EMPTY);
            let moves = keyed.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Castling, promotions and en passant when available, to reach them often.
            let special: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| {
                    !matches!(
                        m,
                        Move::Normal {
                            promotion: None,
                            ..
                        }
                    )
                })
                .collect();
            let m = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            keyed.play_unchecked(m);
            plain.play_unchecked(m);
            plies += 1;
        }
    }
    eprintln!("{plies} plies, {checks} in check, {pins} with a pin");
    assert!(
        checks > 1000 && pins > 1000,
        "playouts should reach checks and pins"
    );
}

/// Every non-king move written with its full origin square (`Nb1c3`, `Rh1xh7`) or as a pawn
/// move (`e3`, `exd6`), for the pieces of the side to move: whether the SAN reader accepts it
/// must match whether shakmaty lists it as legal. This checks the king-safety test of SAN
/// resolution (pins, checks to answer) on pseudo-legal moves that are not legal too.
#[test]
fn san_reader_accepts_exactly_the_legal_non_king_moves() {
    let mut rng = Rng(0x0960_5a17_0f1e_9a15);
    let (mut accepted, mut refused) = (0u64, 0u64);
    for game in 0..200 {
        let sp = rng.below(960) as u16;
        let mut pos = Position::from_sp(sp).unwrap();
        for ply in 0..(30 + rng.below(120)) {
            let theirs = shakmaty_of(&pos);
            let legal = theirs.legal_moves();
            let board = theirs.board();
            let us = theirs.turn();
            for from in board.by_color(us) & !board.kings() {
                let Some(role) = board.role_at(from) else {
                    continue;
                };
                for to in shakmaty::Square::ALL {
                    if board.by_color(us).contains(to) {
                        continue;
                    }
                    let capture = board.occupied().contains(to);
                    let san = if role == shakmaty::Role::Pawn {
                        let forward = if us.is_white() { 1 } else { -1 };
                        let ranks =
                            (u32::from(to.rank()) as i32 - u32::from(from.rank()) as i32) * forward;
                        let start = u32::from(from.rank()) == if us.is_white() { 1 } else { 6 };
                        let files = to.file().distance(from.file());
                        let shape = ranks == 1 && files <= 1 || ranks == 2 && files == 0 && start;
                        let last =
                            matches!(to.rank(), shakmaty::Rank::First | shakmaty::Rank::Eighth);
                        if !shape || last {
                            continue;
                        }
                        if to.file() == from.file() {
                            format!("{to}")
                        } else {
                            format!("{}x{to}", from.file().char())
                        }
                    } else {
                        let x = if capture { "x" } else { "" };
                        format!("{}{from}{x}{to}", role.upper_char())
                    };
                    // A pawn SAN names the file only: any legal pawn move from it to `to`.
                    let same_origin = |m: &shakmaty::Move| match role {
                        shakmaty::Role::Pawn => m.from().map(|f| f.file()) == Some(from.file()),
                        _ => m.from() == Some(from),
                    };
                    let is_legal = legal
                        .iter()
                        .any(|m| same_origin(m) && m.to() == to && m.role() == role);
                    let ours = pos.parse_san(&san);
                    assert_eq!(
                        ours.is_ok(),
                        is_legal,
                        "game {game} (SP {sp}) ply {ply}: {san} in {pos:?}: {ours:?}"
                    );
                    if let Ok(m) = ours {
                        let found = legal.iter().any(|t| {
                            t.from().map(u32::from) == Some(m.from().index() as u32)
                                && u32::from(t.to()) == m.to().index() as u32
                        });
                        assert!(found, "game {game} ply {ply}: {san} in {pos:?}: {m:?}");
                        accepted += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
    }
    eprintln!("{accepted} accepted, {refused} refused");
    assert!(accepted > 10_000 && refused > 10_000);
}
