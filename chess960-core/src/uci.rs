//! UCI move notation in both castling conventions.
//!
//! [`CastlingNotation::KingTakesRook`] writes castling as the king moving onto its rook
//! (`e1h1`, the Chess960 convention); [`CastlingNotation::KingTwoSquares`] writes the king's
//! destination (`e1g1`, the classical convention) unless the king does not move, when it
//! falls back to king-takes-rook. Reading accepts both in either mode.
//!
//! ```
//! use chess960_core::{CastlingNotation, Position};
//!
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
//! let castle = pos.parse_uci("e1g1").unwrap();
//! assert_eq!(pos.uci(castle, CastlingNotation::KingTakesRook), "e1h1");
//! assert_eq!(pos.uci(castle, CastlingNotation::KingTwoSquares), "e1g1");
//! ```

use crate::moves::{CastlingSide, Move};
use crate::position::Position;
use crate::types::{Role, Square};

/// How castling is written in UCI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CastlingNotation {
    /// King onto its own rook (`e1h1`), as Chess960 engines expect.
    #[default]
    KingTakesRook,
    /// King to its destination (`e1g1`), as classical engines expect.
    KingTwoSquares,
}

/// Why a UCI move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not UCI syntax.
    #[error("not a UCI move")]
    Malformed,
    /// Not legal here.
    #[error("illegal move")]
    Illegal,
}

impl Position {
    /// Writes a move in UCI.
    pub fn uci(&self, m: Move, notation: CastlingNotation) -> String {
        let (from, to) = match m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::of_rook(king.file(), rook.file());
                let king_to = side.king_to(king.rank());
                match notation {
                    CastlingNotation::KingTwoSquares if king_to != king => (king, king_to),
                    _ => (king, rook),
                }
            }
            _ => (m.from(), m.to()),
        };
        let mut out = format!("{from}{to}");
        if let Some(p) = m.promotion() {
            out.push(p.lower_char());
        }
        out
    }

    /// Reads a UCI move (either castling convention) and checks it is legal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        let bytes = text.as_bytes();
        if !(4..=5).contains(&bytes.len()) {
            return Err(UciError::Malformed);
        }
        let from = Square::parse(&bytes[0..2]).ok_or(UciError::Malformed)?;
        let to = Square::parse(&bytes[2..4]).ok_or(UciError::Malformed)?;
        let promotion = match bytes.get(4) {
            None => None,
            Some(&c) => Some(
                Role::from_char(c as char)
                    .filter(|r| !matches!(r, Role::Pawn | Role::King))
                    .ok_or(UciError::Malformed)?,
            ),
        };
        let legal = self.legal_moves();
        let found = legal.iter().copied().find(|m| match *m {
            Move::Castle { king, rook } => {
                let side = CastlingSide::of_rook(king.file(), rook.file());
                from == king && (to == rook || to == side.king_to(king.rank()))
            }
            _ => m.from() == from && m.to() == to && m.promotion() == promotion,
        });
        // A normal king step to g1/c1 takes precedence over castling when both exist.
        let normal = legal.iter().copied().find(|m| {
            !matches!(m, Move::Castle { .. })
                && m.from() == from
                && m.to() == to
                && m.promotion() == promotion
        });
        normal.or(found).ok_or(UciError::Illegal)
    }
}
