//! Games as records: every game of an input with its verdict and, on request, its tags,
//! moves, annotations and text — one owned value per game, in input order, read on the
//! calling thread ([`Records`]) or on a thread pool ([`ParRecords`]).

use crate::error::{Error, Result};
use crate::input::Input;
use crate::pipeline::{ChunkInfo, ChunkOutput, ChunkSource, PipelineOptions};
use crate::validate::{validate_chunk, GameKind, ValidGame, ValidateOptions, Verdict};
use chess960_core::StartKind;
use pgn_parse::{count_line_breaks, Origin};
use std::collections::{BTreeMap, VecDeque};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// What a record holds beyond the verdict. The default: the verdict and the tags.
#[derive(Debug, Clone, Copy)]
pub struct RecordOptions {
    /// What validation works out (set [`ValidateOptions::moves`] for the moves with their
    /// SAN, UCI, clocks and evaluations).
    pub validate: ValidateOptions,
    /// Decode the tags into [`GameRecord::tags`].
    pub tags: bool,
    /// Keep the game's bytes in [`GameRecord::text`].
    pub text: bool,
}

impl Default for RecordOptions {
    fn default() -> RecordOptions {
        RecordOptions {
            validate: ValidateOptions::default(),
            tags: true,
            text: false,
        }
    }
}

/// One game of an input.
#[derive(Debug, Clone)]
pub struct GameRecord {
    /// The input it was read from (a path, `<stdin>`, or a label).
    pub source: Arc<str>,
    /// 0-based index of the game in its input.
    pub index: u64,
    /// Byte offset of the game's first byte in the (decoded) input.
    pub offset: usize,
    /// 1-based line of the game's first byte (of the text built from the rows, for a
    /// Parquet input).
    pub line: u64,
    /// For a Parquet input, the 0-based row the game was read from.
    pub row: Option<u64>,
    /// The tags in file order, decoded (UTF-8, else Latin-1), when asked for.
    pub tags: Vec<(String, String)>,
    /// The verdict.
    pub verdict: Verdict,
    /// The absolute (line, column) of the rejection, for an invalid game.
    pub problem_at: Option<(u64, u32)>,
    /// The game's bytes as read, when asked for.
    pub text: Option<Vec<u8>>,
}

impl GameRecord {
    /// The valid game, if the game is valid.
    pub fn valid(&self) -> Option<&ValidGame> {
        self.verdict.valid()
    }

    /// The value of the first tag named `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl ValidGame {
    /// The Chess960 start position number (0..959; 518 is the classical array), or for a
    /// Double Chess960 start white's; `None` when the game starts elsewhere.
    pub fn sp(&self) -> Option<u16> {
        match self.class.kind {
            StartKind::Chess960(sp) => Some(sp),
            StartKind::DoubleChess960 { white, .. } => Some(white),
            StartKind::NotAStart => None,
        }
    }

    /// Black's start position number, for a Double Chess960 start only.
    pub fn black_sp(&self) -> Option<u16> {
        match self.class.kind {
            StartKind::DoubleChess960 { black, .. } => Some(black),
            _ => None,
        }
    }

    /// Whether the game is played under Chess960 rules (else classical chess).
    pub fn is_chess960(&self) -> bool {
        self.kind == GameKind::Chess960
    }

    /// The start position in X-FEN.
    pub fn start_xfen(&self) -> String {
        self.start.to_string()
    }

    /// The position after the last main-line move, in X-FEN.
    pub fn final_xfen(&self) -> String {
        self.end.to_string()
    }
}

/// The records of one chunk, with lines and indices counted from its start.
pub struct ChunkRecords {
    /// The records.
    pub records: Vec<GameRecord>,
    /// Bytes between games that were not a game.
    pub junk_bytes: u64,
}

impl ChunkOutput for ChunkRecords {
    fn games(&self) -> u64 {
        self.records.len() as u64
    }
}

/// Validates every game of a chunk into records (lines and indices chunk-relative).
pub fn chunk_records(
    bytes: &[u8],
    origin: Origin,
    options: &RecordOptions,
    source: &Arc<str>,
) -> ChunkRecords {
    let mut records = Vec::new();
    let counts = validate_chunk(bytes, origin, &options.validate, true, |judged| {
        let text = options.text.then(|| {
            let range =
                judged.byte_range.start - origin.offset..judged.byte_range.end - origin.offset;
            bytes[range].to_vec()
        });
        let tags = if options.tags {
            judged
                .tags
                .iter()
                .map(|t| {
                    let name = String::from_utf8_lossy(t.name).into_owned();
                    (name, t.value_str().into_owned())
                })
                .collect()
        } else {
            Vec::new()
        };
        records.push(GameRecord {
            source: Arc::clone(source),
            index: judged.index,
            offset: judged.byte_range.start,
            line: u64::from(judged.line.unwrap_or(1)),
            row: None,
            tags,
            verdict: judged.verdict,
            problem_at: judged.problem_at.map(|(l, c)| (u64::from(l), c)),
            text,
        });
    });
    ChunkRecords {
        records,
        junk_bytes: counts.junk_bytes,
    }
}

/// Makes a chunk's records' lines and indices absolute.
fn make_absolute(records: &mut [GameRecord], info: &ChunkInfo) {
    for record in records {
        record.index += info.first_game;
        record.line = info.line(record.line as u32);
        #[cfg(feature = "parquet")]
        if info.rows {
            record.row = Some(crate::parquet::row_of_line(record.line));
        }
        if let Some((line, column)) = record.problem_at {
            record.problem_at = Some((info.line(line as u32), column));
        }
    }
}

/// Where an ordered iterator gets its chunks' records: the next chunk in input order
/// (records, where it was, its line breaks), or `None` at the end.
trait Feed {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo, u64)>>;
}

/// Records made absolute, waiting to be handed out in input order: what the sequential
/// and the parallel iterators share.
struct Ordered<F> {
    feed: F,
    queue: VecDeque<GameRecord>,
    next_line: u64,
    next_game: u64,
    done: bool,
}

impl<F: Feed> Ordered<F> {
    fn new(feed: F) -> Ordered<F> {
        Ordered {
            feed,
            queue: VecDeque::new(),
            next_line: 1,
            next_game: 0,
            done: false,
        }
    }

    /// The next record; an error ends the iteration after it is returned.
    fn next_record(&mut self) -> Option<Result<GameRecord>> {
        loop {
            if let Some(record) = self.queue.pop_front() {
                return Some(Ok(record));
            }
            if self.done {
                return None;
            }
            match self.feed.next_records() {
                Ok(Some((mut out, info, line_breaks))) => {
                    let info = ChunkInfo {
                        first_line: self.next_line,
                        first_game: self.next_game,
                        ..info
                    };
                    self.next_line += line_breaks;
                    self.next_game += out.games();
                    make_absolute(&mut out.records, &info);
                    self.queue.extend(out.records);
                }
                Ok(None) => self.done = true,
                Err(e) => {
                    self.done = true;
                    return Some(Err(e));
                }
            }
        }
    }
}

/// Chunks read and validated on the calling thread.
struct Sequential {
    input: Input,
    source: Option<ChunkSource>,
    name: Arc<str>,
    options: RecordOptions,
    read_to: usize,
    junk_bytes: u64,
}

impl Feed for Sequential {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo, u64)>> {
        let Some(source) = self.source.as_mut() else {
            return Ok(None);
        };
        let chunk = source.next_chunk().map_err(|cause| Error::ReadAt {
            offset: self.read_to,
            cause,
        })?;
        let Some(chunk) = chunk else {
            self.source = None;
            crate::input::check_unchanged(&self.input)?;
            return Ok(None);
        };
        self.read_to = chunk.info.offset + chunk.info.len;
        let data = chunk.data.load()?;
        let out = chunk_records(&data, chunk.origin, &self.options, &self.name);
        self.junk_bytes += out.junk_bytes;
        Ok(Some((out, chunk.info, count_line_breaks(&data))))
    }
}

/// The records of an input, read and validated on the calling thread, in input order.
pub struct Records(Ordered<Sequential>);

impl Records {
    /// The records of `input`.
    pub fn new(mut input: Input, options: RecordOptions) -> Records {
        let source = ChunkSource::new(&mut input, &PipelineOptions::default());
        Records(Ordered::new(Sequential {
            name: Arc::from(input.name.to_string()),
            input,
            source: Some(source),
            options,
            read_to: 0,
            junk_bytes: 0,
        }))
    }

    /// Bytes between games that were not a game, so far.
    pub fn junk_bytes(&self) -> u64 {
        self.0.feed.junk_bytes
    }
}

impl Iterator for Records {
    type Item = Result<GameRecord>;

    fn next(&mut self) -> Option<Result<GameRecord>> {
        self.0.next_record()
    }
}

/// A finished chunk of [`ParRecords`]: its records and line breaks, or its panic.
type Finished = (
    u64,
    std::thread::Result<Result<(ChunkRecords, u64)>>,
    ChunkInfo,
);

/// Chunks validated on a thread pool, taken back in input order.
struct Parallel {
    input: Input,
    source: Option<ChunkSource>,
    pool: Arc<rayon::ThreadPool>,
    name: Arc<str>,
    options: RecordOptions,
    sender: Sender<Finished>,
    receiver: Receiver<Finished>,
    pending: BTreeMap<u64, Finished>,
    spawned: u64,
    emitted: u64,
    max_in_flight: u64,
    read_to: usize,
}

impl Parallel {
    /// Spawns jobs until the in-flight limit or the end of the input.
    fn spawn(&mut self) -> Result<()> {
        while self.spawned - self.emitted < self.max_in_flight {
            let Some(source) = self.source.as_mut() else {
                return Ok(());
            };
            let chunk = source.next_chunk().map_err(|cause| Error::ReadAt {
                offset: self.read_to,
                cause,
            })?;
            let Some(chunk) = chunk else {
                self.source = None;
                return Ok(());
            };
            self.read_to = chunk.info.offset + chunk.info.len;
            let (id, sender, options, name) = (
                self.spawned,
                self.sender.clone(),
                self.options,
                Arc::clone(&self.name),
            );
            self.pool.spawn(move || {
                let result = catch_unwind(AssertUnwindSafe(|| {
                    let data = chunk.data.load()?;
                    let records = chunk_records(&data, chunk.origin, &options, &name);
                    Ok((records, count_line_breaks(&data)))
                }));
                let _ = sender.send((id, result, chunk.info));
            });
            self.spawned += 1;
        }
        Ok(())
    }
}

impl Feed for Parallel {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo, u64)>> {
        self.spawn()?;
        if self.emitted == self.spawned {
            crate::input::check_unchanged(&self.input)?;
            return Ok(None);
        }
        while !self.pending.contains_key(&self.emitted) {
            let finished = self
                .receiver
                .recv()
                .map_err(|_| Error::Internal { start: 0, end: 0 })?;
            self.pending.insert(finished.0, finished);
        }
        let Some((_, result, info)) = self.pending.remove(&self.emitted) else {
            return Ok(None);
        };
        self.emitted += 1;
        let Ok(result) = result else {
            return Err(Error::Internal {
                start: info.offset,
                end: info.offset + info.len,
            });
        };
        let (out, line_breaks) = result?;
        Ok(Some((out, info, line_breaks)))
    }
}

/// The records of an input, validated on a thread pool, handed out in input order. At
/// most a few chunks per thread are in flight, so memory stays bounded.
pub struct ParRecords(Ordered<Parallel>);

impl ParRecords {
    /// The records of `input`, validated on `pool`.
    pub fn new(
        mut input: Input,
        options: RecordOptions,
        pool: Arc<rayon::ThreadPool>,
    ) -> ParRecords {
        let source = ChunkSource::new(&mut input, &PipelineOptions::default());
        let (sender, receiver) = channel();
        let max_in_flight = (pool.current_num_threads() as u64 * 4).max(2);
        ParRecords(Ordered::new(Parallel {
            name: Arc::from(input.name.to_string()),
            input,
            source: Some(source),
            pool,
            options,
            sender,
            receiver,
            pending: BTreeMap::new(),
            spawned: 0,
            emitted: 0,
            max_in_flight,
            read_to: 0,
        }))
    }
}

impl Iterator for ParRecords {
    type Item = Result<GameRecord>;

    fn next(&mut self) -> Option<Result<GameRecord>> {
        self.0.next_record()
    }
}
