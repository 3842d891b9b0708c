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

use crate::boundary::next_game_boundary;
use crate::reader::Origin;
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

/// Cuts `input` into chunks of about `target_bytes` each, at game boundaries only (never
/// inside a tag, a comment or a variation), so each chunk reads the same games a sequential
/// read would.
pub fn split_at_game_boundaries(input: &[u8], target_bytes: usize) -> Vec<Chunk> {
    let target = target_bytes.max(1);
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let cut = if input.len() - start > target {
            next_game_boundary(input, start + target)
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
