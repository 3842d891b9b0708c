//! The streaming API: a [`Visitor`] is called for every element of every game, with no
//! allocation by the reader.
//!
//! ```
//! use pgn_parse::{GameEnd, Reader, Skip, Tag, Visitor};
//!
//! /// Counts moves, and reads only the tags of games with a `Variant` tag.
//! #[derive(Default)]
//! struct MoveCounter { moves: usize, has_variant: bool }
//!
//! impl<'a> Visitor<'a> for MoveCounter {
//!     type Output = usize;
//!     fn begin_game(&mut self, _offset: usize) { self.moves = 0; self.has_variant = false; }
//!     fn tag(&mut self, tag: Tag<'a>) { self.has_variant |= tag.name == b"Variant"; }
//!     fn end_tags(&mut self) -> Skip { Skip(self.has_variant) }
//!     fn san(&mut self, _san: &'a [u8], _offset: usize) { self.moves += 1; }
//!     fn end_game(&mut self, _end: GameEnd) -> usize { self.moves }
//! }
//!
//! let pgn = b"[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n[Variant \"Chess960\"]\n\n1. g3 *\n";
//! let mut reader = Reader::new(pgn);
//! let mut counter = MoveCounter::default();
//! assert_eq!(reader.read_game(&mut counter), Some(3));
//! assert_eq!(reader.read_game(&mut counter), Some(0)); // movetext skipped
//! assert_eq!(reader.read_game(&mut counter), None);
//! ```

use crate::error::ParseError;
use crate::types::{DecodedSan, GameResult, MovetextEnd, Suffix, Tag};
use std::ops::Range;

/// Whether to skip what follows (the movetext after [`Visitor::end_tags`], a variation after
/// [`Visitor::begin_variation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Skip(pub bool);

/// How a game ended, given to [`Visitor::end_game`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The exact bytes of the game (absolute offsets).
    pub byte_range: Range<usize>,
    /// 0-based index of the game among all games read by this reader (plus its first index).
    pub index: u64,
    /// How the movetext ended.
    pub movetext_end: MovetextEnd,
    /// The parse error that damaged the game, if any.
    pub error: Option<ParseError>,
}

/// Receives the elements of each game in order. Every method but `end_game` has a no-op
/// default. Offsets are absolute byte offsets.
pub trait Visitor<'a> {
    /// What `end_game` returns for each game.
    type Output;

    /// A game starts at `offset`.
    fn begin_game(&mut self, _offset: usize) {}
    /// A tag pair, in file order.
    fn tag(&mut self, _tag: Tag<'a>) {}
    /// The tags are over; return `Skip(true)` to skip the movetext (the result is still found).
    fn end_tags(&mut self) -> Skip {
        Skip(false)
    }
    /// A move in SAN (check marks kept, `!`/`?` given to [`Visitor::suffix`]).
    fn san(&mut self, _san: &'a [u8], _offset: usize) {}
    /// Whether the reader should decode SAN words while it scans them and hand them to
    /// [`Visitor::decoded_san`] (default `false`: every move goes to [`Visitor::san`] as
    /// text, and the reader does no decoding work).
    fn wants_decoded_san(&self) -> bool {
        false
    }
    /// A move in SAN that the reader decoded while scanning it (only when
    /// [`Visitor::wants_decoded_san`]), with its text `raw` as [`Visitor::san`] would get it.
    /// Words in rarer forms are not decoded and go to [`Visitor::san`]. The default hands the
    /// text to [`Visitor::san`].
    fn decoded_san(&mut self, _san: DecodedSan, raw: &'a [u8], offset: usize) {
        self.san(raw, offset);
    }
    /// A null move (`--`, `Z0`).
    fn null_move(&mut self, _offset: usize) {}
    /// A comment, without its delimiters.
    fn comment(&mut self, _text: &'a [u8], _offset: usize) {}
    /// A brace comment whose text is a lone lichess clock, ` [%clk H:MM:SS] `
    /// ([`crate::lone_clock`] holds), which the reader recognised: a visitor that reads
    /// nothing from clocks need not test the text again. The default hands it to
    /// [`Visitor::comment`].
    #[inline(always)]
    fn clock_comment(&mut self, text: &'a [u8], offset: usize) {
        self.comment(text, offset);
    }
    /// A NAG `$n`.
    fn nag(&mut self, _nag: u16) {}
    /// A suffix annotation (`!`, `?`, ...).
    fn suffix(&mut self, _suffix: Suffix) {}
    /// A variation starts; return `Skip(true)` to skip it (no `end_variation` call follows).
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }
    /// The current variation ends.
    fn end_variation(&mut self) {}
    /// The termination marker.
    fn result(&mut self, _result: GameResult) {}
    /// Text between games that is not a game (skipped).
    fn junk(&mut self, _range: Range<usize>) {}
    /// The game is over (possibly damaged: see [`GameEnd::error`]).
    fn end_game(&mut self, end: GameEnd) -> Self::Output;
}
