//! Castling rights, stored as the squares of the rooks that may still castle.
//!
//! ```
//! use chess960_core::{CastlingRights, CastlingSide, Color, Square};
//!
//! let mut rights = CastlingRights::NONE;
//! rights.set(Color::White, CastlingSide::KingSide, Square::H1);
//! assert_eq!(rights.rook(Color::White, CastlingSide::KingSide), Some(Square::H1));
//! assert!(rights.has_color(Color::White));
//! assert!(!rights.has_color(Color::Black));
//! ```

use crate::bitboard::Bitboard;
use crate::moves::CastlingSide;
use crate::types::{Color, Square};

/// Which rooks may still castle: at most one per side per colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights {
    rooks: [[Option<Square>; 2]; 2],
}

impl CastlingRights {
    /// No castling rights.
    pub const NONE: CastlingRights = CastlingRights {
        rooks: [[None; 2]; 2],
    };

    /// The rook of `color` that may castle on `side`.
    #[inline]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        self.rooks[color.index()][side.index()]
    }

    /// Grants `color` the right to castle on `side` with the rook on `rook`.
    #[inline]
    pub fn set(&mut self, color: Color, side: CastlingSide, rook: Square) {
        self.rooks[color.index()][side.index()] = Some(rook);
    }

    /// Removes the right of `color` on `side`.
    #[inline]
    pub fn clear(&mut self, color: Color, side: CastlingSide) {
        self.rooks[color.index()][side.index()] = None;
    }

    /// Removes both rights of `color`.
    #[inline]
    pub fn clear_color(&mut self, color: Color) {
        self.rooks[color.index()] = [None; 2];
    }

    /// Whether `color` has any right left.
    #[inline]
    pub fn has_color(&self, color: Color) -> bool {
        self.rooks[color.index()].iter().any(Option::is_some)
    }

    /// Whether no right is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        !self.has_color(Color::White) && !self.has_color(Color::Black)
    }

    /// The squares of all rooks that may castle.
    pub fn rook_squares(&self) -> Bitboard {
        self.rooks
            .iter()
            .flatten()
            .flatten()
            .copied()
            .collect::<Bitboard>()
    }

    /// Every right as `(color, side, rook square)`, white first, king side first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, CastlingSide, Square)> + '_ {
        Color::ALL.into_iter().flat_map(move |color| {
            CastlingSide::ALL
                .into_iter()
                .filter_map(move |side| self.rook(color, side).map(|sq| (color, side, sq)))
        })
    }
}
