//! Vectors from `../shared/data` written by other projects (skips when absent): the SP
//! table (960 rows), scalachess's legal-move lists (960 positions) and the FEN/SP vectors
//! lifted from python-chess, shakmaty, scalachess and others.

use chess960_core::{BackRank, CastlingNotation, CastlingStyle, Position, Setup, StartKind};
use std::collections::BTreeSet;

#[test]
fn sp_table_all_960() {
    let Some(text) = test_support::read_shared(module_path!(), "startpos/chess960_sp_table.tsv")
    else {
        return;
    };
    let mut rows = 0;
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        let sp: u16 = cols[0].parse().unwrap();
        let pos = Position::from_sp(sp).unwrap();
        assert_eq!(BackRank::from_sp(sp).unwrap().to_string(), cols[1]);
        assert_eq!(pos.to_string(), cols[2], "SP {sp}");
        assert_eq!(
            pos.fen(CastlingStyle::Shredder).to_string(),
            cols[3],
            "SP {sp}"
        );
        for fen in [cols[2], cols[3]] {
            let c = Position::from_fen(fen).unwrap().classify_start();
            assert_eq!(c.kind, StartKind::Chess960(sp));
            assert!(c.castling_is_full);
        }
        for depth in 1..=3 {
            assert_eq!(
                pos.perft(depth).to_string(),
                cols[3 + depth as usize],
                "SP {sp} depth {depth}"
            );
        }
        rows += 1;
    }
    assert_eq!(rows, 960);
}

#[test]
fn scalachess_legal_move_lists() {
    let Some(text) =
        test_support::read_shared(module_path!(), "perft/scalachess-moveorder-chess960.txt")
    else {
        return;
    };
    let mut positions = 0;
    for block in text
        .split("\n\n")
        .filter(|b| !b.trim().is_empty() && !b.trim_start().starts_with('#'))
    {
        let mut lines = block.lines().filter(|l| !l.starts_with('#'));
        let (Some(fen), Some(moves)) = (lines.next(), lines.next()) else {
            continue;
        };
        let pos = Position::from_fen(fen).unwrap();
        let ours: BTreeSet<String> = pos
            .legal_moves()
            .iter()
            .map(|&m| m.to_uci(CastlingNotation::KingTakesRook).to_string())
            .collect();
        let theirs: BTreeSet<String> = moves.split_whitespace().map(str::to_string).collect();
        assert_eq!(ours, theirs, "{fen}");
        positions += 1;
    }
    assert_eq!(positions, 960);
}

/// Rows whose expectation is scalachess's stricter notion of an SP number; ours (like
/// python-chess) ignores clocks and reports castling separately.
fn sp_number_difference(note: &str) -> bool {
    note.contains("castling right missing")
        || note.contains("halfmove clock")
        || note.contains("Shredder castling with a right missing")
        || note.contains("wrong files")
}

#[test]
fn fen_and_sp_vectors() {
    let Some(text) =
        test_support::read_shared(module_path!(), "fen-vectors/chess960_fen_vectors.tsv")
    else {
        return;
    };
    let mut checked = 0;
    for line in text.lines().skip(1) {
        let c: Vec<&str> = line.split('\t').collect();
        let (kind, mode, input, expected, note) =
            (c[4], c[5], c[6], c[7], c.get(8).copied().unwrap_or(""));
        match kind {
            "sp_to_board_fen" => {
                let fen = Position::from_sp(input.parse().unwrap())
                    .unwrap()
                    .to_string();
                assert_eq!(fen.split(' ').next().unwrap(), expected);
            }
            "sp_to_fen" => assert_eq!(
                Position::from_sp(input.parse().unwrap())
                    .unwrap()
                    .to_string(),
                expected
            ),
            "fen_to_sp" => {
                let class = Position::from_fen(input).map(|p| p.classify_start());
                match (expected, class) {
                    ("NONE", Ok(c)) if sp_number_difference(note) => {
                        // Same arrangement, but castling or clocks differ from a fresh start.
                        assert!(!c.castling_is_full || note.contains("halfmove"), "{input}");
                    }
                    ("NONE", Ok(c)) => assert_eq!(c.kind, StartKind::NotAStart, "{input}: {note}"),
                    ("NONE", Err(_)) => {}
                    (n, Ok(c)) => {
                        assert_eq!(c.kind, StartKind::Chess960(n.parse().unwrap()), "{input}")
                    }
                    (n, Err(e)) => panic!("{input}: expected SP {n}, got {e}"),
                }
            }
            "xfen_to_shredder" => assert_eq!(
                Position::from_fen(input)
                    .unwrap()
                    .fen(CastlingStyle::Shredder)
                    .to_string(),
                expected
            ),
            "fen_roundtrip" if mode == "chess960" => {
                assert_eq!(Position::from_fen(input).unwrap().to_string(), expected)
            }
            "fen_roundtrip_opening" => {
                let pos = Position::from_fen(input).unwrap();
                let fen = pos.to_string();
                let four: Vec<&str> = fen.split(' ').take(4).collect();
                assert_eq!(four.join(" "), expected);
            }
            "fen_normalize" if mode == "chess960" => {
                let (pos, repairs) =
                    Position::from_setup_lenient(&input.parse::<Setup>().unwrap()).unwrap();
                assert!(!repairs.is_empty());
                assert_eq!(pos.to_string(), expected, "{input}");
            }
            "castle_san" => {
                let (fen, san) = input.split_once(" | ").unwrap();
                let pos = Position::from_fen(fen).unwrap();
                let m = pos.parse_san(san.as_bytes()).unwrap();
                let (uci, after) = expected.split_once(" | ").unwrap();
                assert_eq!(m.to_uci(CastlingNotation::KingTakesRook).to_string(), uci);
                if after.starts_with('(') {
                    assert_eq!(pos.san_plus(m).to_string(), san);
                } else {
                    assert_eq!(
                        pos.played_unchecked(m)
                            .fen(CastlingStyle::Shredder)
                            .to_string(),
                        after
                    );
                }
            }
            "fen_invalid" => assert!(
                Position::from_fen(input).is_err() || input.contains("  "),
                "{input}"
            ),
            _ => continue,
        }
        checked += 1;
    }
    assert_eq!(checked, 44, "vectors checked");
}
