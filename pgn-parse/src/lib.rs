//! A zero-copy, streaming PGN reader and writer that survives real archives.
//!
//! Tags and movetext tokens are byte slices of the input (memory-mapped files are the main
//! case); the reader allocates nothing per token. Damaged games are reported with their
//! exact byte range, game index, line and column, and reading goes on with the next game; a
//! `{` comment or a `(` variation that runs into the next game's tags ends there (see
//! [`boundary`]), so one broken game never swallows the next. The crate knows nothing about
//! chess rules: SAN tokens are text, which a [`Visitor`] may ask to have decoded (syntax
//! only, [`DecodedSan`]) in the pass that finds each word's end.
//!
//! # Entry points
//!
//! - [`read_games`]: an iterator of [`Game`]s (tags and movetext tokens) over a byte slice;
//!   [`Game::main_line`] walks its main line, variations skipped.
//! - [`for_each_game`]: every game of any [`std::io::Read`] (stdin, a decompressor) in one
//!   call, with memory bounded by the block size ([`StreamReader`] for more control: block
//!   size, a [`Visitor`], blocks of whole games or lines to hand to worker threads).
//! - [`Reader`] with a [`Visitor`]: zero-allocation streaming, with the movetext or single
//!   variations skipped on request.
//! - [`split_at_game_boundaries`] cuts an input for parallel reading; [`PgnWriter`] writes
//!   export format.
//!
//! ```
//! use pgn_parse::read_games;
//!
//! let pgn = b"[Event \"Casual\"]\n[Variant \"Chess960\"]\n\n1. e4 {best} (1. d4) e5 2. Nf3 $1 1-0\n";
//! for game in read_games(pgn) {
//!     let game = game.expect("not damaged");
//!     assert_eq!(game.tag(b"Variant").unwrap().value_str(), "Chess960");
//!     let sans: Vec<&[u8]> = game.main_line().filter_map(|m| m.san).collect();
//!     assert_eq!(sans, [&b"e4"[..], b"e5", b"Nf3"]);
//!     let first = game.main_line().next().unwrap();
//!     assert_eq!(first.comments().collect::<Vec<_>>(), [b"best"]);
//! }
//! ```
//!
//! Reading standard input, a file or a decompressor (here a `Cursor` stands in for them):
//!
//! ```
//! let input = std::io::Cursor::new(b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 {never closed\n".to_vec());
//! let (mut good, mut damaged) = (0, 0);
//! pgn_parse::for_each_game(input, |game| match game {
//!     Ok(_) => good += 1,
//!     Err(bad) => {
//!         assert_eq!((bad.line, bad.error.line), (5, 7)); // the game's line, the `{`'s line
//!         damaged += 1;
//!     }
//! })
//! .unwrap();
//! assert_eq!((good, damaged), (1, 1));
//! ```
//!
//! # Bytes and text
//!
//! Everything the reader hands out borrows the input as bytes (`&[u8]`): tag names, raw tag
//! values, SAN, comments. Where text is wanted, one rule decodes it, [`decode_text`]:
//! UTF-8 when the bytes are valid UTF-8, else Latin-1 (no byte is ever replaced).
//! [`Tag::value`] gives a tag value's bytes with escapes removed, [`Tag::value_str`] the same
//! value decoded by that rule.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod boundary;
mod error;
mod games;
mod lines;
mod reader;
mod split;
mod stream;
#[cfg(test)]
mod test_rng;
mod types;
mod visitor;
mod writer;

pub use error::{ErrorKind, ParseError};
pub use games::{read_games, read_games_at, BadGame, Games};
pub use lines::{count_line_breaks, LineIndex};
pub use reader::{lone_clock, Origin, Reader};
pub use split::{split_at_game_boundaries, Chunk};
pub use stream::{for_each_game, Block, Cut, Part, StreamReader};
pub use types::{
    decode_text, unescape, DecodedSan, Game, GameResult, MainLine, MainLineMove, MovetextEnd,
    SanAction, Suffix, Tag, Token,
};
pub use visitor::{GameEnd, Skip, Visitor};
pub use writer::{fen_move_number, PgnWriter, SEVEN_TAG_ROSTER};
