//! The writing verbs as functions: `check`, `clean`, `export`, `filter` and `split`, each
//! the library's engine of the command ([`pgn960::archive`], [`pgn960::export`]) over the
//! same output plan as the command line, so that the files written are the command's byte
//! for byte; each returns a [`Summary`].

use crate::analysis::{interruptible_with, FilterArgs};
use crate::errors::{from_library, located, option_error, At, Error, IoError};
use crate::scan::{checked_sp, game_limit, missing_variant, spec_of, AssumeSpArg};
use crate::selection::SelectionArgs;
use chess960_core::CastlingStyle;
use pgn960::archive::clean::{CleanRun, CleanTargets, Cleaned};
use pgn960::archive::filter::{FilterRun, FilterTargets};
use pgn960::archive::pick::{PickOptions, PickSummary};
use pgn960::archive::split::{
    check_template, default_max_open, Existing, SplitBy, SplitOptions, SplitRun, SplitTargets,
};
use pgn960::archive::{self, ArchiveOptions, ArchiveSummary, Outputs, RejectRow};
use pgn960::driver::{Driver, DriverOptions};
use pgn960::export::{ExportRun, Exported};
use pgn960::output::OutputError;
use pgn960::select::Selection;
use pgn960::table::columns::UciCastling;
use pgn960::table::TableFormat;
use pgn960::validate::variant::VariantSpelling;
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

/// The counts of a verb, and what it wrote. Every game read is accounted for: `check`:
/// games = valid + unsupported + invalid; `clean`: games = written + invalid +
/// deduplicated; `export`: games = written + the games skipped; `filter` and `split`:
/// games = written + not selected + invalid.
#[pyclass(name = "Summary", module = "pgn960", frozen, get_all)]
pub struct Summary {
    /// The verb: `check`, `clean`, `export`, `filter` or `split`.
    pub verb: String,
    /// Games read.
    pub games: u64,
    /// Valid games (`clean`: written or deduplicated); None for `filter` and `split`,
    /// which do not replay the games their tags drop.
    pub valid: Option<u64>,
    /// Games of other variants (passed through untouched by `clean`); None for `filter`
    /// and `split`.
    pub unsupported: Option<u64>,
    /// Games rejected (invalid).
    pub invalid: u64,
    /// Games written (`clean`: valid kept plus other variants; `export`: games exported;
    /// `filter`, `split`: games selected; 0 for `check`).
    pub written: u64,
    /// Valid games dropped as repeats (`clean`, `dedupe=True`).
    pub deduplicated: u64,
    /// Games read but not selected (`filter`, `split`).
    pub not_selected: u64,
    /// Rows of the table (`export`), else None.
    pub rows: Option<u64>,
    /// Rejected games by reason (`illegal-move`, ...).
    pub reasons: Py<PyDict>,
    /// Games of other variants by name (`check`, `clean`).
    pub variants: Py<PyDict>,
    /// Repairs by kind (`check`, `clean`; a game may have several).
    pub repairs: Py<PyDict>,
    /// Games not selected, by the first filter that dropped them (`filtered-min-elo`, ...).
    pub not_selected_by: Py<PyDict>,
    /// Games not exported, by reason (`export`: invalid games and other variants, unless
    /// `include_invalid`).
    pub skipped: Py<PyDict>,
    /// The files `split` wrote in its directory, by name, with their games.
    pub files: Py<PyDict>,
    /// Bytes between games that were not PGN, skipped.
    pub junk_bytes: u64,
    /// Where the first of them is (`file:line:column`), or None.
    pub first_junk: Option<String>,
    /// Bytes read.
    pub bytes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// The files written, by what they hold (`-o`, `rejected games`, `reasons of rejected
    /// games`, `--rejects`, `--report`).
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
        let count = |n: Option<u64>| n.map_or("None".to_string(), |n| n.to_string());
        format!(
            "Summary(verb={:?}, games={}, valid={}, unsupported={}, invalid={}, written={}, deduplicated={}, not_selected={}, reasons={}, outputs={})",
            self.verb,
            self.games,
            count(self.valid),
            count(self.unsupported),
            self.invalid,
            self.written,
            self.deduplicated,
            self.not_selected,
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

/// The files written, as a dict of paths by what they hold.
fn outputs(py: Python<'_>, files: &[(&str, PathBuf)]) -> PyResult<Py<PyDict>> {
    let dict = PyDict::new(py);
    for (role, path) in files {
        dict.set_item(*role, path.display().to_string())?;
    }
    Ok(dict.unbind())
}

impl Summary {
    /// An empty summary of `verb`.
    fn empty(py: Python<'_>, verb: &str) -> Summary {
        Summary {
            verb: verb.to_string(),
            games: 0,
            valid: None,
            unsupported: None,
            invalid: 0,
            written: 0,
            deduplicated: 0,
            not_selected: 0,
            rows: None,
            reasons: PyDict::new(py).unbind(),
            variants: PyDict::new(py).unbind(),
            repairs: PyDict::new(py).unbind(),
            not_selected_by: PyDict::new(py).unbind(),
            skipped: PyDict::new(py).unbind(),
            files: PyDict::new(py).unbind(),
            junk_bytes: 0,
            first_junk: None,
            bytes: 0,
            seconds: 0.0,
            outputs: PyDict::new(py).unbind(),
            problems: PyList::empty(py).unbind(),
        }
    }

    /// The summary of `check` or `clean`.
    fn archive(
        py: Python<'_>,
        verb: &str,
        s: &ArchiveSummary,
        files: &[(&str, PathBuf)],
        problems: &[RejectRow],
    ) -> PyResult<Summary> {
        let list = PyList::empty(py);
        for row in problems {
            list.append(problem(py, row)?)?;
        }
        Ok(Summary {
            games: s.games_read,
            valid: Some(s.valid),
            unsupported: Some(s.unsupported_variant),
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
            outputs: outputs(py, files)?,
            problems: list.unbind(),
            ..Summary::empty(py, verb)
        })
    }

    /// The summary of `filter` or `split`.
    fn picked(
        py: Python<'_>,
        verb: &str,
        s: &PickSummary,
        files: &[(&str, PathBuf)],
    ) -> PyResult<Summary> {
        Ok(Summary {
            games: s.games_read,
            invalid: s.rejected,
            written: s.selected,
            not_selected: s.not_selected,
            reasons: counts(py, &s.rejected_by_reason)?,
            not_selected_by: counts(py, &s.not_selected_by)?,
            junk_bytes: s.junk_bytes,
            first_junk: s.first_junk.clone(),
            bytes: s.bytes,
            seconds: s.seconds,
            outputs: outputs(py, files)?,
            ..Summary::empty(py, verb)
        })
    }

    /// The summary of `export`: invalid games by reason whether exported or skipped.
    fn exported(py: Python<'_>, e: &Exported) -> PyResult<Summary> {
        let c = &e.counts;
        let mut reasons: BTreeMap<&str, u64> = BTreeMap::new();
        for (reason, n) in c.skipped.iter().chain(&c.exported_invalid) {
            if *reason != "unsupported-variant" {
                *reasons.entry(*reason).or_default() += n;
            }
        }
        let files: Vec<(&str, PathBuf)> = e.file.iter().map(|p| ("-o", p.clone())).collect();
        Ok(Summary {
            games: c.games_read,
            valid: Some(c.valid),
            unsupported: Some(c.games_read.saturating_sub(c.valid + c.rejected)),
            invalid: c.rejected,
            written: c.exported,
            rows: Some(c.rows),
            reasons: counts(py, &reasons)?,
            skipped: counts(py, &c.skipped)?,
            bytes: e.bytes,
            seconds: e.seconds,
            outputs: outputs(py, &files)?,
            ..Summary::empty(py, "export")
        })
    }
}

/// How games are read: the global options of the command line.
#[derive(Clone, Copy)]
struct Reading {
    threads: usize,
    missing: pgn960::validate::MissingVariant,
    max_game_bytes: usize,
    assume_sp: Option<chess960_core::SpPair>,
}

impl Reading {
    fn new(
        threads: usize,
        variant: &str,
        max_game_bytes: Option<usize>,
        assume_sp: Option<AssumeSpArg>,
    ) -> PyResult<Reading> {
        Ok(Reading {
            threads,
            missing: missing_variant(variant)?,
            max_game_bytes: game_limit(max_game_bytes),
            assume_sp: checked_sp(assume_sp)?,
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

    /// How `filter` and `split` pick games from `selection` and write them.
    fn pick_options<'s>(&self, selection: &'s Selection, writing: Writing) -> PickOptions<'s> {
        PickOptions {
            selection,
            normalise: writing.normalise,
            variant_tag: writing.variant_tag,
            write: true,
            missing_variant: self.missing,
            max_game_bytes: self.max_game_bytes,
            assume_sp: self.assume_sp,
            key: None,
        }
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
    assume_sp: Option<AssumeSpArg>,
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
    Summary::archive(py, "check", &summary, &[], &problems)
}

/// `pgn960._native.clean`: writes every valid game normalised and the rejected ones
/// with their reasons, as `pgn960 clean` with the same options.
#[pyfunction]
#[pyo3(signature = (src, output, rejects, report, fen_style, strip_comments, keep_annotations,
    strip_variations, drop_bad_variations, dedupe, min_plies, threads, variant,
    max_game_bytes, assume_sp, variant_tag="chess960"))]
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
    assume_sp: Option<AssumeSpArg>,
    variant_tag: &str,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    if keep_annotations.is_some() && !strip_comments {
        return Err(option_error("keep_annotations needs strip_comments=True"));
    }
    let opts = reading.archive_options(ArchiveOptions {
        write: true,
        fen_style: castling_style(fen_style)?,
        variant_tag: variant_spelling(variant_tag)?,
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
    Summary::archive(py, "clean", &cleaned.summary, &cleaned.files, &[])
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

/// The Variant tag of written Chess960 games (`--variant-tag`).
fn variant_spelling(name: &str) -> PyResult<VariantSpelling> {
    name.parse().map_err(|_| {
        option_error(format!(
            "variant_tag must be \"chess960\", \"fischerandom\" or \"chess 960\", not {name:?}"
        ))
    })
}

/// How `filter` and `split` write the games they select: as read, or normalised
/// (`--normalise`, `--fen-style`, `--variant-tag`).
#[derive(Clone, Copy)]
struct Writing {
    normalise: Option<CastlingStyle>,
    variant_tag: VariantSpelling,
}

impl Writing {
    fn new(
        normalise: bool,
        fen_style: Option<&str>,
        variant_tag: Option<&str>,
    ) -> PyResult<Writing> {
        if !normalise && (fen_style.is_some() || variant_tag.is_some()) {
            return Err(option_error(
                "fen_style and variant_tag need normalise=True",
            ));
        }
        Ok(Writing {
            normalise: normalise
                .then(|| castling_style(fen_style.unwrap_or("xfen")))
                .transpose()?,
            variant_tag: variant_spelling(variant_tag.unwrap_or("chess960"))?,
        })
    }
}

/// `pgn960._native.export`: every game as a row of a Parquet, CSV or JSON Lines table, as
/// `pgn960 export` with the same options writes it.
#[pyfunction]
#[pyo3(signature = (src, output, format, per, columns, tags, include_invalid, movetext,
    uci_castling, row_group_mb, threads, variant, max_game_bytes, assume_sp=None))]
#[allow(clippy::too_many_arguments)]
pub fn export(
    py: Python<'_>,
    src: Vec<PathBuf>,
    output: PathBuf,
    format: Option<&str>,
    per: &str,
    columns: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    include_invalid: bool,
    movetext: bool,
    uci_castling: &str,
    row_group_mb: u32,
    threads: usize,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    let format = table_format(&output, format)?;
    let castling = UciCastling::from_name(uci_castling).ok_or_else(|| {
        option_error(format!(
            "uci_castling must be \"king-takes-rook\" or \"king-two-squares\", not {uci_castling:?}"
        ))
    })?;
    if !(1..=1024).contains(&row_group_mb) {
        return Err(option_error("row_group_mb must be 1 to 1024"));
    }
    let mut spec = spec_of(per, columns, tags, include_invalid, movetext, variant)?
        .with_uci_castling(castling);
    spec.max_game_bytes = reading.max_game_bytes;
    spec.assume_sp = reading.assume_sp;
    let chunk_bytes = (row_group_mb as usize) << 20;
    let exported = interruptible_with(
        py,
        move |stop| {
            let run = ExportRun::new(&src, &output, format, true)?;
            let driver = reading.driver(&src, stop)?;
            run.write(driver, &spec, chunk_bytes)
        },
        to_python,
    )?;
    Summary::exported(py, &exported)
}

/// The format of `export`'s table: `format` if given, else the extension's (the command's
/// rule, [`TableFormat::choose`]).
fn table_format(output: &std::path::Path, format: Option<&str>) -> PyResult<TableFormat> {
    let given = format
        .map(|name| {
            TableFormat::from_name(name).ok_or_else(|| {
                option_error(format!(
                    "format must be \"parquet\", \"csv\" or \"jsonl\", not {name:?}"
                ))
            })
        })
        .transpose()?;
    let accepted = [TableFormat::Parquet, TableFormat::Csv, TableFormat::Jsonl];
    TableFormat::choose("export", output, given, &accepted, None)
        .map_err(|e| option_error(e.to_string()))
}

/// `pgn960._native.filter`: the games `selection` (with `filters`) keeps, as `pgn960
/// filter` with the same options writes them; without `output`, only counted (`--count`).
#[pyfunction]
#[pyo3(signature = (src, output, rejects, report, normalise, fen_style, variant_tag, filters,
    selection, threads, variant, max_game_bytes, assume_sp))]
#[allow(clippy::too_many_arguments)]
pub fn filter(
    py: Python<'_>,
    src: Vec<PathBuf>,
    output: Option<PathBuf>,
    rejects: Option<PathBuf>,
    report: Option<PathBuf>,
    normalise: bool,
    fen_style: Option<&str>,
    variant_tag: Option<&str>,
    filters: FilterArgs,
    selection: SelectionArgs,
    threads: usize,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    let writing = Writing::new(normalise, fen_style, variant_tag)?;
    let selection = selection.selection(filters)?;
    let targets = FilterTargets {
        output,
        rejects,
        report,
    };
    let filtered = interruptible_with(
        py,
        move |stop| {
            let run = FilterRun::new(&src, &targets, true)?;
            let driver = reading.driver(&src, stop)?;
            run.write(driver, &reading.pick_options(&selection, writing))
        },
        to_python,
    )?;
    Summary::picked(py, "filter", &filtered.summary, &filtered.files)
}

/// `pgn960._native.split`: the games `selection` keeps, one file per value of `by` in the
/// directory `output`, as `pgn960 split` with the same options writes them.
#[pyfunction]
#[pyo3(signature = (src, output, by, template, max_open, force, append, rejects, report,
    normalise, fen_style, variant_tag, filters, selection, threads, variant, max_game_bytes,
    assume_sp))]
#[allow(clippy::too_many_arguments)]
pub fn split(
    py: Python<'_>,
    src: Vec<PathBuf>,
    output: PathBuf,
    by: &str,
    template: String,
    max_open: Option<usize>,
    force: bool,
    append: bool,
    rejects: Option<PathBuf>,
    report: Option<PathBuf>,
    normalise: bool,
    fen_style: Option<&str>,
    variant_tag: Option<&str>,
    filters: FilterArgs,
    selection: SelectionArgs,
    threads: usize,
    variant: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<Summary> {
    let reading = Reading::new(threads, variant, max_game_bytes, assume_sp)?;
    let writing = Writing::new(normalise, fen_style, variant_tag)?;
    let selection = selection.selection(filters)?;
    let by: SplitBy = by.replace('_', "-").parse().map_err(option_error)?;
    check_template(&template).map_err(option_error)?;
    let existing = match (force, append) {
        (true, true) => return Err(option_error("force and append cannot both be given")),
        (true, false) => Existing::Replace,
        (false, true) => Existing::Append,
        (false, false) => Existing::Refuse,
    };
    let options = SplitOptions {
        by,
        template,
        max_open: max_open.unwrap_or_else(default_max_open),
        existing,
    };
    let targets = SplitTargets {
        dir: output,
        rejects,
        report,
    };
    let done = interruptible_with(
        py,
        move |stop| {
            let run = SplitRun::new(&src, &targets, options, true)?;
            let driver = reading.driver(&src, stop)?;
            run.write(driver, &reading.pick_options(&selection, writing))
        },
        to_python,
    )?;
    let mut summary = Summary::picked(py, "split", &done.summary, &done.outputs)?;
    summary.files = counts(py, &done.files)?;
    Ok(summary)
}
