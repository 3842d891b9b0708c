//! A zero-copy, streaming PGN reader and writer that survives real archives.
//!
//! Tags and movetext tokens are byte slices of the input (memory-mapped files are the main
//! case); the reader allocates nothing per token. Two APIs read the same way:
//! [`read_games`], an iterator of [`Game`]s, and [`Reader`] with a [`Visitor`] for
//! zero-allocation streaming. Damaged games are reported with their exact byte range,
//! game index, line and column, and reading goes on with the next game; a `{` comment or a
//! `(` variation that runs into the next game's tags ends there (see [`boundary`]), so one
//! broken game never swallows the next.
//!
//! [`split_at_game_boundaries`] cuts an input for parallel reading, [`StreamReader`] reads
//! stdin or a decompressor in blocks of whole games, and [`PgnWriter`] writes export format.
//!
//! The crate knows nothing about chess rules: SAN tokens are opaque.
//!
//! ```
//! use pgn_parse::{read_games, Token};
//!
//! let pgn = b"[Event \"Casual\"]\n[Variant \"Chess960\"]\n\n1. e4 e5 2. Nf3 $1 1-0\n";
//! for game in read_games(pgn) {
//!     let game = game.unwrap();
//!     let sans: Vec<&[u8]> = game.movetext.iter().filter_map(|t| match t {
//!         Token::San { text, .. } => Some(*text),
//!         _ => None,
//!     }).collect();
//!     assert_eq!(sans, [&b"e4"[..], b"e5", b"Nf3"]);
//! }
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod boundary;
mod error;
mod games;
mod lines;
mod reader;
mod split;
mod stream;
mod types;
mod visitor;
mod writer;

pub use error::{ErrorKind, ParseError};
pub use games::{read_games, read_games_at, BadGame, Games};
pub use lines::{count_line_breaks, LineIndex};
pub use reader::{Origin, Reader};
pub use split::{split_at_game_boundaries, Chunk};
pub use stream::{for_each_game, Block, Cut, StreamReader};
pub use types::{
    decode_text, unescape, Game, GameResult, MainLine, MainLineMove, MovetextEnd, Suffix, Tag,
    Token,
};
pub use visitor::{GameEnd, Skip, Visitor};
pub use writer::{fen_move_number, PgnWriter, SEVEN_TAG_ROSTER};
