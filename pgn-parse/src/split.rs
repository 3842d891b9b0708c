//! Cutting an input into chunks at game boundaries, for parallel reading.
//!
//! ```
//! use pgn_parse::{read_games, read_games_at, split_at_game_boundaries};
//!
//! let pgn = "[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 *\n\n[Event \"c\"]\n\n1. c4 *\n".repeat(10);
//! let chunks = split_at_game_boundaries(pgn.as_bytes(), 50);
//! assert!(chunks.len() > 1);
//! let chunked: usize = chunks
//!     .iter()
//!     .map(|c| read_games_at(&pgn.as_bytes()[c.range.clone()], c.origin()).count())
//!     .sum();
//! assert_eq!(chunked, read_games(pgn.as_bytes()).count());
//! ```

use crate::boundary::{
    at_line_start, invisible_prefix, is_game_boundary, next_game_boundary,
    next_game_boundary_before, quoted_close,
};
use crate::reader::{Origin, Reader};
use crate::visitor::{GameEnd, Skip, Visitor};
use std::ops::Range;

/// A chunk of an input that starts at a game boundary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chunk {
    /// The bytes of the chunk in the input.
    pub range: Range<usize>,
    /// Whether another chunk follows.
    pub followed_by_game: bool,
}

impl Chunk {
    /// The [`Origin`] to read this chunk with. Lines are counted from 1 at the chunk start
    /// and game indices from 0: a caller that needs absolute numbers adds the line breaks
    /// and games of the chunks before (see [`crate::count_line_breaks`]).
    pub fn origin(&self) -> Origin {
        Origin {
            offset: self.range.start,
            line: 1,
            first_index: 0,
            followed_by_game: self.followed_by_game,
            part: None,
        }
    }
}

/// Cuts `input` into chunks of about `target_bytes` each, at game boundaries (never inside
/// a tag, a comment or a variation) or, where there is none (tag-less import-format games,
/// `1. e4 e5 *`), at the start of a game that follows a game ended by its result (see
/// [`ResultCuts`]), so each chunk reads the same games a sequential read would.
pub fn split_at_game_boundaries(input: &[u8], target_bytes: usize) -> Vec<Chunk> {
    let target = target_bytes.max(1);
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let cut = if input.len() - start > target {
            next_cut(input, start, target)
        } else {
            None
        };
        match cut {
            Some(cut) if cut > start => {
                chunks.push(Chunk {
                    range: start..cut,
                    followed_by_game: true,
                });
                start = cut;
            }
            _ => {
                chunks.push(Chunk {
                    range: start..input.len(),
                    followed_by_game: false,
                });
                break;
            }
        }
    }
    chunks
}

/// Where to end the chunk that starts at `start`: the first game boundary in the next
/// `target` bytes after `start + target`, else the first result cut there, else the next
/// game boundary however far.
fn next_cut(input: &[u8], start: usize, target: usize) -> Option<usize> {
    let from = start + target;
    let limit = from.saturating_add(target);
    next_game_boundary_before(input, from, limit)
        .or_else(|| {
            let cuts = ResultCuts::new(&input[start..], start);
            let local = (from - start, limit - start);
            cuts.after_results()
                .take_while(|&at| at <= local.1)
                .find(|&at| at >= local.0 && may_cut(&input[start..], at))
                .map(|at| start + at)
        })
        .or_else(|| next_game_boundary(input, from))
}

/// The games of `input` read from its start (a place where a game starts: the start of the
/// input, or a cut), to find where a chunk may end although there is no game boundary:
/// at the start of a game that follows a game ended by its result ([`Self::after_results`])
/// where [`may_cut`] holds. Reading from such a place gives the games a sequential read
/// gives.
pub(crate) struct ResultCuts<'a> {
    offset: usize,
    reader: Reader<'a>,
    after_result: bool,
}

impl<'a> ResultCuts<'a> {
    /// The cuts of `input`, whose first byte is at absolute offset `offset`; positions are
    /// relative to `input`.
    pub(crate) fn new(input: &'a [u8], offset: usize) -> ResultCuts<'a> {
        let origin = Origin {
            offset,
            ..Origin::default()
        };
        ResultCuts {
            offset,
            reader: Reader::with_origin(input, origin),
            after_result: false,
        }
    }

    /// The starts of the games that follow a game ended by its result.
    pub(crate) fn after_results(self) -> impl Iterator<Item = usize> + 'a {
        self.filter_map(|(at, after_result)| after_result.then_some(at))
    }
}

/// Whether a chunk may end at `at`, the start of a game that follows a game ended by its
/// result: the game starts a line, with no tag line or at a game boundary (so no look-back
/// reaches over it), not inside a quoted comment (so no look-ahead from before it reaches
/// past it).
pub(crate) fn may_cut(input: &[u8], at: usize) -> bool {
    at > 0
        && at_line_start(input, at)
        && (is_game_boundary(input, at) || (input[at] != b'[' && invisible_prefix(input, at) == 0))
        && quoted_close(input, at).is_none()
}

impl Iterator for ResultCuts<'_> {
    /// A game's start, and whether the game before ended with its result.
    type Item = (usize, bool);

    fn next(&mut self) -> Option<(usize, bool)> {
        /// Every game's start and end, movetext skipped.
        struct Ends(usize);
        impl Visitor<'_> for Ends {
            type Output = (usize, GameEnd);
            fn begin_game(&mut self, offset: usize) {
                self.0 = offset;
            }
            fn end_tags(&mut self) -> Skip {
                Skip(true)
            }
            fn end_game(&mut self, end: GameEnd) -> (usize, GameEnd) {
                (self.0, end)
            }
        }
        let (start, end) = self.reader.read_game(&mut Ends(0))?;
        let item = (start - self.offset, self.after_result);
        self.after_result = end.error.is_none() && end.movetext_end.is_terminated();
        Some(item)
    }
}
