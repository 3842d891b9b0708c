//! The convenience API: an iterator of [`Game`]s, each with its tags and tokens.
//!
//! ```
//! use pgn_parse::{read_games, GameResult, MovetextEnd, Token};
//!
//! let pgn = b"[Event \"Casual\"]\n[FEN \"?\"]\n\n1. e4 {best by test} e5 (1... c5) 1-0\n\n\
//!             [Event \"Broken\"]\n\n1. d4 {never closed\n\n[Event \"Next\"]\n\n1. c4 *\n";
//! let games: Vec<_> = read_games(pgn).collect();
//! assert_eq!(games.len(), 3);
//! let first = games[0].as_ref().unwrap();
//! assert_eq!(first.tag(b"Event").unwrap().value_str(), "Casual");
//! assert_eq!(first.movetext_end, MovetextEnd::Result(GameResult::WhiteWins));
//! assert!(matches!(first.movetext[1], Token::Comment { text: b"best by test", .. }));
//! let broken = games[1].as_ref().unwrap_err();
//! assert_eq!(broken.error.line, 8);
//! assert_eq!(games[2].as_ref().unwrap().line, 10); // the game after the damage is kept
//! ```

use crate::error::{ErrorKind, ParseError};
use crate::reader::{Origin, Reader};
use crate::types::{Game, GameResult, MovetextEnd, Suffix, Tag, Token};
use crate::visitor::{GameEnd, Visitor};
use std::ops::Range;

/// A game the reader could not read whole: its bytes, the error, and the tags read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadGame<'a> {
    /// 0-based index of the game among all games read.
    pub index: u64,
    /// The exact bytes of the damaged game (absolute offsets), for quarantine.
    pub byte_range: Range<usize>,
    /// 1-based line where the game starts.
    pub line: u32,
    /// What went wrong, and where.
    pub error: ParseError,
    /// The tags read before the damage (to name the game to the user).
    pub tags: Vec<Tag<'a>>,
    /// The tokens read before the damage.
    pub movetext: Vec<Token<'a>>,
}

/// Collects games into [`Game`] values.
#[derive(Default)]
struct Collector<'a> {
    tags: Vec<Tag<'a>>,
    movetext: Vec<Token<'a>>,
    start: usize,
    tags_hint: usize,
    movetext_hint: usize,
    /// The most bytes of a game whose tokens are kept (0: no limit).
    max_game_bytes: usize,
    /// Why the current game's tokens stopped being kept, and the offset where they did.
    dropped: Option<(ErrorKind, usize)>,
}

impl<'a> Collector<'a> {
    /// Whether the element at `offset` is still kept: the game is within the limit and its
    /// earlier tokens were kept.
    fn keeps(&mut self, offset: usize) -> bool {
        if self.dropped.is_none()
            && self.max_game_bytes > 0
            && offset - self.start > self.max_game_bytes
        {
            self.drop_all(ErrorKind::TooLarge, offset);
        }
        self.dropped.is_none()
    }

    /// Stops keeping the game's tokens (and frees them): the game will be a [`BadGame`].
    fn drop_all(&mut self, why: ErrorKind, offset: usize) {
        self.dropped = Some((why, offset));
        self.tags = Vec::new();
        self.movetext = Vec::new();
    }

    /// Keeps `token`, unless the game's tokens were dropped or the memory for it is
    /// refused (then they are dropped: an allocation failure is an error, not an abort).
    fn push(&mut self, token: Token<'a>, offset: usize) {
        if self.dropped.is_some() {
            return;
        }
        if self.movetext.len() == self.movetext.capacity()
            && self
                .movetext
                .try_reserve(self.movetext.len().max(16))
                .is_err()
        {
            return self.drop_all(ErrorKind::OutOfMemory, offset);
        }
        self.movetext.push(token);
    }

    /// The offset of the last token kept (for the elements that carry none).
    fn last_offset(&self) -> usize {
        match self.movetext.last() {
            Some(Token::San { offset, .. } | Token::Comment { offset, .. }) => *offset,
            Some(Token::NullMove { offset }) => *offset,
            _ => self.start,
        }
    }
}

impl<'a> Visitor<'a> for Collector<'a> {
    type Output = (Vec<Tag<'a>>, Vec<Token<'a>>, usize, GameEnd);

    fn begin_game(&mut self, offset: usize) {
        // Size the new game's vectors like the last game's: one allocation each, no regrowth.
        self.tags = Vec::with_capacity(self.tags_hint);
        self.movetext = Vec::with_capacity(self.movetext_hint);
        self.start = offset;
        self.dropped = None;
    }
    fn tag(&mut self, tag: Tag<'a>) {
        if !self.keeps(tag.offset) {
            return;
        }
        if self.tags.len() == self.tags.capacity()
            && self.tags.try_reserve(self.tags.len().max(8)).is_err()
        {
            return self.drop_all(ErrorKind::OutOfMemory, tag.offset);
        }
        self.tags.push(tag);
    }
    fn san(&mut self, text: &'a [u8], offset: usize) {
        if self.keeps(offset) {
            self.push(Token::San { text, offset }, offset);
        }
    }
    fn null_move(&mut self, offset: usize) {
        if self.keeps(offset) {
            self.push(Token::NullMove { offset }, offset);
        }
    }
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        if self.keeps(offset) {
            self.push(Token::Comment { text, offset }, offset);
        }
    }
    fn nag(&mut self, nag: u16) {
        self.push(Token::Nag(nag), self.last_offset());
    }
    fn suffix(&mut self, suffix: Suffix) {
        self.push(Token::Suffix(suffix), self.last_offset());
    }
    fn begin_variation(&mut self) -> crate::Skip {
        self.push(Token::BeginVariation, self.last_offset());
        crate::Skip(false)
    }
    fn end_variation(&mut self) {
        self.push(Token::EndVariation, self.last_offset());
    }
    fn result(&mut self, result: GameResult) {
        self.push(Token::Result(result), self.last_offset());
    }
    fn end_game(&mut self, mut end: GameEnd) -> Self::Output {
        self.tags_hint = self.tags.len().next_power_of_two();
        self.movetext_hint = self.movetext.len().next_power_of_two();
        if let Some((kind, offset)) = self.dropped {
            // Out of memory says so whatever else is wrong; a parse error found before the
            // limit is the game's own fault and stays.
            if kind == ErrorKind::OutOfMemory || end.error.is_none() {
                end.error = Some(ParseError {
                    kind,
                    game_index: end.index,
                    offset,
                    line: 0,
                    column: 0,
                    expected: dropped_expected(kind, self.max_game_bytes),
                    found: format!("{} bytes", end.byte_range.len()),
                });
            }
        }
        (
            std::mem::take(&mut self.tags),
            std::mem::take(&mut self.movetext),
            self.start,
            end,
        )
    }
}

/// What a game whose tokens were dropped should have been.
fn dropped_expected(kind: ErrorKind, max_game_bytes: usize) -> &'static str {
    match kind {
        ErrorKind::TooLarge if max_game_bytes > 0 => "a game within the size limit",
        _ => "a game whose tokens fit in the memory left",
    }
}

/// An iterator of games: `Ok(Game)` or `Err(BadGame)` for a damaged one; reading always
/// goes on with the next game.
pub struct Games<'a> {
    reader: Reader<'a>,
    collector: Collector<'a>,
}

impl<'a> Games<'a> {
    /// The underlying reader (position, junk counter, line lookup).
    pub fn reader(&mut self) -> &mut Reader<'a> {
        &mut self.reader
    }

    /// Keeps no tokens of a game past `limit` bytes from its start (0: no limit): such a
    /// game is a [`BadGame`] of [`ErrorKind::TooLarge`], and the memory it takes is bounded
    /// by the limit, not by the game.
    pub fn max_game_bytes(mut self, limit: usize) -> Self {
        self.collector.max_game_bytes = limit;
        self
    }
}

impl<'a> Iterator for Games<'a> {
    type Item = Result<Game<'a>, BadGame<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        let (tags, movetext, start, end) = self.reader.read_game(&mut self.collector)?;
        let (line, _) = self.reader.locate(start);
        Some(match end.error {
            None => Ok(Game {
                tags,
                movetext,
                byte_range: end.byte_range,
                line,
                index: end.index,
                movetext_end: end.movetext_end,
            }),
            Some(mut error) => Err(BadGame {
                error: {
                    if matches!(error.kind, ErrorKind::TooLarge | ErrorKind::OutOfMemory) {
                        (error.line, error.column) = self.reader.locate(error.offset);
                    }
                    error
                },
                index: end.index,
                byte_range: end.byte_range,
                line,
                tags,
                movetext,
            }),
        })
    }
}

/// Reads every game of a whole input.
pub fn read_games(input: &[u8]) -> Games<'_> {
    read_games_at(input, Origin::default())
}

/// Reads every game of a slice of a larger input (a chunk from
/// [`crate::split_at_game_boundaries`]), with absolute offsets, lines and indices.
pub fn read_games_at(input: &[u8], origin: Origin) -> Games<'_> {
    Games {
        reader: Reader::with_origin(input, origin),
        collector: Collector::default(),
    }
}

impl MovetextEnd {
    /// Whether the movetext ended with a result.
    pub fn is_terminated(self) -> bool {
        matches!(self, MovetextEnd::Result(_))
    }
}
