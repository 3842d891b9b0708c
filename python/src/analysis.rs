//! `pgn960.stats`, `merge_stats`, `tree` and `pentanomials`: the library's analyses
//! ([`pgn960::stats`], [`pgn960::tree`]), written as the CSV bytes `pgn960 stats` and
//! `pgn960 tree` write (one definition of the rows); the Python layer reads them into
//! `pyarrow.Table`s with fixed column types.

use crate::errors::{from_library, option_error};
use crate::scan::{checked_sp, game_limit, inputs, missing_variant, AssumeSpArg};
use pgn960::select::{Date, Filters, Speed};
use pgn960::stats::by::ByKey;
use pgn960::stats::groups::write_groups;
use pgn960::stats::pairs::Pairer;
use pgn960::stats::{
    merge_csv, write_pairs, write_strata, write_table, StatsCounts, StatsOptions, TextFormat,
};
use pgn960::tree::{parse_sp_list, write_tree, TreeOptions, WriteOptions};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::time::Duration;

/// How often a wait checks for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// How long an interrupted call waits for its work to stop (and drop its outputs).
const SETTLE: Duration = Duration::from_secs(5);

/// The filters every analysis takes, from Python's keyword arguments.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
pub struct FilterArgs {
    min_elo: Option<u32>,
    max_elo_diff: Option<u32>,
    min_plies: Option<u32>,
    time_control: Option<Vec<String>>,
    since: Option<String>,
    until: Option<String>,
}

impl FilterArgs {
    /// The filters, each value read as the flag's.
    pub fn filters(&self) -> PyResult<Filters> {
        let speeds = self
            .time_control
            .iter()
            .flatten()
            .map(|s| {
                s.parse::<Speed>()
                    .map_err(|_| option_error(format!("{s:?} is not a speed (ultra-bullet, bullet, blitz, rapid, classical, correspondence)")))
            })
            .collect::<PyResult<Vec<Speed>>>()?;
        let date = |d: &Option<String>| -> PyResult<Option<Date>> {
            d.as_deref()
                .map(|t| {
                    t.parse::<Date>()
                        .map_err(|e| option_error(format!("{t:?}: {e}")))
                })
                .transpose()
        };
        Ok(Filters {
            min_elo: self.min_elo,
            max_elo_diff: self.max_elo_diff,
            min_plies: self.min_plies,
            speeds,
            since: date(&self.since)?,
            until: date(&self.until)?,
        })
    }
}

/// Runs `work` on a thread of its own, the GIL released, checking for Ctrl-C every
/// [`TICK`]: on one, `work`'s stop flag is set and the call raises `KeyboardInterrupt`.
fn interruptible<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&'static AtomicBool) -> pgn960::Result<T> + Send + 'static,
) -> PyResult<T> {
    interruptible_with(py, work, from_library)
}

/// [`interruptible`] for work with errors of its own, made Python's by `to_python`.
pub fn interruptible_with<T: Send + 'static, E: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&'static AtomicBool) -> Result<T, E> + Send + 'static,
    to_python: impl Fn(E) -> PyErr,
) -> PyResult<T> {
    // One flag per call, kept for the process's life (a byte) so that the library's
    // `'static` stop can point at it.
    let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
    let (tx, rx) = sync_channel(1);
    std::thread::spawn(move || {
        let _ = tx.send(work(stop));
    });
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
            Ok(result) => return result.map_err(to_python),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    // The work stops at its next chunk: wait (a while) for it to remove
                    // its temporary files, so that none is left if Python exits now.
                    let settle = || rx.lock().is_ok_and(|rx| rx.recv_timeout(SETTLE).is_ok());
                    let _ = py.detach(settle);
                    return Err(e);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyKeyboardInterrupt::new_err("the analysis stopped"))
            }
        }
    }
}

fn by_keys(by: Vec<String>) -> PyResult<Vec<ByKey>> {
    by.iter()
        .map(|k| {
            ByKey::from_column(&k.replace('-', "_")).ok_or_else(|| {
                option_error(format!(
                    "{k:?} is not a --by key (time-control, month, year, rating-band, event, white, black)"
                ))
            })
        })
        .collect()
}

fn io_error(e: std::io::Error) -> PyErr {
    crate::errors::located::<crate::errors::IoError>(e.to_string(), Default::default())
}

/// `pgn960._native.stats`: the SP table's CSV bytes (or, with `dfrc`, the Double
/// Chess960 table's), and the strata table's (`--strata-table`; `None` with `strata`
/// `none` or `dfrc`).
#[pyfunction]
#[pyo3(signature = (src, threads, variant, by, band_width, headers_only, include_classical, dfrc, filters, start=None, end=None, first_line=None, strata="event", max_game_bytes=None, assume_sp=None))]
#[allow(clippy::too_many_arguments)]
pub fn stats<'py>(
    py: Python<'py>,
    src: Vec<PathBuf>,
    threads: usize,
    variant: &str,
    by: Vec<String>,
    band_width: u32,
    headers_only: bool,
    include_classical: bool,
    dfrc: bool,
    filters: FilterArgs,
    start: Option<u64>,
    end: Option<u64>,
    first_line: Option<u64>,
    strata: &str,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<TableBytes<'py>> {
    if band_width == 0 {
        return Err(option_error("band_width must be at least 1"));
    }
    let strata = strata
        .parse::<pgn960::stats::StrataKey>()
        .map_err(option_error)?
        .by_key();
    let options = StatsOptions {
        filters: filters.filters()?,
        include_classical,
        headers_only,
        by: by_keys(by)?,
        band_width,
        missing_variant: missing_variant(variant)?,
        threads,
        range: crate::scan::range(start, end, first_line)?,
        strata,
        max_game_bytes: game_limit(max_game_bytes),
        assume_sp: checked_sp(assume_sp)?,
        ..StatsOptions::default()
    };
    let paths: Vec<PathBuf> = inputs_checked(src)?;
    let (csv, strata) = interruptible(py, move |stop| {
        let options = StatsOptions {
            stop: Some(stop),
            ..options
        };
        let counts = pgn960::stats::compute(&paths, &options)?;
        Ok(table_csv(&counts, dfrc).and_then(|csv| Ok((csv, strata_csv(&counts, dfrc)?))))
    })?
    .map_err(io_error)?;
    Ok(table_bytes(py, &csv, strata.as_deref()))
}

/// A table's CSV bytes and its strata table's (or `None`).
type TableBytes<'py> = (Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>);

/// The bytes of a table and of its strata table as Python's.
fn table_bytes<'py>(py: Python<'py>, csv: &[u8], strata: Option<&[u8]>) -> TableBytes<'py> {
    (PyBytes::new(py, csv), strata.map(|s| PyBytes::new(py, s)))
}

/// The CSV of the strata table of `counts` ([`write_strata`]): `None` when it keeps no
/// strata, or for the Double Chess960 table (`dfrc`, tested as one table).
fn strata_csv(counts: &StatsCounts, dfrc: bool) -> std::io::Result<Option<Vec<u8>>> {
    if dfrc || counts.tables.strata.is_none() {
        return Ok(None);
    }
    let mut csv = Vec::new();
    write_strata(&mut csv, &counts.tables)?;
    Ok(Some(csv))
}

/// The paths, refused when none is given or one cannot be expanded.
fn inputs_checked(src: Vec<PathBuf>) -> PyResult<Vec<PathBuf>> {
    inputs(src.clone())?;
    Ok(src)
}

/// The CSV of the SP table (or the Double Chess960 table) of `counts`.
fn table_csv(counts: &StatsCounts, dfrc: bool) -> std::io::Result<Vec<u8>> {
    let tables = &counts.tables;
    let mut csv = Vec::new();
    if dfrc {
        let cells = tables.pair_cells();
        write_table(&mut csv, &tables.keys, cells, true, TextFormat::Csv, |_| {})?;
    } else {
        let cells = tables.sp_cells();
        write_table(
            &mut csv,
            &tables.keys,
            cells,
            false,
            TextFormat::Csv,
            |_| {},
        )?;
    }
    Ok(csv)
}

/// `tables` (CSV bytes written by `stats`, told apart by their header) added up exactly,
/// each named by its place in the list.
fn merged(tables: &[Vec<u8>]) -> Result<pgn960::stats::MergedTables, pgn960::Error> {
    let named = tables
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("table {i}"), t.as_slice()));
    merge_csv(named, &[])
}

/// `pgn960._native.merge_stats`: tables (CSV bytes written by `stats`: SP, Double
/// Chess960 and strata tables, told apart by their header) added up exactly, as the CSV
/// bytes of the merged table and of its strata table (`None` when no strata table was
/// given: the merged table is then tested as one table).
#[pyfunction]
pub fn merge_stats<'py>(py: Python<'py>, tables: Vec<Vec<u8>>) -> PyResult<TableBytes<'py>> {
    if tables.is_empty() {
        return Err(option_error("no table given"));
    }
    let (csv, strata) = py
        .detach(|| {
            let merged = merged(&tables)?;
            let dfrc = merged.double_chess960 && !merged.sp;
            let counts = StatsCounts {
                tables: merged.tables,
                ..StatsCounts::default()
            };
            let csv = table_csv(&counts, dfrc);
            Ok::<_, pgn960::Error>(csv.and_then(|csv| Ok((csv, strata_csv(&counts, dfrc)?))))
        })
        .map_err(from_library)?
        .map_err(io_error)?;
    Ok(table_bytes(py, &csv, strata.as_deref()))
}

/// `pgn960._native.stats_groups`: the SPs grouped by back-rank features (the CSV bytes
/// `pgn960 stats --groups` writes) for the tables given (as [`merge_stats`] takes them:
/// added up first, the tests within their strata tables' strata).
#[pyfunction]
pub fn stats_groups<'py>(py: Python<'py>, tables: Vec<Vec<u8>>) -> PyResult<Bound<'py, PyBytes>> {
    if tables.is_empty() {
        return Err(option_error("no table given"));
    }
    let csv = py
        .detach(|| {
            let merged = merged(&tables)?;
            if !merged.sp {
                return Ok(Err(std::io::Error::other(
                    "no SP table given: groups are of the 960 start positions, not of Double \
                     Chess960 pairs",
                )));
            }
            let mut csv = Vec::new();
            let written = write_groups(&mut csv, &merged.tables, TextFormat::Csv);
            Ok::<_, pgn960::Error>(written.map(|()| csv))
        })
        .map_err(from_library)?
        .map_err(|e| option_error(e.to_string()))?;
    Ok(PyBytes::new(py, &csv))
}

/// `pgn960._native.tree`: the opening tree's CSV bytes.
#[pyfunction]
#[pyo3(signature = (src, threads, variant, depth, sp, min_games, max_nodes, include_classical, filters, max_game_bytes=None, assume_sp=None))]
#[allow(clippy::too_many_arguments)]
pub fn tree<'py>(
    py: Python<'py>,
    src: Vec<PathBuf>,
    threads: usize,
    variant: &str,
    depth: u32,
    sp: Option<String>,
    min_games: u64,
    max_nodes: u64,
    include_classical: bool,
    filters: FilterArgs,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<Bound<'py, PyBytes>> {
    if !(1..=64).contains(&depth) {
        return Err(option_error(format!("depth must be 1 to 64, not {depth}")));
    }
    if max_nodes < 2 {
        return Err(option_error("max_nodes must be at least 2"));
    }
    let sps = sp
        .as_deref()
        .map(parse_sp_list)
        .transpose()
        .map_err(option_error)?;
    let options = TreeOptions {
        depth: depth as usize,
        filters: filters.filters()?,
        sps,
        include_classical,
        max_nodes: usize::try_from(max_nodes).unwrap_or(usize::MAX),
        missing_variant: missing_variant(variant)?,
        max_game_bytes: game_limit(max_game_bytes),
        assume_sp: checked_sp(assume_sp)?,
        threads,
        ..TreeOptions::default()
    };
    let paths = inputs_checked(src)?;
    let csv = interruptible(py, move |stop| {
        let options = TreeOptions {
            stop: Some(stop),
            ..options
        };
        let counts = pgn960::tree::compute(&paths, &options)?;
        let mut csv = Vec::new();
        let write = WriteOptions { depth, min_games };
        Ok(write_tree(&mut csv, &counts.tree, TextFormat::Csv, write).map(|()| csv))
    })?
    .map_err(io_error)?;
    Ok(PyBytes::new(py, &csv))
}

/// `pgn960._native.pentanomials`: the engine-match pairs' table (`stats --pairs`) as CSV
/// bytes.
#[pyfunction]
#[pyo3(signature = (src, threads, variant, include_classical, filters, max_game_bytes=None, assume_sp=None))]
#[allow(clippy::too_many_arguments)]
pub fn pentanomials<'py>(
    py: Python<'py>,
    src: Vec<PathBuf>,
    threads: usize,
    variant: &str,
    include_classical: bool,
    filters: FilterArgs,
    max_game_bytes: Option<usize>,
    assume_sp: Option<AssumeSpArg>,
) -> PyResult<Bound<'py, PyBytes>> {
    let options = StatsOptions {
        filters: filters.filters()?,
        include_classical,
        pairs: true,
        missing_variant: missing_variant(variant)?,
        max_game_bytes: game_limit(max_game_bytes),
        assume_sp: checked_sp(assume_sp)?,
        threads,
        ..StatsOptions::default()
    };
    let paths = inputs_checked(src)?;
    let csv = interruptible(py, move |stop| {
        let options = StatsOptions {
            stop: Some(stop),
            ..options
        };
        let counts = pgn960::stats::compute(&paths, &options)?;
        let mut pairer = Pairer::default();
        for game in counts.pair_games {
            pairer.push(game);
        }
        pairer.finish();
        let mut csv = Vec::new();
        Ok(write_pairs(&mut csv, &pairer, TextFormat::Csv).map(|()| csv))
    })?
    .map_err(io_error)?;
    Ok(PyBytes::new(py, &csv))
}
