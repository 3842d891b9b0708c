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

use crate::error::ParseError;
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
}

impl<'a> Visitor<'a> for Collector<'a> {
    type Output = (Vec<Tag<'a>>, Vec<Token<'a>>, usize, GameEnd);

    fn begin_game(&mut self, offset: usize) {
        // Size the new game's vectors like the last game's: one allocation each, no regrowth.
        self.tags = Vec::with_capacity(self.tags_hint);
        self.movetext = Vec::with_capacity(self.movetext_hint);
        self.start = offset;
    }
    fn tag(&mut self, tag: Tag<'a>) {
        self.tags.push(tag);
    }
    fn san(&mut self, text: &'a [u8], offset: usize) {
        self.movetext.push(Token::San { text, offset });
    }
    fn null_move(&mut self, offset: usize) {
        self.movetext.push(Token::NullMove { offset });
    }
    fn comment(&mut self, text: &'a [u8], offset: usize) {
        self.movetext.push(Token::Comment { text, offset });
    }
    fn nag(&mut self, nag: u16) {
        self.movetext.push(Token::Nag(nag));
    }
    fn suffix(&mut self, suffix: Suffix) {
        self.movetext.push(Token::Suffix(suffix));
    }
    fn begin_variation(&mut self) -> crate::Skip {
        self.movetext.push(Token::BeginVariation);
        crate::Skip(false)
    }
    fn end_variation(&mut self) {
        self.movetext.push(Token::EndVariation);
    }
    fn result(&mut self, result: GameResult) {
        self.movetext.push(Token::Result(result));
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        self.tags_hint = self.tags.len().next_power_of_two();
        self.movetext_hint = self.movetext.len().next_power_of_two();
        (
            std::mem::take(&mut self.tags),
            std::mem::take(&mut self.movetext),
            self.start,
            end,
        )
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
            Some(error) => Err(BadGame {
                index: end.index,
                byte_range: end.byte_range,
                line,
                error,
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
