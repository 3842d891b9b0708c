//! Games as rows of a file (`pgn960 export`): the table itself (columns, rows, counts,
//! the Arrow schema) is [`crate::table`]; here its rows are rendered or
//! encoded in the workers ([`text`] for CSV and JSON Lines, [`parquet`]).

#[cfg(feature = "parquet")]
pub mod parquet;
pub mod text;

pub use crate::table::columns;
pub use crate::table::{ExportCounts, TableSpec};

use crate::pipeline::{ChunkInfo, ChunkOutput};
use crate::table::{table_rows, Grain};
use columns::{Column, GameView, PlyView};
use pgn_parse::Origin;

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
    Parquet(Vec<::parquet::arrow::arrow_writer::ArrowColumnChunk>),
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
                parquet::ParquetRows::new(&plan.columns),
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
/// absolute first line (see `Driver::run_chunks`).
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
