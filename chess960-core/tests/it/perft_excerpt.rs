//! The Chess960 perft excerpt committed under `fixtures/perft/` (106 positions from shakmaty's
//! `chess960.perft` and `tricky.perft` and Stockfish's perft script; the file's header says
//! which): checked in every run, with or without `../shared/data`.

use chess960_core::perft::{parse_suite, perft};
use chess960_core::{CastlingStyle, Move, Position};

const EXCERPT: &str = include_str!("../../../fixtures/perft/chess960-excerpt.perft");

#[test]
fn chess960_perft_excerpt() {
    let suite = parse_suite(EXCERPT).unwrap_or_else(|e| panic!("chess960-excerpt.perft: {e}"));
    assert_eq!(suite.len(), 106, "entries");
    let (mut counts, mut castling_positions) = (0, 0);
    let mut failures = Vec::new();
    for entry in &suite {
        let pos = Position::from_fen(&entry.fen)
            .unwrap_or_else(|e| panic!("{} {}: {e}", entry.id, entry.fen));
        // Both castling spellings read back to the same position.
        for style in CastlingStyle::ALL {
            let again = Position::from_fen(pos.fen(style).to_string());
            assert_eq!(again.as_ref(), Ok(&pos), "{} in {style}", entry.id);
        }
        let legal = pos.legal_moves();
        castling_positions += usize::from(legal.iter().any(|m| matches!(m, Move::Castle { .. })));
        for &(depth, nodes) in &entry.counts {
            counts += 1;
            let got = perft(&pos, depth);
            if got != nodes {
                failures.push(format!(
                    "{} {} depth {depth}: expected {nodes}, got {got}",
                    entry.id, entry.fen
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(counts >= 400, "only {counts} counts checked");
    // Castling must be reachable at the root of a good share of the positions.
    assert!(
        castling_positions >= 20,
        "{castling_positions} positions can castle"
    );
}
