//! The values the reader produces: games, tags, movetext tokens, results.

use std::borrow::Cow;
use std::ops::Range;

/// A game result or termination marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*` (unknown, unfinished).
    Unknown,
}

impl GameResult {
    /// The PGN spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// Reads a result; anything unrecognised is [`GameResult::Unknown`].
    pub fn from_bytes(text: &[u8]) -> GameResult {
        GameResult::parse(text.trim_ascii()).unwrap_or(GameResult::Unknown)
    }

    /// Reads a result token exactly (`1-0`, `0-1`, `1/2-1/2`, `½-½`, `*`).
    pub fn parse(text: &[u8]) -> Option<GameResult> {
        match text {
            b"1-0" => Some(GameResult::WhiteWins),
            b"0-1" => Some(GameResult::BlackWins),
            b"1/2-1/2" | b"\xc2\xbd-\xc2\xbd" => Some(GameResult::Draw),
            b"*" => Some(GameResult::Unknown),
            _ => None,
        }
    }
}

/// A suffix annotation written after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `!` (NAG 1).
    Good,
    /// `?` (NAG 2).
    Mistake,
    /// `!!` (NAG 3).
    Brilliant,
    /// `??` (NAG 4).
    Blunder,
    /// `!?` (NAG 5).
    Speculative,
    /// `?!` (NAG 6).
    Dubious,
}

impl Suffix {
    /// Reads a suffix annotation.
    pub fn parse(text: &[u8]) -> Option<Suffix> {
        Some(match text {
            b"!" => Suffix::Good,
            b"?" => Suffix::Mistake,
            b"!!" => Suffix::Brilliant,
            b"??" => Suffix::Blunder,
            b"!?" => Suffix::Speculative,
            b"?!" => Suffix::Dubious,
            _ => return None,
        })
    }

    /// The PGN spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Suffix::Good => "!",
            Suffix::Mistake => "?",
            Suffix::Brilliant => "!!",
            Suffix::Blunder => "??",
            Suffix::Speculative => "!?",
            Suffix::Dubious => "?!",
        }
    }

    /// The equivalent NAG number.
    pub const fn nag(self) -> u16 {
        match self {
            Suffix::Good => 1,
            Suffix::Mistake => 2,
            Suffix::Brilliant => 3,
            Suffix::Blunder => 4,
            Suffix::Speculative => 5,
            Suffix::Dubious => 6,
        }
    }
}

/// A SAN word as the reader decoded it while scanning it ([`crate::Visitor::decoded_san`]):
/// its syntax only, nothing checked against a position (this crate knows no rules). Files,
/// ranks and squares are indices (file 0 = a, rank 0 = the first rank, square = rank × 8 +
/// file: a1 = 0, h8 = 63); pieces are their SAN letters.
///
/// ```
/// use pgn_parse::{DecodedSan, SanAction};
///
/// let san = DecodedSan::from_word(b"Nbxd7+").unwrap();
/// assert_eq!(san.mark, Some(b'+'));
/// assert_eq!(
///     san.action,
///     SanAction::Move { piece: b'N', from_file: Some(1), from_rank: None, capture: true, to: 51, promotion: None }
/// );
/// assert_eq!(DecodedSan::from_word(b"O-O-O").unwrap().action, SanAction::Castle { queen_side: true });
/// assert_eq!(DecodedSan::from_word(b"0-0"), None); // a rarer form: left to the text path
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DecodedSan {
    /// What the word moves.
    pub action: SanAction,
    /// The check mark written after the move: `b'#'` if a `#` is, else `b'+'` if a `+` is.
    pub mark: Option<u8>,
}

/// The move part of a [`DecodedSan`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SanAction {
    /// A piece or pawn move.
    Move {
        /// `b'P'` for a pawn, else the piece letter (`N`, `B`, `R`, `Q`, `K`).
        piece: u8,
        /// The origin file written (0 = a), if any.
        from_file: Option<u8>,
        /// The origin rank written (0 = the first rank), if any.
        from_rank: Option<u8>,
        /// Whether `x` (or `:`) was written.
        capture: bool,
        /// The target square (a1 = 0, h8 = 63).
        to: u8,
        /// The promotion piece letter (`N`, `B`, `R`, `Q`), if any.
        promotion: Option<u8>,
    },
    /// `O-O` (`queen_side: false`) or `O-O-O`.
    Castle {
        /// Whether it is `O-O-O`.
        queen_side: bool,
    },
}

impl DecodedSan {
    /// Decodes a whole movetext word (without move number) as the reader does: `None` when
    /// it is not a SAN move in one of the common forms the reader decodes (a piece letter or
    /// file, coordinates, `x`, `=` and promotion, `O-O`/`O-O-O`, then `+`/`#` and `!`/`?`).
    /// The rarer forms a rules crate may still accept (`0-0`, `e.p.`, upper-case files) are
    /// not decoded; the reader hands them over as text only.
    pub fn from_word(word: &[u8]) -> Option<DecodedSan> {
        crate::reader::decode_san(word)
            .filter(|decoded| decoded.word_len == word.len())
            .map(|decoded| decoded.san)
    }
}

/// A tag pair `[Name "value"]`, borrowing from the input: bytes, as everything the reader
/// produces; [`Tag::value_str`] decodes the value as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tag<'a> {
    /// The tag name.
    pub name: &'a [u8],
    /// The value as written, escapes (`\"`, `\\`) not yet removed.
    pub raw_value: &'a [u8],
    /// Absolute byte offset of the `[`.
    pub offset: usize,
}

impl<'a> Tag<'a> {
    /// The value's bytes with escapes removed (borrowed when there are none).
    pub fn value(&self) -> Cow<'a, [u8]> {
        unescape(self.raw_value)
    }

    /// The value as text: escapes removed, then decoded by [`decode_text`] (UTF-8, else
    /// Latin-1; never fails, never replaces a byte).
    pub fn value_str(&self) -> Cow<'a, str> {
        // The common value, UTF-8 without a backslash, is its own text: one validation and
        // one search of a few bytes, no call to memchr's vector search.
        if let Ok(text) = std::str::from_utf8(self.raw_value) {
            if !self.raw_value.contains(&b'\\') {
                return Cow::Borrowed(text);
            }
        }
        match self.value() {
            Cow::Borrowed(b) => decode_text(b),
            Cow::Owned(v) => Cow::Owned(decode_text(&v).into_owned()),
        }
    }
}

/// Removes PGN string escapes (`\"` and `\\`).
pub fn unescape(raw: &[u8]) -> Cow<'_, [u8]> {
    if memchr::memchr(b'\\', raw).is_none() {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut bytes = raw.iter();
    while let Some(&b) = bytes.next() {
        if b == b'\\' {
            match bytes.next() {
                Some(&next) => out.push(next),
                None => out.push(b),
            }
        } else {
            out.push(b);
        }
    }
    Cow::Owned(out)
}

/// Decodes text from a PGN file, the one rule for all text (tag values, comments, SAN):
/// UTF-8 when the bytes are valid UTF-8, else Latin-1 (every byte one character), as old
/// GUIs wrote player names.
///
/// ```
/// use pgn_parse::decode_text;
/// assert_eq!(decode_text(b"Caf\xc3\xa9"), "Café");
/// assert_eq!(decode_text(b"Caf\xe9"), "Café");
/// ```
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| b as char).collect()),
    }
}

/// One element of movetext.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// A move in SAN as written (check marks kept, `!`/`?` split off), with its offset.
    San {
        /// The move text.
        text: &'a [u8],
        /// Absolute byte offset.
        offset: usize,
    },
    /// A null move (`--`, `Z0`).
    NullMove {
        /// Absolute byte offset.
        offset: usize,
    },
    /// A comment: `{...}` or `;...` to the end of the line, without delimiters.
    Comment {
        /// The comment text.
        text: &'a [u8],
        /// Absolute byte offset of the `{` or `;`.
        offset: usize,
    },
    /// A numeric annotation glyph `$n`.
    Nag(u16),
    /// A suffix annotation (`!`, `?!`, ...).
    Suffix(Suffix),
    /// `(`: a variation starts.
    BeginVariation,
    /// `)`: the variation ends.
    EndVariation,
    /// The game termination marker.
    Result(GameResult),
}

/// How a game's movetext ended (how the text stopped, not how the chess game ended).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MovetextEnd {
    /// With a result (termination marker).
    Result(GameResult),
    /// The input ended without a result.
    EndOfInput,
    /// The next game's tags started without a result: the game was cut short.
    NextGame,
    /// The tags were followed by no movetext at all, not even a result, before the next
    /// game or the end of the input (a header-only game).
    NoMovetext,
}

/// A game read by [`crate::read_games`]: tags in file order and movetext tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game<'a> {
    /// Tags in file order, duplicates kept.
    pub tags: Vec<Tag<'a>>,
    /// Movetext tokens in order.
    pub movetext: Vec<Token<'a>>,
    /// The exact bytes of the game in the input (absolute offsets).
    pub byte_range: Range<usize>,
    /// 1-based line of the game's first byte.
    pub line: u32,
    /// 0-based index of the game among all games read (good and bad).
    pub index: u64,
    /// How the movetext ended.
    pub movetext_end: MovetextEnd,
}

impl<'a> Game<'a> {
    /// The first tag named `name`.
    pub fn tag(&self, name: &[u8]) -> Option<&Tag<'a>> {
        self.tags.iter().find(|t| t.name == name)
    }

    /// All tags named `name`, in file order.
    pub fn tags_named<'s>(&'s self, name: &'s [u8]) -> impl Iterator<Item = &'s Tag<'a>> + 's {
        self.tags.iter().filter(move |t| t.name == name)
    }

    /// The number of moves in the main line, null moves included (variations not counted).
    pub fn main_line_moves(&self) -> usize {
        self.main_line().count()
    }

    /// The moves of the main line in order, variations skipped, each with the tokens that
    /// follow it (comments, NAGs, suffixes, variations) up to the next main-line move.
    ///
    /// ```
    /// use pgn_parse::read_games;
    ///
    /// let pgn = b"1. e4 {best by test} e5 (1... c5 {Sicilian}) 2. -- $2 {a pass} Nc6 *";
    /// let game = read_games(pgn).next().unwrap().unwrap();
    /// let moves: Vec<_> = game
    ///     .main_line()
    ///     .map(|m| (m.san, m.comments().collect::<Vec<_>>()))
    ///     .collect();
    /// assert_eq!(
    ///     moves,
    ///     [
    ///         (Some(&b"e4"[..]), vec![&b"best by test"[..]]),
    ///         (Some(b"e5"), vec![]), // the variation's comment is not the main line's
    ///         (None, vec![b"a pass"]), // a null move
    ///         (Some(b"Nc6"), vec![]),
    ///     ]
    /// );
    /// assert_eq!(game.main_line().nth(1).unwrap().offset, 21); // byte offset of `e5`
    /// ```
    pub fn main_line(&self) -> MainLine<'_, 'a> {
        MainLine {
            rest: &self.movetext,
        }
    }
}

/// The moves of a game's main line: see [`Game::main_line`].
#[derive(Debug, Clone)]
pub struct MainLine<'g, 'a> {
    rest: &'g [Token<'a>],
}

/// A move of the main line, with what follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MainLineMove<'g, 'a> {
    /// The move in SAN as written, or `None` for a null move (`--`, `Z0`).
    pub san: Option<&'a [u8]>,
    /// Absolute byte offset of the move.
    pub offset: usize,
    /// The tokens after the move, up to the next main-line move or the result.
    pub after: &'g [Token<'a>],
}

impl<'g, 'a> MainLineMove<'g, 'a> {
    /// Whether the move is a null move.
    pub fn is_null(&self) -> bool {
        self.san.is_none()
    }

    /// The comments that follow the move in the main line (not those inside variations).
    pub fn comments(&self) -> impl Iterator<Item = &'a [u8]> + 'g {
        let mut depth = 0usize;
        self.after.iter().filter_map(move |token| {
            match *token {
                Token::BeginVariation => depth += 1,
                Token::EndVariation => depth = depth.saturating_sub(1),
                Token::Comment { text, .. } if depth == 0 => return Some(text),
                _ => {}
            }
            None
        })
    }
}

impl<'g, 'a> Iterator for MainLine<'g, 'a> {
    type Item = MainLineMove<'g, 'a>;

    fn next(&mut self) -> Option<MainLineMove<'g, 'a>> {
        // The next move at depth 0, then its tokens up to the next one (or the result).
        let mut depth = 0usize;
        let mut at = 0;
        let (san, offset) = loop {
            match *self.rest.get(at)? {
                Token::BeginVariation => depth += 1,
                Token::EndVariation => depth = depth.saturating_sub(1),
                Token::San { text, offset } if depth == 0 => break (Some(text), offset),
                Token::NullMove { offset } if depth == 0 => break (None, offset),
                _ => {}
            }
            at += 1;
        };
        let from = at + 1;
        let mut depth = 0usize;
        let len = self.rest[from..]
            .iter()
            .position(|token| {
                match token {
                    Token::BeginVariation => depth += 1,
                    Token::EndVariation => depth = depth.saturating_sub(1),
                    Token::San { .. } | Token::NullMove { .. } | Token::Result(_) => {
                        return depth == 0
                    }
                    _ => {}
                }
                false
            })
            .unwrap_or(self.rest.len() - from);
        let after = &self.rest[from..from + len];
        self.rest = &self.rest[from + len..];
        Some(MainLineMove { san, offset, after })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `value_str`'s fast path (UTF-8 without a backslash) agrees with the general rule:
        /// the escapes removed, then decoded.
        #[test]
        fn value_str_is_the_unescaped_value_decoded(
            raw in proptest::collection::vec(
                prop::sample::select(vec![b'a', b' ', b'1', b'\\', b'"', 0xC3, 0xA9, 0xE9, 0x80, 0xFF]),
                0..24,
            )
        ) {
            let tag = Tag { name: b"Event", raw_value: &raw, offset: 0 };
            let general = decode_text(&unescape(&raw)).into_owned();
            prop_assert_eq!(tag.value_str().into_owned(), general);
        }
    }
}
