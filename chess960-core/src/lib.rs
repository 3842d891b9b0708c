//! The rules of Chess960 (Fischer random chess), classical chess being start position 518.
//!
//! Squares and bitboards, attack tables, positions with legal move generation and Chess960
//! castling, FEN / X-FEN / Shredder-FEN, start-position numbers, SAN and UCI, game outcomes,
//! Zobrist keys and perft. No I/O and no knowledge of PGN.
//!
//! Every type is at the crate root; [`attacks`], [`perft`] and [`zobrist`] are namespaces of
//! free functions. Text goes in through `FromStr` (and `from_ascii` for bytes: [`Setup`],
//! [`San`], [`SanPlus`], [`UciMove`]) and out through `Display`, allocating nothing until a
//! `String` is asked for: [`Position::fen`] gives a [`Fen`], [`Position::san_plus`] a
//! [`SanPlus`], [`Move::to_uci`] a [`UciMove`].
//!
//! ```
//! use chess960_core::{CastlingNotation, CastlingStyle, Position};
//!
//! // Read Shredder-FEN (or X-FEN, or classical FEN); castle queen side with the b1 rook.
//! let mut pos: Position = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1".parse().unwrap();
//! let castle = pos.parse_san("O-O-O").unwrap();
//! assert_eq!(castle.to_string(), "e1b1"); // UCI, king onto rook
//! assert_eq!(castle.to_uci(CastlingNotation::KingTwoSquares).to_string(), "e1c1");
//! assert_eq!(pos.san_plus(castle).to_string(), "O-O-O");
//! pos.play(castle).unwrap(); // checked; `play_unchecked` for moves known to be legal
//!
//! // Display is X-FEN; `fen` writes either style, without allocating if asked.
//! assert_eq!(pos.to_string(), "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1");
//! let shredder = pos.fen(CastlingStyle::Shredder);
//! assert_eq!(shredder.to_string(), "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b gb - 1 1");
//! let mut out = String::new();
//! shredder.append_to(&mut out);
//! assert_eq!(out, shredder.to_string());
//! assert_eq!(shredder.castling().as_str(), "gb");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
mod fen;
mod moves;
mod outcome;
pub mod perft;
mod position;
mod recover;
mod san;
mod sp;
mod types;
mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, PlacementError};
pub use castling::CastlingRights;
pub use fen::{
    CastlingField, CastlingStyle, CastlingToken, CastlingTokens, Fen, FenError, FenField,
    FenFieldSpans, FenRepair, Setup,
};
pub use moves::{CastlingSide, Move, MoveList};
pub use outcome::{GameHistory, Outcome, Termination};
pub use position::{IllegalMoveError, Position, Undo};
pub use recover::{blind_to_other_rank, pairs_fitting, starts_fitting, SpPair};
pub use san::{San, SanError, SanPlus, SanSuffix, SanText};
pub use sp::{BackRank, SpError, StartClassification, StartKind, SP_COUNT};
pub use types::{Color, File, NotationError, Piece, Rank, Role, Square};
pub use uci::{CastlingNotation, UciError, UciMove};
