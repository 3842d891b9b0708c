//! Tables: the inputs validated on a worker thread pool into Arrow record batches of the
//! library's schema, handed over in input order through a bounded channel (so memory
//! stays bounded however large the input), plus the counts of `check`.

use crate::errors::{self, from_library, located, option_error, At, InputError};
use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, SchemaRef};
use pgn960::input::{expand_inputs, InputName};
use pgn960::pipeline::{self, ChunkOutput, PipelineOptions};
use pgn960::range::ByteRange;
use pgn960::table::arrow::{chunk_batch, schema as table_schema};
use pgn960::table::{table_rows, ExportCounts, Grain, TableSpec};
use pgn960::validate::MissingVariant;
use pyo3::prelude::*;
use pyo3_arrow::{PyRecordBatchReader, PySchema, PyTable};
use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender};
use std::time::Duration;

/// Bytes of PGN per chunk of work (and so per record batch, about 300 games a MB).
const CHUNK_BYTES: usize = 4 << 20;
/// Finished batches waiting for the consumer.
const QUEUE: usize = 2;
/// How often a wait checks for Ctrl-C.
pub(crate) const TICK: Duration = Duration::from_millis(100);
/// The error a stream ends with on Ctrl-C (pyarrow shows it as `External error: ...`).
const INTERRUPTED: &str = "interrupted";

/// Why a run stopped, made into a Python error by the consumer (which holds the GIL).
#[derive(Debug)]
pub enum Failure {
    /// The library's error.
    Library(pgn960::Error),
    /// An input that is not games.
    Input { path: String, message: String },
    /// Arrow refused a batch (a bug).
    Arrow(ArrowError),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Library(e) => write!(f, "{e}"),
            Failure::Input { path, message } => write!(f, "{path}: {message}"),
            Failure::Arrow(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for Failure {}

impl Failure {
    fn into_py(self) -> PyErr {
        match self {
            Failure::Library(e) => from_library(e),
            Failure::Input { path, message } => located::<InputError>(
                format!("{path}: {message}"),
                At {
                    path: Some(path),
                    line: Some(1),
                    offset: Some(0),
                },
            ),
            Failure::Arrow(e) => located::<errors::Error>(e.to_string(), At::default()),
        }
    }
}

/// What a run reads and makes.
pub struct Job {
    /// The inputs, expanded.
    pub names: Vec<InputName>,
    /// The table.
    pub spec: TableSpec,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Only this byte range of the one input, with the line of its start when known.
    pub range: Option<ByteRange>,
    /// Build record batches (else only count).
    pub batches: bool,
}

/// One chunk's rows and counts.
pub struct ChunkRows {
    batch: Option<Result<RecordBatch, ArrowError>>,
    counts: ExportCounts,
}

impl ChunkOutput for ChunkRows {
    fn games(&self) -> u64 {
        self.counts.games_read
    }
}

type Item = Result<ChunkRows, Failure>;

/// Runs `job` on a new thread; its chunks come out of the receiver in input order. The
/// run stops at its next chunk once the receiver is dropped.
pub fn start(job: Job) -> Receiver<Item> {
    let (tx, rx) = sync_channel(QUEUE);
    std::thread::spawn(move || {
        if let Err(failure) = produce(&job, &tx) {
            let _ = tx.send(Err(failure));
        }
    });
    rx
}

fn produce(job: &Job, tx: &SyncSender<Item>) -> Result<(), Failure> {
    let pool = pipeline::thread_pool(job.threads).map_err(Failure::Library)?;
    let schema = table_schema(&job.spec.columns);
    for name in &job.names {
        let mut input = pgn960::input::open(name).map_err(Failure::Library)?;
        let head = input.peek(256).map_err(Failure::Library)?;
        let refuse = |message: String| Failure::Input {
            path: name.to_string(),
            message,
        };
        if let Some(format) = pgn960::compression::unsupported_format(&head) {
            return Err(refuse(format));
        }
        let options = PipelineOptions {
            chunk_bytes: CHUNK_BYTES,
            lines_at_cut: true,
            max_game_bytes: job.spec.max_game_bytes,
            ..PipelineOptions::default()
        };
        let options = match job.range {
            Some(range) => range.options(&input, options).map_err(Failure::Library)?,
            None => options,
        };
        let source = name.to_string();
        let (spec, batches) = (&job.spec, job.batches);
        let mut games = 0;
        pipeline::run_chunks(
            &mut input,
            &pool,
            &options,
            |bytes, origin, info| match batches {
                true => {
                    let (batch, counts) = chunk_batch(bytes, origin, info, &source, spec, &schema);
                    ChunkRows {
                        batch: Some(batch),
                        counts,
                    }
                }
                false => ChunkRows {
                    batch: None,
                    counts: table_rows(bytes, origin, info, &source, spec, |_, _| {}),
                },
            },
            |rows, _| {
                games += rows.counts.games_read;
                tx.send(Ok(rows)).map_err(|_| pgn960::Error::Interrupted)
            },
        )
        .map_err(Failure::Library)?;
        if games == 0 && job.range.is_none() {
            let what = pgn960::compression::describe_bytes(&head);
            return Err(refuse(format!("no game found: {what}")));
        }
    }
    Ok(())
}

/// Calls `f` with every chunk in order, waiting with the GIL released and checking for
/// Ctrl-C meanwhile.
fn each_chunk(
    py: Python<'_>,
    rx: Receiver<Item>,
    mut f: impl FnMut(ChunkRows) -> PyResult<()>,
) -> PyResult<()> {
    // Behind a lock only to cross into the closure run without the GIL (`Receiver` is
    // not `Sync`); nothing else takes it.
    let rx = std::sync::Mutex::new(rx);
    let wait = || {
        rx.lock()
            .map_err(|_| RecvTimeoutError::Disconnected)
            .and_then(|rx| rx.recv_timeout(TICK))
    };
    loop {
        match py.detach(wait) {
            Ok(Ok(rows)) => f(rows)?,
            Ok(Err(failure)) => return Err(failure.into_py()),
            Err(RecvTimeoutError::Disconnected) => return Ok(()),
            Err(RecvTimeoutError::Timeout) => py.check_signals()?,
        }
    }
}

/// A table's options from Python's arguments.
pub fn spec_of(
    per: &str,
    columns: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    include_invalid: bool,
    movetext: bool,
    variant: &str,
) -> PyResult<TableSpec> {
    let grain = match per {
        "game" => Grain::Game,
        "ply" => Grain::Ply,
        other => {
            return Err(option_error(format!(
                "per must be \"game\" or \"ply\", not {other:?}"
            )))
        }
    };
    let mut spec = TableSpec::new(
        grain,
        &tags.unwrap_or_default(),
        movetext,
        &columns.unwrap_or_default(),
        include_invalid,
    )
    .map_err(option_error)?;
    spec.missing_variant = missing_variant(variant)?;
    Ok(spec)
}

/// The game size limit of `max_game_bytes` (`None`: the command's default, 64 MiB; 0: no
/// limit).
pub fn game_limit(max_game_bytes: Option<usize>) -> usize {
    max_game_bytes.unwrap_or(pgn960::pipeline::DEFAULT_MAX_GAME_BYTES)
}

/// `assume_sp` as Python gives it: an SP, a Double Chess960 pair `(white SP, black SP)`, or
/// the text `--assume-sp` takes (`"518"`, `"588,301"`, `"(588, 301)"`).
#[derive(FromPyObject)]
pub enum AssumeSpArg {
    /// An SP number.
    Sp(i64),
    /// A pair: white's SP and black's.
    Pair(i64, i64),
    /// The text of `--assume-sp`.
    Text(String),
}

/// The start `assume_sp` names, `(n, n)` for an SP n; an option error unless each SP is
/// 0..959.
pub fn checked_sp(assume_sp: Option<AssumeSpArg>) -> PyResult<Option<chess960_core::SpPair>> {
    let sp = |n: i64| {
        u16::try_from(n).ok().filter(|&n| n < 960).ok_or_else(|| {
            option_error(format!(
                "assume_sp must be an SP number 0..959 or a pair (white SP, black SP), not {n}"
            ))
        })
    };
    let start = match assume_sp {
        None => return Ok(None),
        Some(AssumeSpArg::Sp(n)) => (sp(n)?, sp(n)?),
        Some(AssumeSpArg::Pair(white, black)) => (sp(white)?, sp(black)?),
        Some(AssumeSpArg::Text(text)) => pgn960::validate::parse_assumed_start(&text)
            .map_err(|e| option_error(format!("assume_sp: {e}")))?,
    };
    Ok(Some(start))
}

/// What games without a Variant tag are.
pub fn missing_variant(variant: &str) -> PyResult<MissingVariant> {
    match variant {
        "detect" => Ok(MissingVariant::Detect),
        "chess960" => Ok(MissingVariant::Chess960),
        "double-chess960" => Ok(MissingVariant::DoubleChess960),
        other => Err(option_error(format!(
            "variant must be \"detect\", \"chess960\" or \"double-chess960\", not {other:?}"
        ))),
    }
}

/// The inputs named by Python's paths, expanded as the CLI does.
pub fn inputs(src: Vec<PathBuf>) -> PyResult<Vec<InputName>> {
    if src.is_empty() {
        return Err(option_error("no input given"));
    }
    expand_inputs(&src).map_err(from_library)
}

/// Chunks as a record batch reader, in input order.
struct Batches {
    rx: Receiver<Item>,
    schema: SchemaRef,
}

impl Iterator for Batches {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            let item = match self.rx.recv_timeout(TICK) {
                Ok(item) => item,
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {
                    if Python::attach(|py| py.check_signals()).is_err() {
                        // The stream can only say so through Arrow's error; the package's
                        // reader (`pgn960._interruptible`) raises it as KeyboardInterrupt.
                        return Some(Err(ArrowError::ExternalError(INTERRUPTED.into())));
                    }
                    continue;
                }
            };
            match item {
                Ok(ChunkRows {
                    batch: Some(Ok(batch)),
                    ..
                }) if batch.num_rows() > 0 => return Some(Ok(batch)),
                Ok(ChunkRows {
                    batch: Some(Err(e)),
                    ..
                }) => return Some(Err(e)),
                Ok(_) => continue,
                Err(failure) => return Some(Err(ArrowError::ExternalError(Box::new(failure)))),
            }
        }
    }
}

impl RecordBatchReader for Batches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// `pgn960._native.scan`: the table as a stream of record batches.
#[pyfunction]
#[pyo3(signature = (src, per, columns, tags, include_invalid, movetext, threads, variant, start=None, end=None, first_line=None, assume_sp=None, max_game_bytes=None))]
#[allow(clippy::too_many_arguments)]
pub fn scan(
    src: Vec<PathBuf>,
    per: &str,
    columns: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    include_invalid: bool,
    movetext: bool,
    threads: usize,
    variant: &str,
    start: Option<u64>,
    end: Option<u64>,
    first_line: Option<u64>,
    assume_sp: Option<AssumeSpArg>,
    max_game_bytes: Option<usize>,
) -> PyResult<PyRecordBatchReader> {
    let mut spec = spec_of(per, columns, tags, include_invalid, movetext, variant)?;
    spec.assume_sp = checked_sp(assume_sp)?;
    spec.max_game_bytes = game_limit(max_game_bytes);
    let schema = table_schema(&spec.columns);
    let job = Job {
        names: inputs(src)?,
        spec,
        threads,
        range: range(start, end, first_line)?,
        batches: true,
    };
    Ok(PyRecordBatchReader::new(Box::new(Batches {
        rx: start_job(job)?,
        schema,
    })))
}

/// A range given as `start` and `end`, both or neither (`first_line` only with them).
pub fn range(
    start: Option<u64>,
    end: Option<u64>,
    first_line: Option<u64>,
) -> PyResult<Option<ByteRange>> {
    match (start, end) {
        (Some(start), Some(end)) => Ok(Some(ByteRange {
            start,
            end,
            first_line,
        })),
        (None, None) if first_line.is_none() => Ok(None),
        (None, None) => Err(option_error("first_line is the line of a range's start")),
        _ => Err(option_error("give both start and end, or neither")),
    }
}

fn start_job(job: Job) -> PyResult<Receiver<Item>> {
    if let Some(range) = job.range {
        let [name] = job.names.as_slice() else {
            return Err(option_error("a byte range is of one file"));
        };
        // A range the input cannot give is refused at the call, not when the batches come.
        let input = pgn960::input::open(name).map_err(from_library)?;
        range
            .options(&input, PipelineOptions::default())
            .map_err(from_library)?;
    }
    Ok(start(job))
}

/// `pgn960._native.to_arrow`: the whole table, read with the GIL released.
#[pyfunction]
#[pyo3(signature = (src, per, columns, tags, include_invalid, movetext, threads, variant, start=None, end=None, first_line=None, assume_sp=None, max_game_bytes=None))]
#[allow(clippy::too_many_arguments)]
pub fn to_arrow(
    py: Python<'_>,
    src: Vec<PathBuf>,
    per: &str,
    columns: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    include_invalid: bool,
    movetext: bool,
    threads: usize,
    variant: &str,
    start: Option<u64>,
    end: Option<u64>,
    first_line: Option<u64>,
    assume_sp: Option<AssumeSpArg>,
    max_game_bytes: Option<usize>,
) -> PyResult<PyTable> {
    let mut spec = spec_of(per, columns, tags, include_invalid, movetext, variant)?;
    spec.assume_sp = checked_sp(assume_sp)?;
    spec.max_game_bytes = game_limit(max_game_bytes);
    let schema = table_schema(&spec.columns);
    let rx = start_job(Job {
        names: inputs(src)?,
        spec,
        threads,
        range: range(start, end, first_line)?,
        batches: true,
    })?;
    let mut batches = Vec::new();
    each_chunk(py, rx, |rows| {
        match rows.batch {
            Some(Ok(batch)) if batch.num_rows() > 0 => batches.push(batch),
            Some(Err(e)) => return Err(Failure::Arrow(e).into_py()),
            _ => {}
        }
        Ok(())
    })?;
    PyTable::try_new(batches, schema).map_err(|e| option_error(e.to_string()))
}

/// `pgn960._native.schema`: the Arrow schema of a table.
#[pyfunction]
#[pyo3(signature = (per, columns, tags, movetext))]
pub fn schema(
    per: &str,
    columns: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    movetext: bool,
) -> PyResult<PySchema> {
    let spec = spec_of(per, columns, tags, false, movetext, "detect")?;
    Ok(PySchema::new(table_schema(&spec.columns)))
}

/// `pgn960._native.partitions`: `(path, start, end, first_line)` of every partition, in
/// input order.
#[pyfunction]
pub fn partitions(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    target_bytes: u64,
) -> PyResult<Vec<(String, u64, u64, u64)>> {
    let parts = py
        .detach(|| pgn960::range::partitions(&paths, target_bytes))
        .map_err(from_library)?;
    Ok(parts
        .into_iter()
        .map(|p| (p.path.display().to_string(), p.start, p.end, p.first_line))
        .collect())
}
