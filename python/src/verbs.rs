//! The writing verbs as functions: `check` and `clean`, each the library's
//! [`pgn960::archive`] engine over the same output plan as the command line, so that the
//! files written are the command's byte for byte; each returns a [`Summary`].

use crate::analysis::interruptible_with;
use crate::errors::{from_library, located, option_error, At, Error, IoError};
use crate::scan::missing_variant;
use chess960_core::CastlingStyle;
use pgn960::archive::clean::{CleanRun, CleanTargets, Cleaned};
use pgn960::archive::{self, ArchiveOptions, ArchiveSummary, Outputs, RejectRow};
use pgn960::driver::{Driver, DriverOptions};
use pgn960::output::OutputError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// Why a verb stopped: reading (the library's error) or writing (an output's).
pub enum VerbError {
    /// Reading an input.
    Library(pgn960::Error),
    /// Planning, writing or renaming an output.
    Output(OutputError),
}

impl From<pgn960::Error> for VerbError {
    fn from(error: pgn960::Error) -> VerbError {
        VerbError::Library(error)
    }
}

impl From<OutputError> for VerbError {
    fn from(error: OutputError) -> VerbError {
        match error {
            OutputError::Input(error) => VerbError::Library(error),
            other => VerbError::Output(other),
        }
    }
}

/// The Python error of a verb's error: the library's classes for reading; `IoError` for
/// an output that cannot be written, `OptionError`-like refusals (an output that is an
/// input, two outputs the same file) as `Error`.
fn to_python(error: VerbError) -> PyErr {
    match error {
        VerbError::Library(error) => from_library(error),
        VerbError::Output(error) => {
            let message = full_message(&error);
            match error.io_kind() {
                Some(_) => located::<IoError>(message, At::default()),
                None => located::<Error>(message, At::default()),
            }
        }
    }
}

/// An error with its causes, as the command line prints it (`cannot write X: disk full`).
fn full_message(error: &dyn std::error::Error) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(c) = cause {
        message.push_str(&format!(": {c}"));
        cause = c.source();
    }
    message
}

/// The counts of a verb, and what it wrote: games read = valid + unsupported + invalid;
/// for `clean`, games read = written + invalid + deduplicated.
#[pyclass(name = "Summary", module = "pgn960", frozen, get_all)]
pub struct Summary {
    /// Games read.
    pub games: u64,
    /// Valid games (written or deduplicated by `clean`).
    pub valid: u64,
    /// Games of other variants (passed through untouched by `clean`).
    pub unsupported: u64,
    /// Games rejected (invalid).
    pub invalid: u64,
    /// Games written (`clean`: valid kept plus other variants; 0 for `check`).
    pub written: u64,
    /// Valid games dropped as repeats (`dedupe=True`).
    pub deduplicated: u64,
    /// Rejected games by reason (`illegal-move`, ...).
    pub reasons: Py<PyDict>,
    /// Games of other variants by name.
    pub variants: Py<PyDict>,
    /// Repairs by kind (a game may have several).
    pub repairs: Py<PyDict>,
    /// Bytes between games that were not PGN, skipped.
    pub junk_bytes: u64,
    /// Where the first of them is (`file:line:column`), or None.
    pub first_junk: Option<String>,
    /// Bytes read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The files written, by what they hold (`-o`, `rejected games`, `reasons of rejected
    /// games`, `--report`).
    pub outputs: Py<PyDict>,
    /// The first problems (`check`: up to `max_errors`), each a dict with the columns of
    /// the reasons file (`game`, `file`, `line`, `column`, `byte_offset`, `game_line`,
    /// `reason`, `detail`, `white`, `black`, `site`) and `message`.
    pub problems: Py<PyList>,
}

#[pymethods]
impl Summary {
    fn __repr__(&self, py: Python<'_>) -> String {
        let repr = |d: &Py<PyDict>| d.bind(py).repr().map(|r| r.to_string());
        format!(
            "Summary(games={}, valid={}, unsupported={}, invalid={}, written={}, deduplicated={}, reasons={}, outputs={})",
            self.games,
            self.valid,
            self.unsupported,
            self.invalid,
            self.written,
            self.deduplicated,
            repr(&self.reasons).unwrap_or_default(),
            repr(&self.outputs).unwrap_or_default(),
        )
    }
}

/// A dict of counts.
fn counts<K: AsRef<str>>(py: Python<'_>, map: &BTreeMap<K, u64>) -> PyResult<Py<PyDict>> {
    let dict = PyDict::new(py);
    for (k, n) in map {
        dict.set_item(k.as_ref(), n)?;
    }
    Ok(dict.unbind())
}

/// A problem as a dict.
fn problem(py: Python<'_>, row: &RejectRow) -> PyResult<Py<PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("game", row.game)?;
    dict.set_item("file", &row.file)?;
    dict.set_item("line", row.line)?;
    dict.set_item("column", row.column)?;
    dict.set_item("byte_offset", row.byte_offset)?;
    dict.set_item("game_line", row.game_line)?;
    dict.set_item("reason", row.reason)?;
    dict.set_item("detail", &row.detail)?;
    dict.set_item("white", &row.white)?;
    dict.set_item("black", &row.black)?;
    dict.set_item("site", &row.site)?;
    dict.set_item("message", row.message())?;
    Ok(dict.unbind())
}

impl Summary {
    fn new(
        py: Python<'_>,
        s: &ArchiveSummary,
        files: &[(&str, PathBuf)],
        problems: &[RejectRow],
    ) -> PyResult<Summary> {
        let outputs = PyDict::new(py);
        for (role, path) in files {
            outputs.set_item(*role, path.display().to_string())?;
        }
        let list = PyList::empty(py);
        for row in problems {
            list.append(problem(py, row)?)?;
        }
        Ok(Summary {
            games: s.games_read,
            valid: s.valid,
            unsupported: s.unsupported_variant,
            invalid: s.rejected,
            written: s.written,
            deduplicated: s.deduplicated,
            reasons: counts(py, &s.rejected_by_reason)?,
            variants: counts(py, &s.unsupported_by_variant)?,
            repairs: counts(py, &s.repairs)?,
            junk_bytes: s.junk_bytes,
            first_junk: s.first_junk.clone(),
            bytes: s.bytes,
            seconds: s.seconds,
            outputs: outputs.unbind(),
            problems: list.unbind(),
        })
    }
}

/// How games are read: the global options of the command line.
#[derive(Clone, Copy)]
struct Reading {
    threads: usize,
    missing: pgn960::validate::MissingVariant,
    max_game_bytes: usize,
    assume_sp: Option<u16>,
}

impl Reading {
    fn new(
        threads: usize,
        variant: &str,
        max_game_bytes: Option<usize>,
        assume_sp: Option<u16>,
    ) -> PyResult<Reading> {
        if assume_sp.is_some_and(|sp| sp > 959) {
            return Err(option_error("assume_sp must be an SP number, 0..959"));
        }
        Ok(Reading {
            threads,
            missing: missing_variant(variant)?,
            max_game_bytes: max_game_bytes.unwrap_or(pgn960::pipeline::DEFAULT_MAX_GAME_BYTES),
            assume_sp,
        })
    }

    /// A driver over `inputs`, stopped by `stop`, showing no progress.
    fn driver(
        &self,
        inputs: &[PathBuf],
        stop: &'static AtomicBool,
    ) -> Result<Driver<VerbError>, VerbError> {
        let options = DriverOptions {
            threads: self.threads,
            max_game_bytes: self.max_game_bytes,
            stop: Some(stop),
        };
        Ok(Driver::new(inputs, options, |_| Box::new(()))?)
    }

    /// `opts` with how games are read.
    fn archive_options(&self, opts: ArchiveOptions) -> ArchiveOptions {
        ArchiveOptions {
            missing_variant: self.missing,
            max_game_bytes: self.max_game_bytes,
            assume_sp: self.assume_sp,
            ..opts
        }
    }
}

/// `pgn960._native.check`: validates every game, as `pgn960 check`; the first
/// `max_errors` problems kept.
#[pyfunction]
#[pyo3(signature = (src, threads, variant, max_game_bytes, assume_sp, max_errors))]
pub fn check(
    py: Python<'_>,
    src: Vec<PathBuf>,
    threads: usize,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<u16>,
    max_errors: usize,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    let (summary, problems) = interruptible_with(
        py,
        move |stop| {
            let driver = reading.driver(&src, stop)?;
            let mut problems = Vec::new();
            let summary = archive::run(
                driver,
                &reading.archive_options(ArchiveOptions::default()),
                &mut Outputs::default(),
                &mut |row| {
                    if problems.len() < max_errors {
                        problems.push(row.clone());
                    }
                },
            )?;
            Ok((summary, problems))
        },
        to_python,
    )?;
    Summary::new(py, &summary, &[], &problems)
}

/// `pgn960._native.clean`: writes every valid game normalised and the rejected ones
/// with their reasons, as `pgn960 clean` with the same options.
#[pyfunction]
#[pyo3(signature = (src, output, rejects, report, fen_style, strip_comments, keep_annotations,
    strip_variations, drop_bad_variations, dedupe, min_plies, threads, variant,
    max_game_bytes, assume_sp))]
#[allow(clippy::too_many_arguments)]
pub fn clean(
    py: Python<'_>,
    src: Vec<PathBuf>,
    output: PathBuf,
    rejects: Option<PathBuf>,
    report: Option<PathBuf>,
    fen_style: &str,
    strip_comments: bool,
    keep_annotations: Option<Vec<String>>,
    strip_variations: bool,
    drop_bad_variations: bool,
    dedupe: bool,
    min_plies: Option<u32>,
    threads: usize,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<u16>,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    if keep_annotations.is_some() && !strip_comments {
        return Err(option_error("keep_annotations needs strip_comments=True"));
    }
    let opts = reading.archive_options(ArchiveOptions {
        write: true,
        fen_style: castling_style(fen_style)?,
        strip_comments,
        keep_annotations: keep_annotations.and_then(|names| match names.as_slice() {
            [] => None,
            names if names.iter().any(|n| n == "all") => Some(Vec::new()),
            names => Some(names.to_vec()),
        }),
        strip_variations,
        drop_bad_variations,
        min_plies,
        dedupe,
        ..ArchiveOptions::default()
    });
    let targets = CleanTargets {
        output,
        rejects,
        report,
    };
    let cleaned: Cleaned = interruptible_with(
        py,
        move |stop| {
            let run = CleanRun::new(&src, &targets, true)?;
            let driver = reading.driver(&src, stop)?;
            run.write(driver, &opts)
        },
        to_python,
    )?;
    Summary::new(py, &cleaned.summary, &cleaned.files, &[])
}

/// The FEN spelling of written Chess960 games.
fn castling_style(name: &str) -> PyResult<CastlingStyle> {
    match name {
        "xfen" => Ok(CastlingStyle::Xfen),
        "shredder" => Ok(CastlingStyle::Shredder),
        other => Err(option_error(format!(
            "fen_style must be \"xfen\" or \"shredder\", not {other:?}"
        ))),
    }
}
