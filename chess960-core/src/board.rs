//! Piece placement: which piece stands on which square.
//!
//! ```
//! use chess960_core::{Board, Color, Square};
//!
//! let board = Board::parse_placement("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR").unwrap();
//! assert_eq!(board.king_of(Color::White), Some(Square::E1));
//! assert_eq!(board.occupied().count(), 32);
//! ```

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use std::fmt;

/// The pieces on the board, as one bitboard per role and per colour.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Board {
    by_role: [Bitboard; 6],
    by_color: [Bitboard; 2],
    occupied: Bitboard,
}

/// Why a FEN piece-placement field cannot be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PlacementError {
    /// Not exactly 8 ranks separated by `/`.
    #[error("expected 8 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank describes more or fewer than 8 squares.
    #[error("rank {rank} describes {squares} squares, expected 8")]
    RankLength {
        /// The rank, 1 to 8.
        rank: u8,
        /// How many squares it describes.
        squares: u32,
    },
    /// A character that is neither a piece letter nor a digit 1-8.
    #[error("unexpected character {found:?} in piece placement at column {column}")]
    UnexpectedChar {
        /// The character.
        found: char,
        /// Its 1-based column in the placement field.
        column: usize,
    },
}

impl Board {
    /// An empty board.
    pub const fn empty() -> Board {
        Board {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
        }
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    /// The squares of pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// The squares of pieces of `role`, both colours.
    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// The squares of `piece`.
    #[inline]
    pub fn by_piece(&self, piece: Piece) -> Bitboard {
        self.by_role(piece.role) & self.by_color(piece.color)
    }

    /// Rooks and queens of both colours.
    #[inline]
    pub fn rooks_and_queens(&self) -> Bitboard {
        self.by_role(Role::Rook) | self.by_role(Role::Queen)
    }

    /// Bishops and queens of both colours.
    #[inline]
    pub fn bishops_and_queens(&self) -> Bitboard {
        self.by_role(Role::Bishop) | self.by_role(Role::Queen)
    }

    /// The king of `color` (the lowest one if there are several).
    #[inline]
    pub fn king_of(&self, color: Color) -> Option<Square> {
        (self.by_role(Role::King) & self.by_color(color)).first()
    }

    /// The colour of the piece on `sq`, if any.
    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The role of the piece on `sq`, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|role| self.by_role[role.index()].contains(sq))
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece {
            color: self.color_at(sq)?,
            role: self.role_at(sq)?,
        })
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].add(sq);
        self.by_color[piece.color.index()].add(sq);
        self.occupied.add(sq);
    }

    /// Removes `piece` from `sq` (which must hold it).
    #[inline]
    pub fn take(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()].discard(sq);
        self.by_color[piece.color.index()].discard(sq);
        self.occupied.discard(sq);
    }

    /// Removes whatever stands on `sq` and returns it.
    pub fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.take(sq, piece);
        Some(piece)
    }

    /// Pieces of `attacker` that attack `sq`, as if `occupied` were the occupied squares.
    #[inline(always)]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        ((attacks::rook_attacks(sq, occupied) & self.rooks_and_queens())
            | (attacks::bishop_attacks(sq, occupied) & self.bishops_and_queens())
            | (attacks::knight_attacks(sq) & self.by_role(Role::Knight))
            | (attacks::king_attacks(sq) & self.by_role(Role::King))
            | (attacks::pawn_attacks(attacker.other(), sq) & self.by_role(Role::Pawn)))
            & self.by_color(attacker)
    }

    /// Whether any piece of `attacker` attacks `sq`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color, occupied: Bitboard) -> bool {
        self.attackers_to(sq, attacker, occupied).any()
    }

    /// Reads the piece-placement field of a FEN (`rnbqkbnr/pppppppp/8/...`).
    pub fn parse_placement(text: &str) -> Result<Board, PlacementError> {
        let mut board = Board::empty();
        let ranks = text.split('/').count();
        if ranks != 8 {
            return Err(PlacementError::RankCount(ranks));
        }
        let mut column = 0;
        for (i, rank_text) in text.split('/').enumerate() {
            let rank = Rank::ALL[7 - i];
            let mut file = 0u32;
            for c in rank_text.chars() {
                column += 1;
                if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                    file += d;
                } else if let Some(piece) = Piece::from_char(c) {
                    if let Some(f) = File::new(file as u8) {
                        board.put(Square::from_coords(f, rank), piece);
                    }
                    file += 1;
                } else {
                    return Err(PlacementError::UnexpectedChar { found: c, column });
                }
                if file > 8 {
                    break;
                }
            }
            if file != 8 {
                return Err(PlacementError::RankLength {
                    rank: rank.index() + 1,
                    squares: file,
                });
            }
            column += 1;
        }
        Ok(board)
    }

    /// Writes the piece-placement field of a FEN.
    pub fn write_placement(&self, out: &mut String) {
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0u8;
            for file in File::ALL {
                match self.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push((b'0' + empty) as char);
            }
            if *rank != Rank::First {
                out.push('/');
            }
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_placement(&mut s);
        f.write_str(&s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_round_trip_and_errors() {
        let text = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R";
        let board = Board::parse_placement(text).unwrap();
        let mut out = String::new();
        board.write_placement(&mut out);
        assert_eq!(out, text);
        assert_eq!(
            Board::parse_placement("8/8/8/8/8/8/8"),
            Err(PlacementError::RankCount(7))
        );
        assert_eq!(
            Board::parse_placement("9/8/8/8/8/8/8/8"),
            Err(PlacementError::UnexpectedChar {
                found: '9',
                column: 1
            })
        );
        assert_eq!(
            Board::parse_placement("7/8/8/8/8/8/8/8"),
            Err(PlacementError::RankLength {
                rank: 8,
                squares: 7
            })
        );
        assert_eq!(
            Board::parse_placement("8/8/8/8/8/8/8/ppppppppp"),
            Err(PlacementError::RankLength {
                rank: 1,
                squares: 9
            })
        );
    }
}
