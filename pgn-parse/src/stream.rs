//! Reading a non-seekable input (stdin, a decompressor) in blocks of whole games (or whole
//! lines), with memory bounded by the block size.
//!
//! ```
//! use pgn_parse::{read_games_at, StreamReader};
//!
//! let pgn = "[Event \"a\"]\n\n1. e4 *\n\n".repeat(1000);
//! let mut stream = StreamReader::with_block_size(pgn.as_bytes(), 4096);
//! let mut games = 0;
//! while let Some(block) = stream.next_block().unwrap() {
//!     assert!(block.data.len() <= 4096);
//!     games += read_games_at(&block.data, block.origin()).count();
//! }
//! assert_eq!(games, 1000);
//! ```

use crate::boundary::{at_line_start, is_game_boundary, line_end};
use crate::lines::count_line_breaks;
use crate::reader::Origin;
use std::io::{self, Read};

/// Where a [`StreamReader`] may end a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Cut {
    /// At game boundaries (see [`crate::boundary`]): every block holds whole games.
    #[default]
    Games,
    /// After a line feed: every block holds whole lines (FEN or EPD lists, any text).
    Lines,
}

/// A block of whole games (or whole lines, with [`Cut::Lines`]) read from a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The bytes.
    pub data: Vec<u8>,
    /// Absolute offset of the first byte in the stream.
    pub offset: usize,
    /// 1-based line of the first byte.
    pub line: u32,
    /// Index of the block (0, 1, ...).
    pub index: u64,
    /// Whether more of the stream follows the block (more games, with [`Cut::Games`]).
    pub followed_by_game: bool,
}

impl Block {
    /// The [`Origin`] to read this block with (game indices start at 0 in each block).
    pub fn origin(&self) -> Origin {
        Origin {
            offset: self.offset,
            line: self.line,
            first_index: 0,
            followed_by_game: self.followed_by_game,
        }
    }
}

/// Reads a stream in blocks that end at game boundaries (or after line breaks: see
/// [`Cut`]). A block is at most the block size, unless a single game (line) is larger: then
/// the buffer grows to hold it.
pub struct StreamReader<R> {
    source: R,
    buf: Vec<u8>,
    block_size: usize,
    cut: Cut,
    offset: usize,
    line: u32,
    index: u64,
    eof: bool,
    bytes_read: u64,
}

impl<R: Read> StreamReader<R> {
    /// A reader with 8 MiB blocks.
    pub fn new(source: R) -> StreamReader<R> {
        StreamReader::with_block_size(source, 8 << 20)
    }

    /// A reader with blocks of about `block_size` bytes.
    pub fn with_block_size(source: R, block_size: usize) -> StreamReader<R> {
        StreamReader {
            source,
            buf: Vec::new(),
            block_size: block_size.max(64),
            cut: Cut::Games,
            offset: 0,
            line: 1,
            index: 0,
            eof: false,
            bytes_read: 0,
        }
    }

    /// The same reader, cutting blocks by `cut` instead of at game boundaries.
    pub fn with_cut(self, cut: Cut) -> StreamReader<R> {
        StreamReader { cut, ..self }
    }

    /// Bytes read from the source so far.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// Reads until the buffer holds `want` bytes or the source ends.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while !self.eof && self.buf.len() < want {
            let old = self.buf.len();
            self.buf.resize(want, 0);
            match self.source.read(&mut self.buf[old..]) {
                Ok(0) => {
                    self.buf.truncate(old);
                    self.eof = true;
                }
                Ok(n) => {
                    self.buf.truncate(old + n);
                    self.bytes_read += n as u64;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => self.buf.truncate(old),
                Err(e) => {
                    self.buf.truncate(old);
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Where to end a block of at most `limit` bytes by the cut rule: the last game boundary
    /// after the start of the buffer whose line is complete, or the end of the last line.
    fn last_cut(&self, limit: usize) -> Option<usize> {
        match self.cut {
            Cut::Games => self.last_boundary(limit),
            Cut::Lines => {
                memchr::memrchr(b'\n', &self.buf[..limit.min(self.buf.len())]).map(|i| i + 1)
            }
        }
    }

    /// The last game boundary after the start of the buffer whose line is complete.
    fn last_boundary(&self, limit: usize) -> Option<usize> {
        let buf = &self.buf[..limit.min(self.buf.len())];
        let mut end = buf.len();
        while let Some(q) = memchr::memrchr(b'[', &buf[..end]) {
            if q == 0 {
                return None;
            }
            let complete = line_end(&self.buf, q) < self.buf.len() || self.eof;
            if complete && at_line_start(&self.buf, q) && is_game_boundary(&self.buf, q) {
                return Some(q);
            }
            end = q;
        }
        None
    }

    /// The next block of whole games (lines), or `None` at the end of the stream.
    pub fn next_block(&mut self) -> io::Result<Option<Block>> {
        let mut want = self.block_size;
        loop {
            self.fill(want)?;
            if self.buf.is_empty() {
                return Ok(None);
            }
            let cut = if self.eof && self.buf.len() <= want {
                None
            } else {
                self.last_cut(want)
            };
            match cut {
                Some(cut) => return Ok(Some(self.emit(cut, true))),
                None if self.eof && self.buf.len() <= want => {
                    let len = self.buf.len();
                    return Ok(Some(self.emit(len, false)));
                }
                None => want = want.saturating_mul(2),
            }
        }
    }

    fn emit(&mut self, cut: usize, followed_by_game: bool) -> Block {
        let rest = self.buf.split_off(cut);
        let data = std::mem::replace(&mut self.buf, rest);
        let block = Block {
            offset: self.offset,
            line: self.line,
            index: self.index,
            followed_by_game,
            data,
        };
        self.offset += block.data.len();
        self.line = self
            .line
            .saturating_add(count_line_breaks(&block.data).min(u64::from(u32::MAX)) as u32);
        self.index += 1;
        block
    }
}
