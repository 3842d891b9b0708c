//! Differential test against shakmaty (`CastlingMode::Chess960`): random playouts from
//! random start positions (Chess960 and Double Chess960), comparing at every ply the legal
//! move sets, SAN with check marks, check/checkmate/stalemate/insufficient-material status,
//! the X-FEN, and reading back shakmaty's SAN. `PGN960_DIFF_GAMES` sets the number
//! of games (default 2000).

use crate::Rng;
use chess960_core::{CastlingNotation, CastlingStyle, Position};
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

fn shakmaty_position(fen: &str) -> Chess {
    let fen: Fen = fen
        .parse()
        .unwrap_or_else(|e| panic!("shakmaty cannot read {fen}: {e}"));
    fen.into_position(CastlingMode::Chess960)
        .unwrap_or_else(|e| panic!("shakmaty rejects {e:?}"))
}

#[test]
fn random_playouts_agree_with_shakmaty() {
    let games: usize = std::env::var("PGN960_DIFF_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000);
    let mut rng = Rng(0x0960_0518_dead_beef);
    let (mut plies, mut castles, mut promotions, mut en_passants, mut mates) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for game in 0..games {
        let white = rng.below(960) as u16;
        let black = if game % 5 == 0 {
            rng.below(960) as u16
        } else {
            white
        };
        let mut ours = Position::from_sp_pair(white, black).unwrap();
        let mut theirs = shakmaty_position(&ours.fen(CastlingStyle::Shredder).to_string());
        for ply in 0..(40 + rng.below(200)) {
            let context = || {
                format!(
                    "game {game} (SP {white}/{black}) ply {ply}: {}",
                    ours.fen(CastlingStyle::Shredder)
                )
            };
            let mut our_moves: Vec<String> = ours
                .legal_moves()
                .iter()
                .map(|&m| m.to_uci(CastlingNotation::KingTakesRook).to_string())
                .collect();
            let their_legal = theirs.legal_moves();
            let mut their_moves: Vec<String> = their_legal
                .iter()
                .map(|m| UciMove::from_move(*m, CastlingMode::Chess960).to_string())
                .collect();
            our_moves.sort();
            their_moves.sort();
            assert_eq!(our_moves, their_moves, "{}", context());
            assert_eq!(ours.is_check(), theirs.is_check(), "{}", context());
            assert_eq!(
                ours.is_insufficient_material(),
                theirs.is_insufficient_material(),
                "{}",
                context()
            );
            let their_fen = Fen::from_position(&theirs, EnPassantMode::Legal).to_string();
            assert_eq!(ours.to_string(), their_fen, "{}", context());
            if their_legal.is_empty() {
                assert_eq!(ours.is_checkmate(), theirs.is_checkmate(), "{}", context());
                assert_eq!(ours.is_stalemate(), theirs.is_stalemate(), "{}", context());
                mates += u64::from(theirs.is_checkmate());
                break;
            }
            // Prefer castling, promotions and en passant when available, to reach them often.
            let special: Vec<usize> = (0..their_legal.len())
                .filter(|&i| {
                    let m = &their_legal[i];
                    m.is_castle() || m.is_promotion() || m.is_en_passant()
                })
                .collect();
            let pick = if !special.is_empty() && rng.below(10) < 4 {
                special[rng.below(special.len())]
            } else {
                rng.below(their_legal.len())
            };
            let m = their_legal[pick];
            castles += u64::from(m.is_castle());
            promotions += u64::from(m.is_promotion());
            en_passants += u64::from(m.is_en_passant());
            let their_san = SanPlus::from_move(theirs.clone(), m).to_string();
            let our_move = ours.parse_san(their_san.as_bytes()).unwrap_or_else(|e| {
                panic!("{}: our SAN reader rejects {their_san}: {e}", context())
            });
            assert_eq!(
                ours.san_plus(our_move).to_string(),
                their_san,
                "{}",
                context()
            );
            let uci = UciMove::from_move(m, CastlingMode::Chess960).to_string();
            assert_eq!(
                our_move.to_uci(CastlingNotation::KingTakesRook).to_string(),
                uci,
                "{}",
                context()
            );
            ours.play_unchecked(our_move);
            theirs.play_unchecked(m);
            plies += 1;
        }
    }
    eprintln!("{games} games, {plies} plies, {castles} castles, {promotions} promotions, {en_passants} en passant, {mates} mates");
    assert!(castles > games as u64 / 2, "playouts should castle often");
    assert!(promotions > 0 && en_passants > 0);
}
