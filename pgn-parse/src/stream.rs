//! Reading a non-seekable input (stdin, a decompressor) in blocks of whole games (or whole
//! lines), with memory bounded by the block size.
//!
//! [`for_each_game`] reads every game in one call; [`StreamReader::visit_games`] drives a
//! [`Visitor`]; [`StreamReader::next_block`] hands out the blocks themselves (to read them
//! in parallel, for instance):
//!
//! ```
//! use pgn_parse::{read_games_at, StreamReader};
//!
//! let pgn = "[Event \"a\"]\n\n1. e4 *\n\n".repeat(10_000);
//! let mut stream = StreamReader::with_block_size(pgn.as_bytes(), 64 << 10);
//! let mut games = 0;
//! while let Some(block) = stream.next_block().unwrap() {
//!     assert!(block.data.len() <= 64 << 10);
//!     games += read_games_at(&block.data, block.origin()).count();
//! }
//! assert_eq!(games, 10_000);
//! ```

use crate::boundary::{at_line_start, is_game_boundary, line_end, QUOTE_WINDOW};
use crate::games::{read_games_at, BadGame};
use crate::lines::count_line_breaks;
use crate::reader::{Origin, Reader};
use crate::split::{may_cut, ResultCuts};
use crate::types::Game;
use crate::visitor::Visitor;
use std::io::{self, Read};

/// Reads every game of `source` (stdin, a file, a decompressor) and calls `f` for each, a
/// damaged game as `Err`; offsets, lines and game indices count from the start of the
/// stream. Memory is bounded by the block size ([`StreamReader::new`]), or by the largest
/// game if a single game is larger.
///
/// ```
/// use std::io::Cursor;
///
/// // Any `impl Read`: `std::io::stdin()`, a file, a decompressor...
/// let input = Cursor::new(b"[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. d4 *\n".to_vec());
/// let mut events = Vec::new();
/// pgn_parse::for_each_game(input, |game| {
///     let game = game.expect("no damaged game here");
///     let event = game.tag(b"Event").map(|t| t.value_str().into_owned());
///     events.push((event, game.main_line_moves(), game.index, game.line));
/// })
/// .unwrap();
/// assert_eq!(events, [(Some("a".into()), 2, 0, 1), (Some("b".into()), 1, 1, 5)]);
/// ```
pub fn for_each_game<R, F>(source: R, f: F) -> io::Result<()>
where
    R: Read,
    F: FnMut(Result<Game<'_>, BadGame<'_>>),
{
    StreamReader::new(source).for_each_game(f)
}

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
    /// Set when the block is a piece of a stretch without a game boundary larger than the
    /// reader's limit ([`StreamReader::with_max_game_bytes`]).
    pub part: Option<Part>,
}

/// A piece of a stretch of a stream with no game boundary in more than the reader's limit
/// of bytes: one game too large to hold, or junk. Such a stretch is handed out in pieces
/// of about the block size, so memory stays bounded; its bytes are not read as games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Part {
    /// Whether the stretch starts a game (a game too large), rather than being junk.
    pub game: bool,
    /// Whether this is the stretch's first piece.
    pub first: bool,
    /// Whether this is its last piece.
    pub last: bool,
    /// The limit the stretch went over, in bytes.
    pub limit: usize,
}

/// Where the games at the start of `head` that end with a result end (0 if none), and
/// whether anything after them reads as a game.
fn whole_games_then(head: &[u8]) -> (usize, bool) {
    let mut whole = 0;
    for game in read_games_at(head, Origin::default()) {
        match game {
            Ok(g)
                if matches!(g.movetext_end, crate::MovetextEnd::Result(_))
                    && g.byte_range.end < head.len() =>
            {
                whole = g.byte_range.end;
            }
            _ => return (whole, true),
        }
    }
    (whole, false)
}

/// Bytes kept before the unread rest of an oversized stretch, so that the game boundary
/// that ends it is judged with the lines before it.
const CONTEXT: usize = 64 << 10;

impl Block {
    /// The [`Origin`] to read this block with (game indices start at 0 in each block).
    pub fn origin(&self) -> Origin {
        Origin {
            offset: self.offset,
            line: self.line,
            first_index: 0,
            followed_by_game: self.followed_by_game,
            part: self.part,
        }
    }
}

/// Reads a stream in blocks that end at game boundaries, or where there are none (tag-less
/// games) at the start of a game that follows a result (or after line feeds: see [`Cut`]).
/// A block is at most the block size, unless a single game (line) is larger: then the
/// buffer grows to hold it. A cut at a game boundary needs
/// [`crate::boundary::QUOTE_WINDOW`] bytes after it in the buffer (to tell a comment
/// quoting a game from a game), so blocks smaller than that grow to hold it.
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
    max_game: usize,
    /// Inside an oversized stretch: whether it is a game, and whether a piece was emitted.
    oversized: Option<(bool, bool)>,
    /// In an oversized stretch: the bytes of the buffer already searched for its end.
    searched: usize,
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
            max_game: 0,
            oversized: None,
            searched: 0,
        }
    }

    /// The same reader, holding at most about `bytes` without a game boundary (0: no
    /// limit): a longer stretch (one huge game, or junk such as `/dev/zero`) is handed out
    /// in pieces marked with a [`Part`], in bounded memory. Only with [`Cut::Games`].
    pub fn with_max_game_bytes(self, bytes: usize) -> StreamReader<R> {
        StreamReader {
            max_game: bytes,
            ..self
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

    /// Reads until the buffer holds `want` bytes or the source ends. Memory the buffer
    /// cannot get is an error ([`io::ErrorKind::OutOfMemory`]) naming the line, not an
    /// abort.
    fn fill(&mut self, want: usize) -> io::Result<()> {
        while !self.eof && self.buf.len() < want {
            let old = self.buf.len();
            if self.buf.try_reserve(want - old).is_err() {
                return Err(self.out_of_memory(want));
            }
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

    /// The error of a buffer that cannot grow to `want` bytes: where the stretch it holds
    /// starts, and what to do.
    fn out_of_memory(&self, want: usize) -> io::Error {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!(
                "not enough memory to hold {} bytes without a game boundary from line {} (a \
                 game that large); use --max-game-bytes",
                want, self.line
            ),
        )
    }

    /// Where to end a block of at most `limit` bytes by the cut rule: the last game boundary
    /// after the start of the buffer whose line is complete, or the end of the last line.
    fn last_cut(&self, limit: usize) -> Option<usize> {
        match self.cut {
            Cut::Games => self
                .last_boundary(limit)
                .or_else(|| self.last_result_cut(limit)),
            Cut::Lines => {
                memchr::memrchr(b'\n', &self.buf[..limit.min(self.buf.len())]).map(|i| i + 1)
            }
        }
    }

    /// Whether the buffer holds what deciding a cut at `at` looks at: its line, and the
    /// look-ahead for a quoted comment's `}`.
    fn decidable(&self, at: usize) -> bool {
        self.eof
            || (line_end(&self.buf, at) < self.buf.len()
                && at.saturating_add(QUOTE_WINDOW) <= self.buf.len())
    }

    /// The last game boundary after the start of the buffer that the buffer decides.
    fn last_boundary(&self, limit: usize) -> Option<usize> {
        let buf = &self.buf[..limit.min(self.buf.len())];
        let mut end = buf.len();
        while let Some(q) = memchr::memrchr(b'[', &buf[..end]) {
            if q == 0 {
                return None;
            }
            let complete = self.decidable(q);
            if complete && at_line_start(&self.buf, q) && is_game_boundary(&self.buf, q) {
                return Some(q);
            }
            end = q;
        }
        None
    }

    /// Where there is no game boundary (tag-less import-format games): the last start of a
    /// game before `limit` that follows a game ended by its result.
    fn last_result_cut(&self, limit: usize) -> Option<usize> {
        let starts: Vec<usize> = ResultCuts::new(&self.buf, self.offset)
            .after_results()
            .take_while(|&at| at <= limit)
            .collect();
        starts
            .into_iter()
            .rev()
            .find(|&at| self.decidable(at) && may_cut(&self.buf, at))
    }

    /// The next block of whole games (lines), or `None` at the end of the stream.
    pub fn next_block(&mut self) -> io::Result<Option<Block>> {
        if self.oversized.is_some() {
            return self.next_piece().map(Some);
        }
        let mut want = self.block_size;
        let limit = match (self.cut, self.max_game) {
            (Cut::Games, n) if n > 0 => n.max(self.block_size),
            _ => usize::MAX,
        };
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
                None if want >= limit => {
                    // No boundary in `limit` bytes: whole games first, as usual, then a
                    // game too large, or junk.
                    let (whole, game) = whole_games_then(&self.buf[..self.buf.len().min(CONTEXT)]);
                    self.oversized = Some((game, false));
                    self.searched = 0;
                    if whole > 0 {
                        return Ok(Some(self.emit(whole, true)));
                    }
                    return self.next_piece().map(Some);
                }
                None => want = want.saturating_mul(2).min(limit),
            }
        }
    }

    /// The next piece of an oversized stretch: up to the game boundary that ends it, or
    /// about a block, keeping [`CONTEXT`] bytes before what is still to be read.
    fn next_piece(&mut self) -> io::Result<Block> {
        let Some((game, started)) = self.oversized else {
            return Err(io::Error::other("no oversized stretch"));
        };
        self.fill(CONTEXT + self.block_size)?;
        let len = self.buf.len();
        // Every `[` before `searched` was judged no boundary, its line complete.
        let from = self.searched.max(1);
        let end = memchr::memchr_iter(b'[', self.buf.get(from..).unwrap_or(&[]))
            .map(|i| from + i)
            .find(|&q| {
                at_line_start(&self.buf, q)
                    && (line_end(&self.buf, q) < len || self.eof)
                    && is_game_boundary(&self.buf, q)
            });
        // Bytes kept unemitted before what is still to be read (none at the end).
        let keep = if self.eof { 0 } else { CONTEXT };
        let (cut, last) = match end {
            Some(q) => (q, true),
            None if self.eof && len <= self.block_size => (len, true),
            None => (self.block_size.min(len.saturating_sub(keep)).max(1), false),
        };
        self.searched = match (end, self.eof) {
            (Some(_), _) => 0,
            (None, true) => len,
            (None, false) => memchr::memrchr2(b'\n', b'\r', &self.buf).map_or(0, |i| i + 1),
        }
        .saturating_sub(cut);
        let part = Part {
            game,
            first: !started,
            last,
            limit: self.max_game,
        };
        self.oversized = (!last).then_some((game, true));
        let followed = !(self.eof && cut == self.buf.len());
        // A copy, so that the buffer's allocation (up to the limit) stays with the reader.
        let piece = self.buf[..cut].to_vec();
        self.buf.drain(..cut);
        let mut block = self.emit_data(piece, followed);
        block.part = Some(part);
        Ok(block)
    }

    /// Calls `f` for every game of the rest of the stream, a damaged game as `Err`, with
    /// absolute offsets, lines and game indices (see [`for_each_game`]). Blocks must end at
    /// game boundaries ([`Cut::Games`], the default).
    pub fn for_each_game<F>(&mut self, mut f: F) -> io::Result<()>
    where
        F: FnMut(Result<Game<'_>, BadGame<'_>>),
    {
        let mut first_index = 0;
        while let Some(block) = self.next_block()? {
            let origin = Origin {
                first_index,
                ..block.origin()
            };
            let mut games = read_games_at(&block.data, origin);
            games.by_ref().for_each(&mut f);
            first_index += games.reader().games_read();
        }
        Ok(())
    }

    /// Reads every game of the rest of the stream with `visitor` (which must not borrow from
    /// the input: each block is dropped once read) and calls `f` with each game's output.
    /// Offsets, lines and game indices are absolute.
    ///
    /// ```
    /// use pgn_parse::{GameEnd, StreamReader, Visitor};
    ///
    /// /// Counts each game's moves.
    /// struct Moves(usize);
    /// impl<'a> Visitor<'a> for Moves {
    ///     type Output = (u64, usize);
    ///     fn begin_game(&mut self, _offset: usize) { self.0 = 0; }
    ///     fn san(&mut self, _san: &'a [u8], _offset: usize) { self.0 += 1; }
    ///     fn end_game(&mut self, end: GameEnd) -> (u64, usize) { (end.index, self.0) }
    /// }
    ///
    /// let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Nf3 *\n\n".repeat(100);
    /// let mut stream = StreamReader::with_block_size(std::io::Cursor::new(pgn), 256);
    /// let mut games = Vec::new();
    /// stream.visit_games(&mut Moves(0), |output| games.push(output)).unwrap();
    /// assert_eq!(games.len(), 100);
    /// assert_eq!(games[99], (99, 3));
    /// ```
    pub fn visit_games<V, T, F>(&mut self, visitor: &mut V, mut f: F) -> io::Result<()>
    where
        V: for<'b> Visitor<'b, Output = T>,
        F: FnMut(T),
    {
        let mut first_index = 0;
        while let Some(block) = self.next_block()? {
            let origin = Origin {
                first_index,
                ..block.origin()
            };
            let mut reader = Reader::with_origin(&block.data, origin);
            while let Some(output) = reader.read_game(visitor) {
                f(output);
            }
            first_index += reader.games_read();
        }
        Ok(())
    }

    fn emit(&mut self, cut: usize, followed_by_game: bool) -> Block {
        let rest = self.buf.split_off(cut);
        let data = std::mem::replace(&mut self.buf, rest);
        self.emit_data(data, followed_by_game)
    }

    fn emit_data(&mut self, data: Vec<u8>, followed_by_game: bool) -> Block {
        let block = Block {
            offset: self.offset,
            line: self.line,
            index: self.index,
            followed_by_game,
            data,
            part: None,
        };
        self.offset += block.data.len();
        self.line = self
            .line
            .saturating_add(count_line_breaks(&block.data).min(u64::from(u32::MAX)) as u32);
        self.index += 1;
        block
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every block of `input` read with a limit: (part, length), and the games read from
    /// the blocks that are not parts.
    fn blocks(input: &[u8], block: usize, limit: usize) -> (Vec<Option<Part>>, Vec<u8>, usize) {
        let mut stream = StreamReader::with_block_size(input, block).with_max_game_bytes(limit);
        let (mut parts, mut all, mut games) = (Vec::new(), Vec::new(), 0);
        while let Some(b) = stream.next_block().unwrap() {
            assert!(limit == 0 || b.data.len() <= limit.max(block) + CONTEXT);
            assert_eq!(b.offset, all.len());
            if b.part.is_none() {
                games += read_games_at(&b.data, b.origin()).count();
            }
            parts.push(b.part);
            all.extend_from_slice(&b.data);
        }
        (parts, all, games)
    }

    #[test]
    fn a_stretch_without_boundary_over_the_limit_comes_in_pieces() {
        let huge = format!(
            "[Event \"a\"]\n\n1. e4 *\n\n[Event \"huge\"]\n\n1. e4 {{{}}} *\n\n[Event \"b\"]\n\n1. d4 *\n",
            "x".repeat(1 << 20)
        );
        let (parts, all, games) = blocks(huge.as_bytes(), 4096, 100_000);
        assert_eq!(all, huge.as_bytes(), "every byte handed out once, in order");
        assert_eq!(games, 2, "the games around it read as usual");
        let pieces: Vec<Part> = parts.iter().flatten().copied().collect();
        assert!(pieces.len() > 100);
        assert!(pieces.iter().all(|p| p.game));
        assert_eq!(pieces.iter().filter(|p| p.first).count(), 1);
        assert_eq!(pieces.iter().filter(|p| p.last).count(), 1);
        assert!(pieces[0].first && pieces[pieces.len() - 1].last);
        // Without a limit, the game is one block.
        let (parts, _, games) = blocks(huge.as_bytes(), 4096, 0);
        assert!(parts.iter().all(Option::is_none));
        assert_eq!(games, 3);
        // Zeros are junk, in pieces.
        let zeros = vec![0u8; 1 << 20];
        let (parts, all, games) = blocks(&zeros, 4096, 100_000);
        assert_eq!((all.len(), games), (zeros.len(), 0));
        assert!(parts.iter().all(|p| p.is_some_and(|p| !p.game)));
        // A game followed by junk is read as a game; the junk after it is junk.
        let mut mixed = b"[Event \"a\"]\n\n1. e4 *\n\n".to_vec();
        mixed.extend_from_slice(&zeros);
        mixed.extend_from_slice(b"\n\n[Event \"b\"]\n\n1. d4 *\n");
        let (parts, all, games) = blocks(&mixed, 4096, 100_000);
        assert_eq!((all, games), (mixed.clone(), 2));
        assert!(parts.iter().flatten().all(|p| !p.game));
    }
}
