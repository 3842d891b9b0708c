//! The rules of Chess960 (Fischer random chess), classical chess being start position 518.
//!
//! Squares and bitboards, attack tables, positions with legal move generation and Chess960
//! castling, FEN / X-FEN / Shredder-FEN, start-position numbers, SAN and UCI, game outcomes,
//! Zobrist keys and perft. No I/O and no knowledge of PGN.
//!
//! ```
//! use chess960_core::Position;
//!
//! // Shredder-FEN in, X-FEN out; castle queen side with the b1 rook.
//! let mut pos = Position::from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1").unwrap();
//! let castle = pos.parse_san(b"O-O-O").unwrap();
//! pos.play(castle);
//! assert_eq!(pos.to_xfen(), "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1");
//! assert_eq!(pos.to_shredder_fen(), "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b gb - 1 1");
//! ```

#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod board;
pub mod castling;
pub mod fen;
pub mod moves;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod san;
pub mod sp;
pub mod types;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::CastlingRights;
pub use fen::{CastlingStyle, CastlingToken, FenError, FenField, FenRepair, Setup};
pub use moves::{CastlingSide, Move, MoveList};
pub use outcome::{Outcome, Termination};
pub use position::Position;
pub use san::{San, SanError};
pub use sp::{SpError, StartKind};
pub use types::{Color, File, Piece, Rank, Role, Square};
pub use uci::{CastlingNotation, UciError};
