//! Moves and move lists.
//!
//! Castling is a king move onto its own rook: `Move::Castle { king: f1, rook: g1 }` can never
//! be confused with the king stepping to g1.
//!
//! ```
//! use chess960_core::{CastlingSide, Move, Square};
//!
//! let castle = Move::Castle { king: Square::E1, rook: Square::H1 };
//! assert_eq!(castle.castling_side(), Some(CastlingSide::KingSide));
//! assert_eq!(castle.to(), Square::H1);
//! assert_eq!(castle.to_string(), "e1h1");
//! ```

use crate::types::{File, Rank, Role, Square};
use crate::uci::CastlingNotation;
use arrayvec::ArrayVec;
use std::fmt;

/// The side of the king a castling rook stands on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// The h-side (`O-O`): king ends on g, rook on f.
    KingSide = 0,
    /// The a-side (`O-O-O`): king ends on c, rook on d.
    QueenSide = 1,
}

impl CastlingSide {
    /// Both sides, king side first.
    pub const ALL: [CastlingSide; 2] = [CastlingSide::KingSide, CastlingSide::QueenSide];

    /// Index 0 (king side) or 1 (queen side).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The side a rook on `rook_file` castles on, given the king's file.
    #[inline]
    pub fn of_rook(king_file: File, rook_file: File) -> CastlingSide {
        if rook_file > king_file {
            CastlingSide::KingSide
        } else {
            CastlingSide::QueenSide
        }
    }

    /// The file the king ends on (g or c).
    #[inline]
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::G,
            CastlingSide::QueenSide => File::C,
        }
    }

    /// The file the rook ends on (f or d).
    #[inline]
    pub const fn rook_to_file(self) -> File {
        match self {
            CastlingSide::KingSide => File::F,
            CastlingSide::QueenSide => File::D,
        }
    }

    /// The square the king ends on, on `rank`.
    #[inline]
    pub const fn king_to(self, rank: Rank) -> Square {
        Square::from_coords(self.king_to_file(), rank)
    }

    /// The square the rook ends on, on `rank`.
    #[inline]
    pub const fn rook_to(self, rank: Rank) -> Square {
        Square::from_coords(self.rook_to_file(), rank)
    }

    /// `"O-O"` or `"O-O-O"`.
    pub const fn san(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

impl fmt::Display for CastlingSide {
    /// `king side` or `queen side` (see [`CastlingSide::san`] for `O-O`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CastlingSide::KingSide => "king side",
            CastlingSide::QueenSide => "queen side",
        })
    }
}

/// A move of the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// Any move but en passant and castling, promotions included.
    Normal {
        /// The moving piece.
        role: Role,
        /// Where it comes from.
        from: Square,
        /// The captured piece, if any.
        capture: Option<Role>,
        /// Where it goes.
        to: Square,
        /// The promotion piece, for a pawn reaching the last rank.
        promotion: Option<Role>,
    },
    /// A pawn capturing en passant.
    EnPassant {
        /// Where the capturing pawn comes from.
        from: Square,
        /// The en-passant square it moves to.
        to: Square,
    },
    /// Castling, written as the king moving onto its own rook.
    Castle {
        /// The king's square.
        king: Square,
        /// The castling rook's square.
        rook: Square,
    },
}

impl Move {
    /// The origin square (the king's square for castling).
    #[inline]
    pub const fn from(self) -> Square {
        match self {
            Move::Normal { from, .. } | Move::EnPassant { from, .. } => from,
            Move::Castle { king, .. } => king,
        }
    }

    /// The target square (the rook's square for castling).
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::EnPassant { to, .. } => to,
            Move::Castle { rook, .. } => rook,
        }
    }

    /// The moving piece's role.
    #[inline]
    pub const fn role(self) -> Role {
        match self {
            Move::Normal { role, .. } => role,
            Move::EnPassant { .. } => Role::Pawn,
            Move::Castle { .. } => Role::King,
        }
    }

    /// The captured role, if the move captures.
    #[inline]
    pub const fn capture(self) -> Option<Role> {
        match self {
            Move::Normal { capture, .. } => capture,
            Move::EnPassant { .. } => Some(Role::Pawn),
            Move::Castle { .. } => None,
        }
    }

    /// Whether the move captures.
    #[inline]
    pub const fn is_capture(self) -> bool {
        self.capture().is_some()
    }

    /// The promotion role, if any.
    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self {
            Move::Normal { promotion, .. } => promotion,
            _ => None,
        }
    }

    /// Whether the move resets the fifty-move counter (pawn move or capture).
    #[inline]
    pub const fn is_zeroing(self) -> bool {
        matches!(self.role(), Role::Pawn) || self.is_capture()
    }

    /// For castling, the side; otherwise `None`.
    #[inline]
    pub fn castling_side(self) -> Option<CastlingSide> {
        match self {
            Move::Castle { king, rook } => Some(CastlingSide::of_rook(king.file(), rook.file())),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    /// UCI as Chess960 engines write it (`UCI_Chess960`): castling as the king onto its rook.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_uci(CastlingNotation::KingTakesRook), f)
    }
}

/// A list of moves on the stack. Validation allows at most 16 pieces a side, so at most
/// 15 × 27 queen moves + 8 king moves = 413 legal moves: 512 places can never overflow.
pub type MoveList = ArrayVec<Move, 512>;
