//! The parallel pipeline: an input cut into chunks ([`ChunkSource`]: whole games, or whole
//! lines), chunks processed on a rayon pool, results handed to a sink strictly in input
//! order ([`run`]).
//!
//! The calling thread cuts the input (mapped slices, or blocks read from a stream) and
//! spawns one job per chunk with at most a few jobs per thread in flight; finished results
//! go through a reorder buffer to the sink while the workers go on: there is no barrier
//! between batches, and memory is bounded by the in-flight limit, whatever the input size.
//! The sink learns each chunk's absolute first line and first game. [`run`] calls it on the
//! calling thread; [`run_chunks_committed`] lets the workers call it, in the same order, one
//! at a time (for a sink that writes outputs: no serial writer thread).
//!
//! ```
//! use pgn960::input::Input;
//! use pgn960::pipeline::{self, ChunkOutput, PipelineOptions};
//!
//! struct Games(u64);
//! impl ChunkOutput for Games {
//!     fn games(&self) -> u64 { self.0 }
//! }
//!
//! let pgn = "[Event \"a\"]\n\n1. e4 *\n\n".repeat(1000);
//! let mut input = Input::from_bytes("example", pgn.into_bytes());
//! let pool = pipeline::thread_pool(2).unwrap();
//! let options = PipelineOptions { chunk_bytes: 1000, ..PipelineOptions::default() };
//! let mut total = 0;
//! pipeline::run(
//!     &mut input,
//!     &pool,
//!     &options,
//!     |bytes, origin| Games(pgn_parse::read_games_at(bytes, origin).count() as u64),
//!     |games: Games, info| {
//!         assert_eq!(info.first_game, total);
//!         total += games.0;
//!         Ok::<(), pgn960::Error>(())
//!     },
//! )
//! .unwrap();
//! assert_eq!(total, 1000);
//! ```

use crate::error::Error;
use crate::input::{Bytes, Input, Source};
use pgn_parse::{count_line_breaks, split_at_game_boundaries, Origin, StreamReader};
use std::collections::BTreeMap;
use std::io::Read;
use std::ops::Range;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Where a chunk was in its input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Absolute byte offset of the chunk's first byte (in the decoded input).
    pub offset: usize,
    /// Its length in bytes.
    pub len: usize,
    /// Bytes of the underlying input (the compressed file, for compressed inputs) read
    /// since the previous chunk: what a progress bar over file sizes advances by.
    pub source_bytes: u64,
    /// Absolute 1-based line of the chunk's first byte; 0 (unknown) when the chunk's
    /// output needs no line ([`ChunkOutput::needs_lines`]) and the lines of a mapped input
    /// before it were left uncounted.
    pub first_line: u64,
    /// Absolute 0-based index of the chunk's first game.
    pub first_game: u64,
    /// Whether the chunk's text was built from the rows of a Parquet input (its lines then
    /// name rows: see `parquet::row_of_line`).
    pub rows: bool,
    /// The chunk's line breaks, when known before its bytes are made (Parquet row groups)
    /// or counted as it was cut ([`PipelineOptions::lines_at_cut`]).
    pub lines: Option<u64>,
}

impl ChunkInfo {
    /// The absolute line of a line counted from 1 at the chunk's start.
    pub fn line(&self, chunk_line: u32) -> u64 {
        self.first_line + u64::from(chunk_line.max(1)) - 1
    }
}

/// What a chunk's result tells the pipeline: how many games it held (0 when the input is
/// not games), so that game indices run on across chunks.
pub trait ChunkOutput {
    /// Games in the chunk.
    fn games(&self) -> u64;

    /// Why the chunk could not be finished, if it could not: the run stops with
    /// [`Error::OutOfMemory`] at this chunk, before its results reach the sink.
    fn failure(&self) -> Option<&ChunkFailure> {
        None
    }

    /// Whether the sink reads the chunk's lines ([`ChunkInfo::first_line`],
    /// [`ChunkInfo::line`]). When it does not, the lines of a mapped input are left
    /// uncounted until a later chunk needs them (never, if none does).
    fn needs_lines(&self) -> bool {
        true
    }

    /// How far the chunk's own line lookup went: a local offset and the line breaks
    /// before it (see [`pgn_parse::LineIndex::reached`]); the pipeline then counts only
    /// the bytes after it.
    fn lines_seen(&self) -> Option<(usize, u64)> {
        None
    }
}

/// Why a chunk's work stopped short: a game whose tokens the memory left could not hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChunkFailure {
    /// The game's line, counted from 1 at the chunk's start.
    pub line: u32,
    /// What could not be held.
    pub message: String,
}

/// Where chunks may be cut: at game boundaries (PGN) or after line breaks (FEN/EPD lists).
pub use pgn_parse::Cut;

/// The default limit of a game's size (64 MiB): far above any real game, small enough
/// that a few chunks of it in flight fit in memory.
pub const DEFAULT_MAX_GAME_BYTES: usize = 64 << 20;

/// How to cut and schedule.
#[derive(Debug, Clone, Copy)]
pub struct PipelineOptions {
    /// Target chunk size in bytes.
    pub chunk_bytes: usize,
    /// Where chunks may be cut.
    pub cut: Cut,
    /// Jobs in flight per worker thread.
    pub in_flight_per_thread: usize,
    /// Checked between chunks: when set, the run stops with [`Error::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
    /// A stretch of a stream with no game boundary in this many bytes (one huge game, or
    /// junk) is handed out in pieces marked [`pgn_parse::Part`] instead of being held whole
    /// (0: no limit; see [`DEFAULT_MAX_GAME_BYTES`]).
    pub max_game_bytes: usize,
    /// Count each chunk's lines on the calling thread as it is cut, so that the worker
    /// already knows the chunk's absolute first line ([`run_chunks`]); otherwise workers
    /// count them (a mapped input's only when a chunk's output needs them) and only the
    /// sink learns it. A Parquet input's lines are known without counting: its workers
    /// always know them.
    pub lines_at_cut: bool,
    /// Only the games of this byte range of a whole (plain) input: those from the first
    /// game boundary at or after its start to the first at or after its end (see
    /// [`crate::range`]); lines, offsets and locations stay those of the whole input.
    /// Ignored for streams and Parquet inputs, which are read whole.
    pub range: Option<(usize, usize)>,
    /// The line of the range's start byte when the planner knows it
    /// ([`crate::range::Partition::first_line`]); else the lines before it are counted.
    pub range_line: Option<u64>,
}

impl Default for PipelineOptions {
    fn default() -> PipelineOptions {
        PipelineOptions {
            chunk_bytes: 2 << 20,
            cut: Cut::Games,
            in_flight_per_thread: 4,
            stop: None,
            max_game_bytes: DEFAULT_MAX_GAME_BYTES,
            lines_at_cut: false,
            range: None,
            range_line: None,
        }
    }
}

impl PipelineOptions {
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// Work that produces a chunk's bytes on a worker thread.
pub type Deferred = Box<dyn FnOnce() -> Result<Vec<u8>, Error> + Send>;

/// A chunk's bytes: a range of a whole input (shared, not copied), a block read from a
/// stream, or bytes still to be made (a Parquet row group, built on a worker).
pub enum ChunkData {
    /// Part of an input in memory.
    Shared(Arc<Bytes>, Range<usize>),
    /// A block read from a stream.
    Owned(Vec<u8>),
    /// Bytes made by [`ChunkData::load`] (empty until then).
    Deferred(Deferred),
}

impl ChunkData {
    /// The chunk with its bytes made (a no-op unless [`ChunkData::Deferred`]).
    pub fn load(self) -> Result<ChunkData, Error> {
        match self {
            ChunkData::Deferred(make) => make().map(ChunkData::Owned),
            other => Ok(other),
        }
    }
}

impl std::ops::Deref for ChunkData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            ChunkData::Shared(bytes, range) => &bytes[range.clone()],
            ChunkData::Owned(v) => v,
            ChunkData::Deferred(_) => &[],
        }
    }
}

/// One chunk: its bytes, how to read them, and where it was.
pub struct SourceChunk {
    /// The bytes.
    pub data: ChunkData,
    /// The origin to read them with (lines counted from 1, games from 0).
    pub origin: Origin,
    /// Where it was (`first_line` and `first_game` are filled in by [`run`]).
    pub info: ChunkInfo,
}

/// Cuts an input into chunks, in order. It owns what it reads: chunks of a whole input
/// share its bytes, a stream is taken from the input.
pub struct ChunkSource {
    kind: SourceKind,
    /// Bytes of the underlying input counted so far (for `source_bytes`).
    last_read: u64,
    /// The next chunk's absolute first line, when lines are counted at cut time.
    next_line: Option<u64>,
    /// The absolute line of the first byte read (1 unless a range starts later).
    first_line: u64,
    compressed_read: Option<Arc<AtomicU64>>,
}

enum SourceKind {
    Whole {
        bytes: Arc<Bytes>,
        chunks: std::vec::IntoIter<pgn_parse::Chunk>,
    },
    Stream(StreamReader<Box<dyn Read + Send>>),
    #[cfg(feature = "parquet")]
    RowGroups {
        games: Arc<crate::parquet::ParquetGames>,
        /// The row group read next, and its first row not read yet.
        next: usize,
        next_row: u64,
        offset: usize,
        /// `--max-game-bytes`: a larger row is rejected, not made into text.
        max_game_bytes: usize,
    },
}

impl ChunkSource {
    /// A source over `input` cut as `options` say (a stream is taken out of `input`).
    pub fn new(input: &mut Input, options: &PipelineOptions) -> ChunkSource {
        match &mut input.source {
            #[cfg(feature = "parquet")]
            Source::Parquet(games) => ChunkSource {
                kind: SourceKind::RowGroups {
                    games: Arc::clone(games),
                    next: 0,
                    next_row: 0,
                    offset: 0,
                    max_game_bytes: options.max_game_bytes,
                },
                last_read: 0,
                next_line: Some(1),
                first_line: 1,
                compressed_read: None,
            },
            Source::Whole(bytes) => {
                let (chunks, first_line) = whole_chunks(bytes, options);
                ChunkSource {
                    kind: SourceKind::Whole {
                        bytes: Arc::clone(bytes),
                        chunks: chunks.into_iter(),
                    },
                    last_read: 0,
                    next_line: options.lines_at_cut.then_some(first_line),
                    first_line,
                    compressed_read: None,
                }
            }
            Source::Stream {
                reader,
                compressed_read,
                ..
            } => {
                let compressed_read = compressed_read.clone();
                let reader = std::mem::replace(reader, Box::new(std::io::empty()));
                let kind = SourceKind::Stream(
                    StreamReader::with_block_size(reader, options.chunk_bytes)
                        .with_cut(options.cut)
                        .with_max_game_bytes(options.max_game_bytes),
                );
                ChunkSource {
                    kind,
                    last_read: 0,
                    next_line: options.lines_at_cut.then_some(1),
                    first_line: 1,
                    compressed_read,
                }
            }
        }
    }

    /// The absolute line of the first chunk's first byte.
    pub fn first_line(&self) -> u64 {
        self.first_line
    }

    /// Bytes of the underlying input read since the last call, given the decoded bytes read.
    fn source_advance(&mut self, decoded_read: u64) -> u64 {
        let now = self
            .compressed_read
            .as_ref()
            .map_or(decoded_read, |c| c.load(Ordering::Relaxed));
        let advance = now.saturating_sub(self.last_read);
        self.last_read = now;
        advance
    }

    /// The next chunk, or `None` at the end of the input. With
    /// [`PipelineOptions::lines_at_cut`], its `info.first_line` is absolute.
    pub fn next_chunk(&mut self) -> std::io::Result<Option<SourceChunk>> {
        let mut chunk = self.cut()?;
        if let (Some(next_line), Some(chunk)) = (self.next_line.as_mut(), chunk.as_mut()) {
            chunk.info.first_line = *next_line;
            *next_line += match &chunk.data {
                ChunkData::Deferred(_) => chunk.info.lines.unwrap_or(0),
                data => *chunk.info.lines.insert(count_line_breaks(data)),
            };
        }
        Ok(chunk)
    }

    fn cut(&mut self) -> std::io::Result<Option<SourceChunk>> {
        let info = chunk_info;
        match &mut self.kind {
            #[cfg(feature = "parquet")]
            SourceKind::RowGroups {
                games,
                next,
                next_row,
                offset,
                max_game_bytes,
            } => Ok(row_group_slice(
                games,
                next,
                next_row,
                offset,
                *max_game_bytes,
            )),
            SourceKind::Whole { bytes, chunks } => Ok(chunks.next().map(|c| SourceChunk {
                info: info(c.range.start, c.range.len(), c.range.len() as u64),
                origin: c.origin(),
                data: ChunkData::Shared(Arc::clone(bytes), c.range),
            })),
            SourceKind::Stream(stream) => {
                let Some(block) = stream.next_block()? else {
                    return Ok(None);
                };
                let read = stream.bytes_read();
                let origin = Origin {
                    line: 1,
                    ..block.origin()
                };
                let (offset, len) = (block.offset, block.data.len());
                let source_bytes = self.source_advance(read);
                Ok(Some(SourceChunk {
                    data: ChunkData::Owned(block.data),
                    origin,
                    info: info(offset, len, source_bytes),
                }))
            }
        }
    }
}

/// A chunk's place, its lines and games counted later.
fn chunk_info(offset: usize, len: usize, source_bytes: u64) -> ChunkInfo {
    ChunkInfo {
        offset,
        len,
        source_bytes,
        first_line: 1,
        first_game: 0,
        rows: false,
        lines: None,
    }
}

/// The next slice of a Parquet input's rows: at most
/// [`crate::parquet::ParquetGames::rows_per_chunk`] rows of row group `next`, from `next_row` (a group of a million rows is read in
/// parallel, not made into one text); `None` after the last group.
#[cfg(feature = "parquet")]
fn row_group_slice(
    games: &Arc<crate::parquet::ParquetGames>,
    next: &mut usize,
    next_row: &mut u64,
    offset: &mut usize,
    max_game_bytes: usize,
) -> Option<SourceChunk> {
    if *next >= games.row_groups() {
        return None;
    }
    let index = *next;
    let group_rows = games.row_group_rows(index);
    let rows = *next_row..group_rows.min(*next_row + games.rows_per_chunk(index));
    let group_bytes = games.row_group_bytes(index);
    // Offsets count the file's bytes row group by row group (a slice takes its share);
    // within a chunk they count the text built from it.
    let share = |row: u64| {
        let part = u128::from(group_bytes) * u128::from(row) / u128::from(group_rows.max(1));
        usize::try_from(part).unwrap_or(usize::MAX)
    };
    let last = rows.end >= group_rows;
    let len = if last {
        usize::try_from(group_bytes).unwrap_or(usize::MAX) - share(rows.start)
    } else {
        share(rows.end) - share(rows.start)
    };
    (*next, *next_row) = if last {
        (index + 1, 0)
    } else {
        (index, rows.end)
    };
    let start = *offset;
    *offset += len;
    let lines = (rows.end - rows.start) * crate::parquet::LINES_PER_ROW;
    let games = Arc::clone(games);
    Some(SourceChunk {
        data: ChunkData::Deferred(Box::new(move || {
            games.row_group_text(index, rows, max_game_bytes)
        })),
        origin: Origin {
            offset: start,
            line: 1,
            first_index: 0,
            followed_by_game: false,
            part: None,
        },
        info: ChunkInfo {
            rows: true,
            lines: Some(lines),
            ..chunk_info(start, len, len as u64)
        },
    })
}

/// The chunks of a whole input (of its [`PipelineOptions::range`] only, when set), and
/// the absolute line of their first byte.
fn whole_chunks(bytes: &[u8], options: &PipelineOptions) -> (Vec<pgn_parse::Chunk>, u64) {
    let range = match options.range {
        Some((start, end)) => crate::range::games_range(bytes, start, end),
        None => 0..bytes.len(),
    };
    let part = &bytes[range.clone()];
    let mut chunks = match options.cut {
        Cut::Games => split_at_game_boundaries(part, options.chunk_bytes),
        Cut::Lines => split_at_lines(part, options.chunk_bytes),
    };
    for chunk in &mut chunks {
        chunk.range = chunk.range.start + range.start..chunk.range.end + range.start;
        chunk.followed_by_game |= chunk.range.end < bytes.len();
    }
    let first_line = match (options.range, options.range_line) {
        (Some((start, _)), Some(line)) => {
            line + crate::range::line_breaks_between(bytes, start, range.start)
        }
        _ => 1 + crate::range::line_breaks_between(bytes, 0, range.start),
    };
    (chunks, first_line)
}

/// A finished chunk: the worker's result and its line breaks (or why its bytes could not
/// be made).
type Finished<T> = (std::thread::Result<Result<(T, Breaks), Error>>, ChunkInfo);

/// A chunk's line breaks: counted, or left to count from a mapped input's bytes when a
/// later chunk needs its lines.
enum Breaks {
    Counted(u64),
    /// Bytes of a mapped input, and breaks to add to their count: one per CRLF split
    /// between two chunks merged into this range, which each chunk counted alone would
    /// have counted twice.
    Mapped(Arc<Bytes>, Range<usize>, u64),
}

impl Breaks {
    fn count(&self) -> u64 {
        match self {
            Breaks::Counted(breaks) => *breaks,
            Breaks::Mapped(bytes, range, split) => count_line_breaks(&bytes[range.clone()]) + split,
        }
    }

    /// Adds the next chunk's breaks to these when both are counted, or both are ranges of
    /// the same mapped input and `next`'s starts where this one ends; gives `next` back if
    /// not.
    fn merge(&mut self, next: Breaks) -> Option<Breaks> {
        match (self, next) {
            (Breaks::Counted(before), Breaks::Counted(breaks)) => *before += breaks,
            (
                Breaks::Mapped(bytes, range, split),
                Breaks::Mapped(next_bytes, next_range, next_split),
            ) if Arc::ptr_eq(bytes, &next_bytes) && range.end == next_range.start => {
                let cut = range.end;
                let splits_crlf =
                    cut > 0 && bytes[cut - 1] == b'\r' && bytes.get(cut) == Some(&b'\n');
                *split += next_split + u64::from(splits_crlf);
                range.end = next_range.end;
            }
            (_, next) => return Some(next),
        }
        None
    }
}

/// The most entries the list of chunks left uncounted holds: past it, they are counted.
/// Chunks of one mapped input merge into one entry, so this bounds the list whatever the
/// input without counting lines nobody asks for.
const MAX_UNCOUNTED: usize = 64;

/// A chunk's work on a worker: its bytes made, `process` run over them, a panic caught.
fn work<T, P>(chunk: SourceChunk, process: &P) -> Finished<T>
where
    T: ChunkOutput,
    P: Fn(&[u8], Origin, &ChunkInfo) -> T,
{
    let result = catch_unwind(AssertUnwindSafe(|| {
        let made = matches!(chunk.data, ChunkData::Deferred(_));
        let data = chunk.data.load()?;
        let output = process(&data, chunk.origin, &chunk.info);
        let breaks = breaks_of(&data, made, &chunk.info, &output);
        Ok((output, breaks))
    }));
    (result, chunk.info)
}

/// The line breaks of a processed chunk: known since it was cut (unless its bytes were
/// made on the worker, from a Parquet row group: then counted); counted on from where the
/// output's own line lookup stopped; left uncounted in a mapped input; or counted.
fn breaks_of<T: ChunkOutput>(data: &ChunkData, made: bool, info: &ChunkInfo, output: &T) -> Breaks {
    if let (Some(breaks), false) = (info.lines, made) {
        return Breaks::Counted(breaks);
    }
    match (output.lines_seen().filter(|&(at, _)| at > 0), data) {
        (Some(seen), _) => Breaks::Counted(line_breaks(data, Some(seen))),
        (None, ChunkData::Shared(bytes, range)) => {
            Breaks::Mapped(Arc::clone(bytes), range.clone(), 0)
        }
        (None, data) => Breaks::Counted(count_line_breaks(data)),
    }
}

/// The line breaks of a chunk's bytes, given those before a local offset when a line
/// lookup counted them ([`ChunkOutput::lines_seen`]): only the bytes after it are counted.
pub fn line_breaks(data: &[u8], seen: Option<(usize, u64)>) -> u64 {
    seen.and_then(|(at, before)| Some(before + count_line_breaks(data.get(at..)?)))
        .unwrap_or_else(|| count_line_breaks(data))
}

/// Cuts an input into chunks and numbers them, keeping at most a few per worker in flight
/// (cut, not yet handed to the sink).
struct Feeder<'o> {
    source: ChunkSource,
    options: &'o PipelineOptions,
    max_in_flight: u64,
    cut: u64,
    exhausted: bool,
    read_to: usize,
}

impl<'o> Feeder<'o> {
    fn new(input: &mut Input, pool: &rayon::ThreadPool, options: &'o PipelineOptions) -> Self {
        let per_thread = options.in_flight_per_thread.max(1);
        Feeder {
            source: ChunkSource::new(input, options),
            options,
            max_in_flight: (pool.current_num_threads() * per_thread).max(2) as u64,
            cut: 0,
            exhausted: false,
            read_to: 0,
        }
    }

    /// Hands `spawn` the next chunks with their numbers while fewer than the limit are in
    /// flight, `done` of them having reached the sink.
    fn fill(&mut self, done: u64, mut spawn: impl FnMut(u64, SourceChunk)) -> Result<(), Error> {
        while !self.exhausted && self.cut - done < self.max_in_flight {
            if self.options.stopped() {
                return Err(Error::Interrupted);
            }
            let chunk = self.source.next_chunk().map_err(|cause| Error::ReadAt {
                offset: self.read_to,
                cause,
            })?;
            let Some(chunk) = chunk else {
                self.exhausted = true;
                continue;
            };
            self.read_to = chunk.info.offset + chunk.info.len;
            spawn(self.cut, chunk);
            self.cut += 1;
        }
        Ok(())
    }

    /// Whether every chunk has been cut and `done` of them is all of them. A stop asked
    /// for while the last read was blocked still stops the run.
    fn finished(&self, done: u64) -> Result<bool, Error> {
        if self.exhausted && done == self.cut {
            if self.options.stopped() {
                return Err(Error::Interrupted);
            }
            return Ok(true);
        }
        Ok(false)
    }
}

/// Finished chunks waiting for their turn, and where the next chunk in input order starts.
struct Reorder<T> {
    next: u64,
    pending: BTreeMap<u64, Finished<T>>,
    /// The line after the chunks counted so far ...
    next_line: u64,
    /// ... and the chunks after them, not counted yet: no chunk since needed its lines.
    uncounted: Vec<Breaks>,
    next_game: u64,
}

impl<T: ChunkOutput> Reorder<T> {
    fn new(first_line: u64) -> Self {
        Reorder {
            next: 0,
            pending: BTreeMap::new(),
            next_line: first_line,
            uncounted: Vec::new(),
            next_game: 0,
        }
    }

    /// The next chunk in input order if it has finished, with its first game and, when it
    /// needs it (or all lines before it are counted), its absolute first line; a panic in
    /// its worker becomes [`Error::Internal`].
    fn pop(&mut self) -> Option<Result<(T, ChunkInfo), Error>> {
        let (result, mut info) = self.pending.remove(&self.next)?;
        self.next += 1;
        Some(match result {
            Err(_) => Err(Error::Internal {
                start: info.offset,
                end: info.offset + info.len,
            }),
            Ok(Err(e)) => Err(e),
            Ok(Ok((value, breaks))) => {
                if value.needs_lines() || value.failure().is_some() {
                    self.count_uncounted();
                }
                info.first_line = match self.uncounted.is_empty() {
                    true => self.next_line,
                    false => 0,
                };
                if let Some(failure) = value.failure() {
                    return Some(Err(Error::OutOfMemory {
                        line: info.line(failure.line),
                        message: failure.message.clone(),
                    }));
                }
                info.first_game = self.next_game;
                match breaks {
                    Breaks::Counted(n) if self.uncounted.is_empty() => self.next_line += n,
                    breaks => self.leave_uncounted(breaks),
                }
                self.next_game += value.games();
                Ok((value, info))
            }
        })
    }

    /// Leaves a chunk's breaks for later: merged into the last entry when they can be (see
    /// [`Breaks::merge`]); all counted once the list reaches [`MAX_UNCOUNTED`] entries.
    fn leave_uncounted(&mut self, breaks: Breaks) {
        let unmerged = match self.uncounted.last_mut() {
            Some(last) => last.merge(breaks),
            None => Some(breaks),
        };
        if let Some(breaks) = unmerged {
            self.uncounted.push(breaks);
        }
        if self.uncounted.len() >= MAX_UNCOUNTED {
            self.count_uncounted();
        }
    }

    /// Counts the lines of the chunks left uncounted.
    fn count_uncounted(&mut self) {
        for breaks in self.uncounted.drain(..) {
            self.next_line += breaks.count();
        }
    }
}

/// Runs `process` over every chunk of `input` on `pool`, and `sink` over the results in
/// input order on the calling thread. A panic inside `process` becomes
/// [`Error::Internal`], not a crash.
///
/// Afterwards, a memory-mapped input whose file changed length during the run is an
/// error (see [`crate::input::check_unchanged`]).
pub fn run<T, E, P, S>(
    input: &mut Input,
    pool: &rayon::ThreadPool,
    options: &PipelineOptions,
    process: P,
    sink: S,
) -> Result<(), E>
where
    T: Send + ChunkOutput,
    E: From<Error>,
    P: Fn(&[u8], Origin) -> T + Sync,
    S: FnMut(T, ChunkInfo) -> Result<(), E>,
{
    run_chunks(input, pool, options, |b, o, _| process(b, o), sink)
}

/// [`run`], with `process` also given the chunk's [`ChunkInfo`] as known when it was cut:
/// offset, length, whether it holds Parquet rows, and with
/// [`PipelineOptions::lines_at_cut`] its absolute first line (`first_game` is not known
/// yet: 0).
pub fn run_chunks<T, E, P, S>(
    input: &mut Input,
    pool: &rayon::ThreadPool,
    options: &PipelineOptions,
    process: P,
    mut sink: S,
) -> Result<(), E>
where
    T: Send + ChunkOutput,
    E: From<Error>,
    P: Fn(&[u8], Origin, &ChunkInfo) -> T + Sync,
    S: FnMut(T, ChunkInfo) -> Result<(), E>,
{
    let mut feeder = Feeder::new(input, pool, options);
    let process = &process;
    let outcome = pool.in_place_scope(|scope| -> Result<(), E> {
        let (tx, rx) = std::sync::mpsc::channel::<(u64, Finished<T>)>();
        let mut order = Reorder::new(feeder.source.first_line());
        loop {
            feeder.fill(order.next, |id, chunk| {
                let tx = tx.clone();
                scope.spawn(move |_| {
                    let _ = tx.send((id, work(chunk, process)));
                });
            })?;
            if feeder.finished(order.next)? {
                return Ok(());
            }
            let (id, finished) = rx
                .recv()
                .map_err(|_| Error::Internal { start: 0, end: 0 })?;
            order.pending.insert(id, finished);
            while let Some(next) = order.pop() {
                let (value, info) = next?;
                sink(value, info)?;
                if options.stopped() {
                    return Err(Error::Interrupted.into());
                }
            }
        }
    });
    drop(feeder);
    outcome?;
    crate::input::check_unchanged(input).map_err(E::from)
}

/// [`run_chunks`] with the sink called by the workers instead of the calling thread, still
/// in input order and never by two threads at once (an ordered commit): the worker that
/// finishes the chunk next in order hands it to the sink, then every finished chunk after
/// it; a worker that finishes a later chunk leaves it waiting and takes the next job. The
/// calling thread only cuts chunks (and decodes a compressed stream), so a sink that
/// writes outputs costs worker time, not a thread of its own.
pub fn run_chunks_committed<T, E, P, S>(
    input: &mut Input,
    pool: &rayon::ThreadPool,
    options: &PipelineOptions,
    process: P,
    sink: S,
) -> Result<(), E>
where
    T: Send + ChunkOutput,
    E: From<Error> + Send,
    P: Fn(&[u8], Origin, &ChunkInfo) -> T + Sync,
    S: FnMut(T, ChunkInfo) -> Result<(), E> + Send,
{
    let mut feeder = Feeder::new(input, pool, options);
    let commit = OrderedCommit::new(sink, options, feeder.source.first_line());
    let (process, commit) = (&process, &commit);
    let outcome = pool.in_place_scope(|scope| -> Result<(), E> {
        // One message per finished job: the calling thread wakes to cut more chunks.
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        loop {
            // Read before the error: a chunk counted as committed has left its error.
            let done = commit.committed();
            if let Some(error) = commit.take_error() {
                return Err(error);
            }
            let step = feeder
                .fill(done, |id, chunk| {
                    let tx = tx.clone();
                    scope.spawn(move |_| {
                        if !commit.failed() {
                            commit.finish(id, work(chunk, process));
                        }
                        let _ = tx.send(());
                    });
                })
                .and_then(|()| feeder.finished(done));
            match step {
                Ok(true) => return Ok(()),
                Ok(false) => {}
                Err(error) => {
                    commit.fail(None);
                    return Err(error.into());
                }
            }
            rx.recv()
                .map_err(|_| Error::Internal { start: 0, end: 0 })?;
        }
    });
    drop(feeder);
    outcome?;
    crate::input::check_unchanged(input).map_err(E::from)
}

/// The ordered commit of [`run_chunks_committed`]: finished chunks waiting for their turn,
/// the sink, and the first error (after which the sink is called no more).
struct OrderedCommit<'o, T, S, E> {
    order: Mutex<Turns<T>>,
    sink: Mutex<S>,
    options: &'o PipelineOptions,
    committed: AtomicU64,
    failed: AtomicBool,
    error: Mutex<Option<E>>,
}

/// The reorder buffer, and whether a worker is handing chunks to the sink right now.
struct Turns<T> {
    reorder: Reorder<T>,
    committing: bool,
}

/// A lock whatever a panic elsewhere left (every panic under these locks is caught first).
fn lock<V>(mutex: &Mutex<V>) -> MutexGuard<'_, V> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl<'o, T, S, E> OrderedCommit<'o, T, S, E>
where
    T: ChunkOutput,
    E: From<Error>,
    S: FnMut(T, ChunkInfo) -> Result<(), E>,
{
    fn new(sink: S, options: &'o PipelineOptions, first_line: u64) -> Self {
        OrderedCommit {
            order: Mutex::new(Turns {
                reorder: Reorder::new(first_line),
                committing: false,
            }),
            sink: Mutex::new(sink),
            options,
            committed: AtomicU64::new(0),
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
        }
    }

    /// Chunks handed to the sink (or dropped after an error) so far.
    fn committed(&self) -> u64 {
        self.committed.load(Ordering::Acquire)
    }

    fn failed(&self) -> bool {
        self.failed.load(Ordering::Acquire)
    }

    /// Stops every later call of the sink, keeping `error` if it is the first.
    fn fail(&self, error: Option<E>) {
        let mut first = lock(&self.error);
        if first.is_none() && !self.failed() {
            *first = error;
        }
        self.failed.store(true, Ordering::Release);
    }

    fn take_error(&self) -> Option<E> {
        lock(&self.error).take()
    }

    /// Leaves chunk `id` finished; if no other worker is committing, hands it and every
    /// finished chunk after it to the sink, in order, the reorder buffer unlocked
    /// meanwhile so that other workers can leave theirs.
    fn finish(&self, id: u64, finished: Finished<T>) {
        let mut turns = lock(&self.order);
        turns.reorder.pending.insert(id, finished);
        if turns.committing {
            return;
        }
        turns.committing = true;
        while let Some(next) = turns.reorder.pop() {
            drop(turns);
            self.commit(next);
            self.committed.fetch_add(1, Ordering::Release);
            turns = lock(&self.order);
        }
        turns.committing = false;
    }

    /// Hands one chunk to the sink; an error (the chunk's, the sink's, a panic in the sink,
    /// a stop asked for) ends the commit.
    fn commit(&self, next: Result<(T, ChunkInfo), Error>) {
        if self.failed() {
            return;
        }
        let outcome = next.map_err(E::from).and_then(|(value, info)| {
            let mut sink = lock(&self.sink);
            let called = catch_unwind(AssertUnwindSafe(|| (*sink)(value, info)));
            let internal = Error::Internal {
                start: info.offset,
                end: info.offset + info.len,
            };
            called.unwrap_or_else(|_| Err(internal.into()))
        });
        let outcome = outcome.and_then(|()| match self.options.stopped() {
            true => Err(Error::Interrupted.into()),
            false => Ok(()),
        });
        if let Err(error) = outcome {
            self.fail(Some(error));
        }
    }
}
/// Cuts `input` into chunks of about `target` bytes, each ending after a line break.
pub fn split_at_lines(input: &[u8], target: usize) -> Vec<pgn_parse::Chunk> {
    let mut chunks = Vec::new();
    let mut start = 0;
    while start < input.len() {
        let want = (start + target.max(1)).min(input.len());
        let end = match input[want..].iter().position(|&b| b == b'\n') {
            Some(i) => want + i + 1,
            None => input.len(),
        };
        chunks.push(pgn_parse::Chunk {
            range: start..end,
            followed_by_game: end < input.len(),
        });
        start = end;
    }
    chunks
}

/// A pool of `threads` workers (0 = one per core).
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Error> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("pgn960-worker-{i}"))
        .build()
        .map_err(|e| Error::Threads(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Bytes, InputName};

    struct Upper(Vec<u8>);
    impl ChunkOutput for Upper {
        fn games(&self) -> u64 {
            0
        }
    }

    fn sample(games: usize) -> Vec<u8> {
        let mut s = String::new();
        for i in 0..games {
            s.push_str(&format!(
                "[Event \"g{i}\"]\n\n1. e4 {{ [%clk 0:01:00] }} e5 *\n\n"
            ));
        }
        s.into_bytes()
    }

    fn collect(input: &mut Input, threads: usize, chunk: usize) -> (Vec<u8>, Vec<u64>) {
        let pool = thread_pool(threads).unwrap();
        let mut out = Vec::new();
        let mut lines = Vec::new();
        let options = PipelineOptions {
            chunk_bytes: chunk,
            in_flight_per_thread: 2,
            ..PipelineOptions::default()
        };
        run(
            input,
            &pool,
            &options,
            |bytes, _| Upper(bytes.to_ascii_uppercase()),
            |v, info| {
                // Each chunk starts on the line after the line breaks before it.
                assert_eq!(info.first_line, count_line_breaks(&out) + 1);
                lines.push(info.first_line);
                out.extend_from_slice(&v.0);
                Ok::<(), Error>(())
            },
        )
        .unwrap();
        (out, lines)
    }

    #[test]
    fn output_is_in_input_order_whatever_the_thread_count() {
        let data = sample(20_000);
        let expected = data.to_ascii_uppercase();
        for threads in [1, 2, 8] {
            let mut input = Input {
                name: InputName::Stdin,
                source: Source::Whole(Arc::new(Bytes::Owned(data.clone()))),
            };
            let (whole, lines) = collect(&mut input, threads, 4096);
            assert_eq!(whole, expected, "{threads} threads");
            assert!(lines.len() > 10);
            let mut stream = Input {
                name: InputName::Stdin,
                source: Source::Stream {
                    reader: Box::new(std::io::Cursor::new(data.clone())),
                    compressed_size: None,
                    compressed_read: None,
                },
            };
            let (streamed, _) = collect(&mut stream, threads, 4096);
            assert_eq!(streamed, expected, "stream, {threads} threads");
        }
    }

    #[test]
    fn lines_counted_at_cut_are_the_lines_the_sink_sees() {
        let data = sample(5_000);
        for stream in [false, true] {
            let source = if stream {
                Source::Stream {
                    reader: Box::new(std::io::Cursor::new(data.clone())),
                    compressed_size: None,
                    compressed_read: None,
                }
            } else {
                Source::Whole(Arc::new(Bytes::Owned(data.clone())))
            };
            let mut input = Input {
                name: InputName::Stdin,
                source,
            };
            let options = PipelineOptions {
                chunk_bytes: 4096,
                lines_at_cut: true,
                ..PipelineOptions::default()
            };
            let pool = thread_pool(2).unwrap();
            let mut chunks = 0;
            run_chunks(
                &mut input,
                &pool,
                &options,
                |_, _, info| Upper(info.first_line.to_le_bytes().to_vec()),
                |v, info| {
                    assert_eq!(v.0, info.first_line.to_le_bytes());
                    chunks += 1;
                    Ok::<(), Error>(())
                },
            )
            .unwrap();
            assert!(chunks > 10);
        }
    }

    fn whole_and_streamed(data: &[u8]) -> [Input; 2] {
        let whole = Input {
            name: InputName::Stdin,
            source: Source::Whole(Arc::new(Bytes::Owned(data.to_vec()))),
        };
        let stream = Input {
            name: InputName::Stdin,
            source: Source::Stream {
                reader: Box::new(std::io::Cursor::new(data.to_vec())),
                compressed_size: None,
                compressed_read: None,
            },
        };
        [whole, stream]
    }

    fn small_chunks() -> PipelineOptions {
        PipelineOptions {
            chunk_bytes: 4096,
            in_flight_per_thread: 2,
            ..PipelineOptions::default()
        }
    }

    #[test]
    fn committed_sink_runs_on_the_workers_in_input_order_one_at_a_time() {
        let data = sample(20_000);
        let expected = data.to_ascii_uppercase();
        for threads in [1, 2, 8] {
            for mut input in whole_and_streamed(&data) {
                let pool = thread_pool(threads).unwrap();
                let busy = AtomicBool::new(false);
                let caller = std::thread::current().id();
                let (mut out, mut chunks) = (Vec::new(), 0);
                run_chunks_committed(
                    &mut input,
                    &pool,
                    &small_chunks(),
                    |bytes, _, _| Upper(bytes.to_ascii_uppercase()),
                    |v, info| {
                        assert!(!busy.swap(true, Ordering::SeqCst), "two sinks at once");
                        assert_ne!(std::thread::current().id(), caller);
                        assert_eq!(info.first_line, count_line_breaks(&out) + 1);
                        out.extend_from_slice(&v.0);
                        chunks += 1;
                        busy.store(false, Ordering::SeqCst);
                        Ok::<(), Error>(())
                    },
                )
                .unwrap();
                assert_eq!(out, expected, "{threads} threads");
                assert!(chunks > 10);
            }
        }
    }

    #[test]
    fn a_committed_sink_error_stops_the_run_and_is_returned() {
        for mut input in whole_and_streamed(&sample(20_000)) {
            let pool = thread_pool(2).unwrap();
            let mut calls = 0;
            let result = run_chunks_committed(
                &mut input,
                &pool,
                &small_chunks(),
                |bytes, _, _| Upper(bytes.to_vec()),
                |_, info| {
                    calls += 1;
                    match calls {
                        3 => Err(Error::Internal {
                            start: info.offset,
                            end: 7,
                        }),
                        _ => Ok(()),
                    }
                },
            );
            assert!(matches!(result, Err(Error::Internal { end: 7, .. })));
            assert_eq!(calls, 3, "the sink is not called after its error");
        }
    }

    #[test]
    fn a_panic_in_a_committed_sink_or_a_worker_is_an_error() {
        let pool = thread_pool(2).unwrap();
        let [mut input, _] = whole_and_streamed(&sample(2_000));
        let result = run_chunks_committed(
            &mut input,
            &pool,
            &small_chunks(),
            |bytes, _, _| Upper(bytes.to_vec()),
            |_, _| -> Result<(), Error> { panic!("boom") },
        );
        assert!(matches!(result, Err(Error::Internal { start: 0, .. })));
        let [mut input, _] = whole_and_streamed(&sample(2_000));
        let result = run_chunks_committed(
            &mut input,
            &pool,
            &small_chunks(),
            |_, _, _| -> Upper { panic!("boom") },
            |_, _| Ok::<(), Error>(()),
        );
        assert!(matches!(result, Err(Error::Internal { .. })));
    }

    #[test]
    fn a_panic_in_a_worker_is_an_error() {
        let pool = thread_pool(2).unwrap();
        let mut input = Input {
            name: InputName::Stdin,
            source: Source::Whole(Arc::new(Bytes::Owned(sample(100)))),
        };
        let result = run(
            &mut input,
            &pool,
            &PipelineOptions::default(),
            |_, _| -> Upper { panic!("boom") },
            |_, _| Ok::<(), Error>(()),
        );
        assert!(matches!(result, Err(Error::Internal { .. })));
    }
    /// What a chunk's output says about its lines, decided at random from its place.
    struct Probe {
        needs: bool,
        seen: Option<(usize, u64)>,
    }
    impl ChunkOutput for Probe {
        fn games(&self) -> u64 {
            0
        }
        fn needs_lines(&self) -> bool {
            self.needs
        }
        fn lines_seen(&self) -> Option<(usize, u64)> {
            self.seen
        }
    }

    /// Random lines ending in LF, CRLF or a lone CR, some of them game starts.
    fn random_lines(rng: &mut crate::test_rng::Rng, lines: usize) -> Vec<u8> {
        let mut text = Vec::new();
        for _ in 0..lines {
            let len = rng.index(12);
            if rng.index(4) == 0 {
                text.extend_from_slice(b"[Event \"x\"]");
            }
            text.extend((0..len).map(|_| b"ab \r\n"[rng.index(5)]));
            text.extend_from_slice([&b"\n"[..], b"\r\n", b"\r"][rng.index(3)]);
        }
        text
    }

    fn input_of(data: &[u8], stream: bool) -> Input {
        let source = match stream {
            true => Source::Stream {
                reader: Box::new(std::io::Cursor::new(data.to_vec())),
                compressed_size: None,
                compressed_read: None,
            },
            false => Source::Whole(Arc::new(Bytes::Owned(data.to_vec()))),
        };
        Input {
            name: InputName::Stdin,
            source,
        }
    }

    /// A sink that checks each chunk's first line, when known, against the lines of every
    /// chunk before counted whole, in order (as they were before lines were left uncounted).
    fn lines_as_before(
        data: &[u8],
        round: usize,
    ) -> impl FnMut(Probe, ChunkInfo) -> Result<(), Error> + Send + '_ {
        let mut before = 1;
        move |v: Probe, info: ChunkInfo| {
            if v.needs || info.first_line != 0 {
                assert_eq!(info.first_line, before, "round {round}, {info:?}");
            }
            before += count_line_breaks(&data[info.offset..info.offset + info.len]);
            Ok(())
        }
    }

    #[test]
    fn chunks_left_uncounted_merge_and_count_as_each_alone() {
        let mut rng = crate::test_rng::Rng(0x0dd_c0de);
        for round in 0..300 {
            let lines = 1 + rng.index(200);
            let data = random_lines(&mut rng, lines);
            let bytes = Arc::new(Bytes::Owned(data.clone()));
            let mut reorder = Reorder::<Probe>::new(1);
            let (mut at, mut alone) = (0, 0);
            while at < data.len() {
                let end = (at + 1 + rng.index(6)).min(data.len());
                let counted = [rng.index(2) == 0, rng.index(8) == 0, false][round % 3];
                let breaks = match counted {
                    true => Breaks::Counted(count_line_breaks(&data[at..end])),
                    false => Breaks::Mapped(Arc::clone(&bytes), at..end, 0),
                };
                alone += count_line_breaks(&data[at..end]);
                reorder.leave_uncounted(breaks);
                assert!(reorder.uncounted.len() < MAX_UNCOUNTED);
                if round % 3 == 2 {
                    assert_eq!(reorder.uncounted.len(), 1, "one mapped input, one entry");
                }
                at = end;
            }
            reorder.count_uncounted();
            assert_eq!(reorder.next_line, 1 + alone, "round {round}");
        }
    }

    #[test]
    fn lines_left_uncounted_are_counted_as_every_chunk_was_before() {
        let mut rng = crate::test_rng::Rng(0x5eed_11e5);
        for round in 0..60 {
            let lines = 1 + rng.index(400);
            let data = random_lines(&mut rng, lines);
            let seed = rng.next();
            let options = PipelineOptions {
                chunk_bytes: 1 + rng.index(if round % 2 == 0 { 8 } else { 300 }),
                cut: [Cut::Games, Cut::Lines][rng.index(2)],
                in_flight_per_thread: 1 + rng.index(3),
                lines_at_cut: rng.index(4) == 0,
                ..PipelineOptions::default()
            };
            let probe = |bytes: &[u8], _: Origin, info: &ChunkInfo| {
                let mut r = crate::test_rng::Rng(seed ^ ((info.offset as u64 + 1) * 0x9e37));
                let mut index = pgn_parse::LineIndex::new(1);
                index.locate(bytes, r.index(bytes.len() + 1));
                Probe {
                    needs: r.index(3) == 0,
                    seen: index.reached().filter(|_| r.index(2) == 0),
                }
            };
            for (stream, threads) in [(false, 1), (false, 3), (true, 2)] {
                let pool = thread_pool(threads).unwrap();
                let mut input = input_of(&data, stream);
                run_chunks(
                    &mut input,
                    &pool,
                    &options,
                    probe,
                    lines_as_before(&data, round),
                )
                .unwrap();
                let mut input = input_of(&data, stream);
                let sink = lines_as_before(&data, round);
                run_chunks_committed(&mut input, &pool, &options, probe, sink).unwrap();
            }
        }
    }

    #[test]
    fn line_breaks_from_a_line_lookup_are_those_of_the_whole_chunk() {
        let mut rng = crate::test_rng::Rng(0xc0ffee);
        for _ in 0..2000 {
            let lines = rng.index(30);
            let data = random_lines(&mut rng, lines);
            let mut index = pgn_parse::LineIndex::new(1 + rng.index(9) as u32);
            for _ in 0..rng.index(4) {
                index.locate(&data, rng.index(data.len() + 1));
            }
            let seen = index.reached();
            assert_eq!(
                line_breaks(&data, seen),
                count_line_breaks(&data),
                "{seen:?}"
            );
        }
    }

    /// Where every rejected game's problem and the first junk are, chunked as `options`
    /// say: what `check` prints.
    fn reject_places(
        data: &[u8],
        stream: bool,
        threads: usize,
        options: &PipelineOptions,
    ) -> Vec<(u64, u64, u32, u64)> {
        let pool = thread_pool(threads).unwrap();
        let opts = crate::archive::ArchiveOptions::default();
        let (mut places, mut junk) = (Vec::new(), None);
        let mut input = input_of(data, stream);
        run(
            &mut input,
            &pool,
            options,
            |bytes, origin| crate::archive::chunk::process_chunk(bytes, origin, &opts),
            |outcome, info| {
                if let (None, Some((line, column))) = (junk, outcome.first_junk) {
                    junk = Some((0, info.line(line), column, 0));
                }
                for (i, fate) in outcome.fates.into_iter().enumerate() {
                    if let crate::archive::chunk::Fate::Rejected { problem, .. } = fate {
                        let row = crate::archive::reject_row(&info, "f", i, problem);
                        places.push((row.game, row.line, row.column, row.game_line));
                    }
                }
                Ok::<(), Error>(())
            },
        )
        .unwrap();
        places.extend(junk);
        places
    }

    #[test]
    fn reject_lines_do_not_depend_on_the_chunks() {
        let fen = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n";
        let mut rng = crate::test_rng::Rng(0xbad_9a3e5);
        for round in 0..12 {
            let mut text = String::new();
            for g in 0..40 + rng.index(200) {
                text.push_str(&format!("[Event \"g{g}\"]\n{fen}\n1. d4 d5\n2. c4 c6\n"));
                match rng.index(8) {
                    0 => text.push_str("3. Ke5 *\n\n"),
                    1 => text.push_str("3. Nd3 *\n\njunk between games\n\n"),
                    _ => text.push_str("3. Nd3 *\n\n"),
                }
            }
            let eol = [&b"\n"[..], b"\r\n", b"\r"];
            let mut data = Vec::new();
            for line in text.split_inclusive('\n') {
                data.extend_from_slice(line.trim_end_matches('\n').as_bytes());
                data.extend_from_slice(
                    eol[if round % 3 == 0 {
                        rng.index(3)
                    } else {
                        round % 3
                    }],
                );
            }
            let whole = PipelineOptions {
                chunk_bytes: usize::MAX / 2,
                ..PipelineOptions::default()
            };
            let expected = reject_places(&data, false, 1, &whole);
            assert!(expected.len() > 3, "round {round}: {expected:?}");
            for chunk_bytes in [1, 5, 97, 1000, 4096] {
                let options = PipelineOptions {
                    chunk_bytes,
                    ..PipelineOptions::default()
                };
                for (stream, threads) in [(false, 1), (false, 2), (true, 2)] {
                    let places = reject_places(&data, stream, threads, &options);
                    assert_eq!(
                        places, expected,
                        "round {round}, {chunk_bytes} bytes, stream {stream}"
                    );
                }
            }
        }
    }
}
