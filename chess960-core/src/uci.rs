//! UCI move notation in both castling conventions.
//!
//! [`CastlingNotation::KingTakesRook`] writes castling as the king moving onto its rook
//! (`e1h1`, the Chess960 convention); [`CastlingNotation::KingTwoSquares`] writes the king's
//! destination (`e1g1`, the classical convention) unless that text could name another move:
//! when the king does not move, or steps one square onto an empty square (king f1, rook h1:
//! `f1g1` is also a king step), it falls back to king-takes-rook. Reading accepts both.
//!
//! ```
//! use chess960_core::{CastlingNotation, Position, UciMove};
//!
//! let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
//! let castle = pos.parse_uci("e1g1").unwrap();
//! assert_eq!(castle.to_uci(CastlingNotation::KingTakesRook).to_string(), "e1h1");
//! assert_eq!(castle.to_uci(CastlingNotation::KingTwoSquares).to_string(), "e1g1");
//! let uci: UciMove = "e1h1".parse().unwrap();
//! assert_eq!(uci.to_move(&pos), Ok(castle));
//! ```

use crate::moves::{CastlingSide, Move};
use crate::position::Position;
use crate::types::{Role, Square};
use std::fmt;
use std::str::FromStr;

/// How castling is written in UCI: the king onto its rook or two squares sideways.
///
/// Not to be confused with [`CastlingStyle`](crate::CastlingStyle), which spells castling
/// *rights* in a FEN.
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
#[non_exhaustive]
pub enum UciError {
    /// Not UCI syntax.
    #[error("not a UCI move")]
    Malformed,
    /// Not legal here.
    #[error("illegal move")]
    Illegal,
}

/// A move in UCI, not yet tied to a position: origin, target and promotion (`e7e8q`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UciMove {
    /// The origin square (the king's square for castling).
    pub from: Square,
    /// The target square (the rook's or the king's destination for castling).
    pub to: Square,
    /// The promotion role, if any.
    pub promotion: Option<Role>,
}

impl UciMove {
    /// Reads a UCI move: two squares and an optional promotion letter (either case).
    pub fn from_ascii(text: &[u8]) -> Result<UciMove, UciError> {
        let (&[f1, r1, f2, r2], promotion) = match text {
            [a, b, c, d] => (&[*a, *b, *c, *d], None),
            [a, b, c, d, p] => (&[*a, *b, *c, *d], Some(*p)),
            _ => return Err(UciError::Malformed),
        };
        let from = Square::from_pair(f1, r1).ok_or(UciError::Malformed)?;
        let to = Square::from_pair(f2, r2).ok_or(UciError::Malformed)?;
        let promotion = match promotion {
            None => None,
            Some(c) => Some(
                Role::from_char(c as char)
                    .filter(|r| !matches!(r, Role::Pawn | Role::King))
                    .ok_or(UciError::Malformed)?,
            ),
        };
        Ok(UciMove {
            from,
            to,
            promotion,
        })
    }

    /// The legal move this UCI denotes in `pos` (castling in either notation).
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let UciMove {
            from,
            to,
            promotion,
        } = *self;
        let legal = pos.legal_moves();
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

impl FromStr for UciMove {
    type Err = UciError;

    /// Reads a UCI move (as [`UciMove::from_ascii`]).
    fn from_str(text: &str) -> Result<UciMove, UciError> {
        UciMove::from_ascii(text.as_bytes())
    }
}

impl UciMove {
    /// The move's text (`e7e8q`) in a buffer on the stack, and its length (4 or 5).
    pub fn to_ascii(&self) -> ([u8; 5], usize) {
        let mut buf = [0u8; 5];
        buf[0] = self.from.file().lower_char() as u8;
        buf[1] = self.from.rank().char() as u8;
        buf[2] = self.to.file().lower_char() as u8;
        buf[3] = self.to.rank().char() as u8;
        let len = match self.promotion {
            Some(p) => {
                buf[4] = p.lower_char() as u8;
                5
            }
            None => 4,
        };
        (buf, len)
    }
}

impl fmt::Display for UciMove {
    /// The two squares and a lower-case promotion letter (`e7e8q`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (buf, len) = self.to_ascii();
        f.write_str(std::str::from_utf8(&buf[..len]).map_err(|_| fmt::Error)?)
    }
}

impl Move {
    /// The move in UCI, castling written in `notation`.
    pub fn to_uci(self, notation: CastlingNotation) -> UciMove {
        let (from, to) = match self {
            Move::Castle { king, rook } => {
                let side = CastlingSide::of_rook(king.file(), rook.file());
                let king_to = side.king_to(king.rank());
                // Where castling is legal, an empty destination next to the king is also a
                // legal king step, which the reader prefers: write the rook there.
                let steps = king.file().index().abs_diff(king_to.file().index());
                let unambiguous = steps > 1 || (steps == 1 && king_to == rook);
                match notation {
                    CastlingNotation::KingTwoSquares if unambiguous => (king, king_to),
                    _ => (king, rook),
                }
            }
            _ => (self.from(), self.to()),
        };
        UciMove {
            from,
            to,
            promotion: self.promotion(),
        }
    }
}

impl Position {
    /// Reads a UCI move (either castling convention) and finds its legal move here.
    pub fn parse_uci(&self, text: impl AsRef<[u8]>) -> Result<Move, UciError> {
        UciMove::from_ascii(text.as_ref())?.to_move(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_two_squares_never_names_a_king_step() {
        // Fuzz finding: king f1, rooks b1 and h1. O-O takes the king one square to an empty
        // g1, so `f1g1` is also the king step Kg1 (which the reader prefers): O-O is written
        // king onto rook in both notations. O-O-O moves the king three squares: `f1c1`.
        let pos = Position::from_fen("1r2k2r/8/8/8/8/8/8/1R3K1R w KQkq - 0 1").unwrap();
        let short = pos.castling_move(CastlingSide::KingSide).unwrap();
        let long = pos.castling_move(CastlingSide::QueenSide).unwrap();
        for (m, two_squares) in [(short, "f1h1"), (long, "f1c1")] {
            assert_eq!(
                m.to_uci(CastlingNotation::KingTwoSquares).to_string(),
                two_squares
            );
            for notation in [
                CastlingNotation::KingTakesRook,
                CastlingNotation::KingTwoSquares,
            ] {
                assert_eq!(pos.parse_uci(m.to_uci(notation).to_string()), Ok(m));
            }
        }
        assert!(matches!(pos.parse_uci("f1g1"), Ok(Move::Normal { .. })));
        // King next to its rook (f1, g1): `f1g1` cannot be a king step, so it stays.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/5KR1 w K - 0 1").unwrap();
        let castle = pos.castling_move(CastlingSide::KingSide).unwrap();
        assert_eq!(
            castle.to_uci(CastlingNotation::KingTwoSquares).to_string(),
            "f1g1"
        );
        // Classical castling is unchanged.
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        for (side, text) in [
            (CastlingSide::KingSide, "e1g1"),
            (CastlingSide::QueenSide, "e1c1"),
        ] {
            let m = pos.castling_move(side).unwrap();
            assert_eq!(m.to_uci(CastlingNotation::KingTwoSquares).to_string(), text);
        }
    }
}
