//! Games as records: every game of an input with its verdict and, on request, its tags,
//! moves, annotations and text — one owned value per game, in input order, read on the
//! calling thread ([`Records`]) or on a thread pool by the one pipeline ([`ParRecords`]).

use crate::error::{Error, Result};
use crate::input::Input;
use crate::pipeline::{ChunkInfo, ChunkOutput, ChunkSource, PipelineOptions};
use crate::validate::{validate_chunk, GameKind, ValidGame, ValidateOptions, Verdict};
use chess960_core::StartKind;
use pgn_parse::Origin;
use std::collections::VecDeque;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
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
    /// How far the chunk's line lookup went (to its last game's first line).
    pub lines_seen: Option<(usize, u64)>,
}

impl ChunkOutput for ChunkRecords {
    fn games(&self) -> u64 {
        self.records.len() as u64
    }
    fn lines_seen(&self) -> Option<(usize, u64)> {
        self.lines_seen
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
        lines_seen: counts.lines_seen,
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
/// (records, and where it was with its first line and game absolute), or `None` at the end.
trait Feed {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo)>>;
}

/// Records made absolute, waiting to be handed out in input order: what the sequential
/// and the parallel iterators share.
struct Ordered<F> {
    feed: F,
    queue: VecDeque<GameRecord>,
    done: bool,
}

impl<F: Feed> Ordered<F> {
    fn new(feed: F) -> Ordered<F> {
        Ordered {
            feed,
            queue: VecDeque::new(),
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
            let fed = self.feed.next_records();
            if let Some(error) = self.take(fed) {
                return Some(Err(error));
            }
        }
    }

    /// Queues a chunk's records made absolute (or ends at the input's end or an error,
    /// which is handed back to be returned).
    fn take(&mut self, fed: Result<Option<(ChunkRecords, ChunkInfo)>>) -> Option<Error> {
        match fed {
            Ok(Some((mut out, info))) => {
                make_absolute(&mut out.records, &info);
                self.queue.extend(out.records);
                None
            }
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(e)
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
    next_line: u64,
    next_game: u64,
}

impl Feed for Sequential {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo)>> {
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
        let info = ChunkInfo {
            first_line: self.next_line,
            first_game: self.next_game,
            ..chunk.info
        };
        self.next_line += crate::pipeline::line_breaks(&data, out.lines_seen);
        self.next_game += out.games();
        Ok(Some((out, info)))
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
            next_line: 1,
            next_game: 0,
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

/// What the pipeline hands [`ParRecords`]: a chunk's records in input order (line breaks
/// already counted into its [`ChunkInfo`]), or the error that ended the run.
type Delivered = Result<(ChunkRecords, ChunkInfo)>;

/// Chunks validated by [`crate::pipeline::run`] on a thread pool, driven from a thread of
/// its own and taken back, in input order, through a bounded channel.
struct Parallel {
    receiver: Receiver<Delivered>,
}

impl Feed for Parallel {
    fn next_records(&mut self) -> Result<Option<(ChunkRecords, ChunkInfo)>> {
        match self.receiver.recv() {
            Ok(delivered) => delivered.map(Some),
            Err(_) => Ok(None),
        }
    }
}

/// Runs the pipeline over `input`, sending each chunk's records to `sender` in input order;
/// stops when the receiver is gone.
fn drive(
    mut input: Input,
    options: RecordOptions,
    pool: Arc<rayon::ThreadPool>,
    sender: SyncSender<Delivered>,
) {
    let name: Arc<str> = Arc::from(input.name.to_string());
    let outcome = crate::pipeline::run(
        &mut input,
        &pool,
        &PipelineOptions::default(),
        |bytes, origin| chunk_records(bytes, origin, &options, &name),
        |out, info| sender.send(Ok((out, info))).map_err(|_| Error::Interrupted),
    );
    if let Err(error) = outcome {
        let _ = sender.send(Err(error));
    }
}

/// The records of an input, validated on a thread pool, handed out in input order. At
/// most a few chunks per thread are in flight, so memory stays bounded.
pub struct ParRecords(Ordered<Parallel>);

impl ParRecords {
    /// The records of `input`, validated on `pool`.
    pub fn new(input: Input, options: RecordOptions, pool: Arc<rayon::ThreadPool>) -> ParRecords {
        let (sender, receiver) = sync_channel(pool.current_num_threads() * 4);
        std::thread::spawn(move || drive(input, options, pool, sender));
        ParRecords(Ordered::new(Parallel { receiver }))
    }

    /// The next record as [`Iterator::next`] gives it, waiting at most `wait` for the
    /// workers: `None` when none came in time (a caller that must stay responsive, to
    /// Ctrl-C say, asks again).
    pub fn next_within(&mut self, wait: std::time::Duration) -> Option<Option<Result<GameRecord>>> {
        use std::sync::mpsc::RecvTimeoutError;
        let ordered = &mut self.0;
        while ordered.queue.is_empty() && !ordered.done {
            let fed = match ordered.feed.receiver.recv_timeout(wait) {
                Ok(delivered) => delivered.map(Some),
                Err(RecvTimeoutError::Timeout) => return None,
                Err(RecvTimeoutError::Disconnected) => Ok(None),
            };
            if let Some(error) = ordered.take(fed) {
                return Some(Some(Err(error)));
            }
        }
        Some(ordered.next_record())
    }
}

impl Iterator for ParRecords {
    type Item = Result<GameRecord>;

    fn next(&mut self) -> Option<Result<GameRecord>> {
        self.0.next_record()
    }
}
