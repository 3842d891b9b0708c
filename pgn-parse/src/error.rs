//! Parse errors, with where they happened.

use std::fmt;

/// What went wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ErrorKind {
    /// A tag pair that is not `[Name "value"]`.
    BadTag,
    /// A `{` comment not closed before the next game's tags or the end of the input.
    UnterminatedComment,
    /// A `(` variation not closed before the next game's tags or the end of the input.
    UnterminatedVariation,
    /// A `{` comment that quotes a game with braces of its own: where it ends is ambiguous,
    /// so the game is rejected rather than the quoted game read as a game.
    AmbiguousComment,
    /// A game longer than the limit a [`crate::Games`] reader was given: its tokens were
    /// not kept past the limit.
    TooLarge,
    /// A game whose tokens could not be kept: the memory for them was refused.
    OutOfMemory,
}

impl ErrorKind {
    /// A short name (`bad-tag`, ...).
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::BadTag => "bad-tag",
            ErrorKind::UnterminatedComment => "unterminated-comment",
            ErrorKind::UnterminatedVariation => "unterminated-variation",
            ErrorKind::AmbiguousComment => "ambiguous-comment",
            ErrorKind::TooLarge => "too-large",
            ErrorKind::OutOfMemory => "out-of-memory",
        }
    }
}

/// A parse error: what, where (byte offset, line, column, game index), expected and found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// 0-based index of the game.
    pub game_index: u64,
    /// Absolute byte offset.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in bytes).
    pub column: u32,
    /// What the reader expected.
    pub expected: &'static str,
    /// What it found (a short excerpt).
    pub found: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: game {}: {}: expected {}, found {}",
            self.line,
            self.column,
            self.game_index + 1,
            self.kind.name(),
            self.expected,
            self.found
        )
    }
}

impl std::error::Error for ParseError {}

/// A short printable excerpt of `bytes` for error messages.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(40)];
    let end = memchr::memchr2(b'\n', b'\r', head).unwrap_or(head.len());
    if end == 0 {
        return if bytes.is_empty() {
            "end of input".into()
        } else {
            "end of line".into()
        };
    }
    format!("{:?}", crate::decode_text(&bytes[..end]))
}
