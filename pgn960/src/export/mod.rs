//! Games as rows of a file (`pgn960 export`): the table itself (columns, rows, counts,
//! the Arrow schema) is [`crate::table`]; here its rows are rendered or
//! encoded in the workers ([`text`] for CSV and JSON Lines, [`parquet`]) and written in
//! input order to one output ([`ExportRun`]: the engine of the command and of Python's
//! `export`).

#[cfg(feature = "parquet")]
mod flat;
#[cfg(feature = "parquet")]
mod lists;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod text;

pub use crate::table::columns;
pub use crate::table::{ExportCounts, TableSpec};

use crate::driver::Driver;
use crate::output::{OutputError, OutputId, OutputPlan, Sink};
use crate::pipeline::{ChunkInfo, ChunkOutput};
use crate::table::{table_rows, Grain};
use columns::{Column, GameView, PlyView};
use pgn_parse::Origin;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The output formats of `export`: [`crate::table::TableFormat`]'s Parquet, CSV (a header;
/// lists space-separated) and JSON Lines.
pub use crate::table::TableFormat as Format;

/// One row per game, or one per ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Per {
    /// One row per game.
    Game,
    /// One row per ply of every valid game.
    Ply,
}

impl From<Per> for Grain {
    fn from(per: Per) -> Grain {
        match per {
            Per::Game => Grain::Game,
            Per::Ply => Grain::Ply,
        }
    }
}

/// The rows of one chunk in the output's form.
pub enum Rows {
    /// Rendered text (CSV, JSON Lines).
    Text(Vec<u8>),
    /// Encoded column chunks of one row group.
    #[cfg(feature = "parquet")]
    Parquet(Vec<parquet::Chunk>),
}

/// Where the workers put rows.
#[derive(Clone)]
pub enum Encoding {
    /// CSV rows.
    Csv,
    /// JSON Lines.
    Jsonl,
    /// Parquet column chunks.
    #[cfg(feature = "parquet")]
    Parquet(std::sync::Arc<parquet::Encoder>),
}

/// A chunk's rows and counts, made in a worker.
pub struct ChunkExport {
    /// The rows (`Err` when encoding failed).
    pub rows: crate::output::Result<Rows>,
    /// Counts.
    pub counts: ExportCounts,
}

impl ChunkOutput for ChunkExport {
    fn games(&self) -> u64 {
        self.counts.games_read
    }
    /// The rows' lines are made in the worker (see [`export_chunk`]); the sink reads none.
    fn needs_lines(&self) -> bool {
        false
    }
}

/// The rows being made for one chunk (one per chunk: the size of the CSV writer does not
/// matter).
#[allow(clippy::large_enum_variant)]
enum Builder {
    Csv(text::CsvRows),
    Jsonl(Vec<u8>),
    #[cfg(feature = "parquet")]
    Parquet(parquet::ParquetRows, std::sync::Arc<parquet::Encoder>),
}

impl Builder {
    #[cfg_attr(not(feature = "parquet"), allow(unused_variables))]
    fn new(encoding: &Encoding, plan: &TableSpec) -> Builder {
        match encoding {
            Encoding::Csv => Builder::Csv(text::CsvRows::new()),
            Encoding::Jsonl => Builder::Jsonl(Vec::new()),
            #[cfg(feature = "parquet")]
            Encoding::Parquet(encoder) => Builder::Parquet(
                parquet::ParquetRows::new(&plan.columns, encoder),
                std::sync::Arc::clone(encoder),
            ),
        }
    }

    fn push(&mut self, columns: &[Column], game: &GameView<'_>, ply: Option<&PlyView<'_>>) {
        match self {
            Builder::Csv(rows) => rows.push(columns, game, ply),
            Builder::Jsonl(out) => text::push_json(out, columns, game, ply),
            #[cfg(feature = "parquet")]
            Builder::Parquet(rows, _) => rows.push(columns, game, ply),
        }
    }

    fn finish(self) -> crate::output::Result<Rows> {
        match self {
            Builder::Csv(rows) => Ok(Rows::Text(rows.finish())),
            Builder::Jsonl(out) => Ok(Rows::Text(out)),
            #[cfg(feature = "parquet")]
            Builder::Parquet(rows, encoder) => rows.encode(&encoder).map(Rows::Parquet),
        }
    }
}

/// Validates and exports every game of a chunk (in a worker). `info` holds the chunk's
/// absolute first line when a row can read it: invalid games included, or a Parquet input
/// (see `Driver::run_chunks`).
pub fn export_chunk(
    bytes: &[u8],
    origin: Origin,
    info: &ChunkInfo,
    source: &str,
    plan: &TableSpec,
    encoding: &Encoding,
) -> ChunkExport {
    let mut builder = Builder::new(encoding, plan);
    let counts = table_rows(bytes, origin, info, source, plan, |game, ply| {
        builder.push(&plan.columns, game, ply)
    });
    ChunkExport {
        rows: builder.finish(),
        counts,
    }
}

/// The text summary of an export run.
pub fn summary_text(c: &ExportCounts, seconds: f64, bytes: u64) -> String {
    let mut out = format!(
        "games read:          {:>10}   ({:.1} MB in {:.2} s, {:.0} games/s)\n",
        c.games_read,
        bytes as f64 / 1e6,
        seconds,
        c.games_read as f64 / seconds.max(1e-9)
    );
    out.push_str(&format!("valid:               {:>10}\n", c.valid));
    out.push_str(&format!(
        "exported:            {:>10}   ({} rows)\n",
        c.exported, c.rows
    ));
    for (reason, n) in &c.exported_invalid {
        out.push_str(&format!("  {reason:<22} {n:>8}   (valid = false)\n"));
    }
    out.push_str(&format!("skipped:             {:>10}\n", c.skipped_total()));
    for (reason, n) in &c.skipped {
        out.push_str(&format!("  {reason:<22} {n:>8}\n"));
    }
    out.push_str(&format!(
        "games read {} = exported {} + skipped {}\n",
        c.games_read,
        c.exported,
        c.skipped_total()
    ));
    out
}

/// An export run's one output, planned, checked and created (not yet written).
pub struct ExportRun {
    plan: OutputPlan,
    table: OutputId,
    format: Format,
    sink: Sink,
}

/// A finished export: its counts (checked: games read = exported + skipped), the time it
/// took and the bytes read.
#[derive(Debug, Clone)]
pub struct Exported {
    /// The counts.
    pub counts: ExportCounts,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Bytes read.
    pub bytes: u64,
    /// The table written (none for standard output).
    pub file: Option<PathBuf>,
}

/// An error with a message and no cause.
fn failed(message: impl Into<String>) -> OutputError {
    OutputError::Failed {
        message: message.into(),
        cause: None,
    }
}

impl ExportRun {
    /// Plans the table `output` (`-` for standard output) of a run over `inputs`, in
    /// `format` (Parquet, CSV or JSON Lines), checks it (not an input, not a directory) and
    /// creates it under a temporary name.
    pub fn new(
        inputs: &[PathBuf],
        output: &Path,
        format: Format,
        quiet: bool,
    ) -> Result<ExportRun, OutputError> {
        let mut plan = OutputPlan::new(inputs, quiet);
        let table = plan.add("-o", output, format.name());
        plan.check()?;
        let sink = plan.create(table)?;
        Ok(ExportRun {
            plan,
            table,
            format,
            sink,
        })
    }

    /// Exports every game of `driver`'s inputs as `spec` says, in chunks of about
    /// `chunk_bytes` of PGN (one Parquet row group each), and renames the table into
    /// place; on any error it is left out.
    pub fn write<E: From<crate::Error> + From<OutputError>>(
        self,
        mut driver: Driver<E>,
        spec: &TableSpec,
        chunk_bytes: usize,
    ) -> Result<Exported, E> {
        let ExportRun {
            mut plan,
            table,
            format,
            mut sink,
        } = self;
        let mut run = |encoding: &Encoding, write: &mut RowSink<'_>| {
            export_rows(&mut driver, chunk_bytes, spec, encoding, write)
        };
        let (counts, bytes) = match format {
            Format::Csv | Format::Jsonl => {
                let encoding = if format == Format::Csv {
                    sink.write_all(&text::csv_header(&spec.columns))
                        .map_err(OutputError::from)?;
                    Encoding::Csv
                } else {
                    Encoding::Jsonl
                };
                let done = run(&encoding, &mut |rows, _| match rows {
                    Rows::Text(text) => Ok(sink.write_all(&text)?),
                    #[cfg(feature = "parquet")]
                    Rows::Parquet(_) => {
                        Err(failed("internal error: Parquet rows for a text table"))
                    }
                })?;
                plan.finish(sink)?;
                done
            }
            #[cfg(feature = "parquet")]
            Format::Parquet => {
                let (mut file, encoder) = parquet::create(sink, &spec.columns)?;
                let encoding = Encoding::Parquet(std::sync::Arc::new(encoder));
                let done = run(&encoding, &mut |rows, count| match rows {
                    Rows::Parquet(chunks) if count > 0 => file.append(chunks),
                    Rows::Parquet(_) => Ok(()),
                    Rows::Text(_) => Err(failed("internal error: text rows for a Parquet table")),
                })?;
                plan.finish(file.finish()?)?;
                done
            }
            #[cfg(not(feature = "parquet"))]
            Format::Parquet => {
                let message = "this build has no Parquet support (cargo feature `parquet`)";
                return Err(failed(message).into());
            }
            Format::Json => {
                return Err(failed("export writes parquet, csv or jsonl, not json").into())
            }
        };
        let seconds = driver.finish();
        plan.commit()?;
        let path = &plan.output(table).path;
        Ok(Exported {
            counts,
            seconds,
            bytes,
            file: (path != Path::new("-")).then(|| path.clone()),
        })
    }
}

/// What takes each chunk's rows (and their number), in input order.
type RowSink<'w> = dyn FnMut(Rows, u64) -> Result<(), OutputError> + 'w;

/// Exports every game of the inputs, handing each chunk's rows (and their number) to
/// `write` in input order; returns the counts (checked) and the bytes read.
fn export_rows<E: From<crate::Error> + From<OutputError>>(
    driver: &mut Driver<E>,
    chunk_bytes: usize,
    spec: &TableSpec,
    encoding: &Encoding,
    write: &mut RowSink<'_>,
) -> Result<(ExportCounts, u64), E> {
    let mut counts = ExportCounts::default();
    let mut bytes = 0u64;
    // Absolute lines are read in the worker only for the location of an invalid game's row.
    driver.run_chunks(
        chunk_bytes,
        spec.include_invalid,
        |name, data, origin, info| {
            export_chunk(data, origin, info, &name.to_string(), spec, encoding)
        },
        |_, chunk, info| {
            counts.add(&chunk.counts);
            bytes += info.len as u64;
            Ok(write(chunk.rows?, chunk.counts.rows)?)
        },
    )?;
    check_counts(&counts)?;
    Ok((counts, bytes))
}

/// Every game read is exported or skipped with a reason: checked before the table is
/// put in place.
fn check_counts(counts: &ExportCounts) -> Result<(), OutputError> {
    if counts.games_read != counts.exported + counts.skipped_total() {
        return Err(failed(format!(
            "internal error: games read ({}) != exported ({}) + skipped ({}); no table written",
            counts.games_read,
            counts.exported,
            counts.skipped_total()
        )));
    }
    Ok(())
}
