//! Games as rows of a table (`pgn960 export`): the columns ([`columns`]), the rows of a
//! chunk rendered or encoded in the workers ([`text`] for CSV and JSON Lines, [`parquet`]),
//! and the counts that show nothing was lost.

pub mod columns;
#[cfg(feature = "parquet")]
pub mod parquet;
pub mod text;

use columns::{Column, GameView, PlyView};
use pgn960::pipeline::{ChunkInfo, ChunkOutput};
use pgn960::validate::{validate_chunk, MissingVariant, RejectReason, ValidateOptions, Verdict};
use pgn_parse::Origin;
use serde::Serialize;
use std::collections::BTreeMap;

/// The output formats of `export`: [`crate::args::TableFormat`]'s Parquet, CSV (a header;
/// lists space-separated) and JSON Lines.
pub use crate::args::TableFormat as Format;

/// One row per game, or one per ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Per {
    /// One row per game.
    Game,
    /// One row per ply of every valid game.
    Ply,
}

/// What a run exports.
pub struct Plan {
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// Rows per game or per ply.
    pub per: Per,
    /// Export invalid games and other variants too (per-game tables).
    pub include_invalid: bool,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// Games of more bytes are skipped as `too-large` (`--max-game-bytes`; 0: no limit).
    pub max_game_bytes: usize,
}

impl Plan {
    /// Whether the moves must be kept (a move list, the outcome, or one row per ply): the
    /// SAN and UCI of every move cost most of an export, a table without them is written at
    /// close to `check`'s speed.
    pub fn needs_moves(&self) -> bool {
        use columns::Field;
        self.per == Per::Ply
            || self.columns.iter().any(|c| {
                matches!(
                    c.field,
                    Field::MovesSan
                        | Field::MovesUci
                        | Field::Clocks
                        | Field::Evals
                        | Field::EvalsMate
                        | Field::Outcome
                )
            })
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

/// Counts of games, by what became of them.
#[derive(Debug, Default, Clone, Serialize)]
pub struct ExportCounts {
    /// Games read.
    pub games_read: u64,
    /// Games exported (valid, or any with `--include-invalid`).
    pub exported: u64,
    /// Rows written (games, or plies with `--per ply`).
    pub rows: u64,
    /// Valid games.
    pub valid: u64,
    /// Games rejected (invalid).
    pub rejected: u64,
    /// Games not exported, by reason (`illegal-move`, `unsupported-variant`, ...).
    pub skipped: BTreeMap<&'static str, u64>,
    /// Exported invalid games, by reason (`--include-invalid`).
    pub exported_invalid: BTreeMap<&'static str, u64>,
}

impl ExportCounts {
    /// Games not exported.
    pub fn skipped_total(&self) -> u64 {
        self.skipped.values().sum()
    }

    /// Adds a chunk's counts.
    pub fn add(&mut self, other: &ExportCounts) {
        self.games_read += other.games_read;
        self.exported += other.exported;
        self.rows += other.rows;
        self.valid += other.valid;
        self.rejected += other.rejected;
        for (k, v) in &other.skipped {
            *self.skipped.entry(k).or_default() += v;
        }
        for (k, v) in &other.exported_invalid {
            *self.exported_invalid.entry(k).or_default() += v;
        }
    }
}

/// A chunk's rows and counts, made in a worker.
pub struct ChunkExport {
    /// The rows (`Err` when encoding failed).
    pub rows: anyhow::Result<Rows>,
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
    fn new(encoding: &Encoding, plan: &Plan) -> Builder {
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

    fn finish(self) -> anyhow::Result<Rows> {
        match self {
            Builder::Csv(rows) => Ok(Rows::Text(rows.finish())),
            Builder::Jsonl(out) => Ok(Rows::Text(out)),
            #[cfg(feature = "parquet")]
            Builder::Parquet(rows, encoder) => rows.encode(&encoder).map(Rows::Parquet),
        }
    }
}

/// Where a rejected game's problem is: `line:column` (PGN), or `row N` (0-based) with the
/// column of its movetext when the problem is there (Parquet).
fn location(info: &ChunkInfo, local: (u32, u32)) -> String {
    let line = info.first_line + u64::from(local.0.max(1)) - 1;
    #[cfg(feature = "parquet")]
    if info.rows {
        let row = pgn960::parquet::row_of_line(line);
        return if pgn960::parquet::is_movetext_line(line) {
            format!("row {row}, movetext column {}", local.1)
        } else {
            format!("row {row}")
        };
    }
    format!("{line}:{}", local.1)
}

/// Validates and exports every game of a chunk (in a worker). `info` holds the chunk's
/// absolute first line (see `Driver::run_chunks`).
pub fn export_chunk(
    bytes: &[u8],
    origin: Origin,
    info: &ChunkInfo,
    source: &str,
    plan: &Plan,
    encoding: &Encoding,
) -> ChunkExport {
    let mut builder = Builder::new(encoding, plan);
    let options = ValidateOptions {
        moves: plan.needs_moves(),
        missing_variant: plan.missing_variant,
        max_game_bytes: plan.max_game_bytes,
        ..ValidateOptions::default()
    };
    let mut counts = ExportCounts::default();
    let base = origin.offset;
    let mut xfen = String::new();
    validate_chunk(bytes, origin, &options, info.rows, |judged| {
        counts.games_read += 1;
        let reason = match &judged.verdict {
            Verdict::Valid(_) => {
                counts.valid += 1;
                None
            }
            Verdict::Unsupported(_) => Some("unsupported-variant"),
            Verdict::Invalid(r) => {
                counts.rejected += 1;
                Some(r.reason.name())
            }
        };
        let included = reason.is_none() || (plan.include_invalid && plan.per == Per::Game);
        if let (Some(reason), false) = (reason, included) {
            *counts.skipped.entry(reason).or_default() += 1;
            return;
        }
        if let Some(reason) = reason {
            *counts.exported_invalid.entry(reason).or_default() += 1;
        }
        counts.exported += 1;
        let range = &judged.byte_range;
        let offset = match (info.rows, judged.line) {
            #[cfg(feature = "parquet")]
            (true, Some(line)) => {
                pgn960::parquet::row_of_line(info.first_line + u64::from(line) - 1)
            }
            _ => range.start as u64,
        };
        // A game too large gets a row without its tags and text, which are not held.
        let too_large = judged
            .verdict
            .rejection()
            .is_some_and(|r| r.reason == RejectReason::TooLarge);
        let game = GameView {
            tags: if too_large { &[] } else { judged.tags },
            verdict: &judged.verdict,
            source,
            offset,
            location: judged.problem_at.map(|at| location(info, at)),
            text: match too_large {
                true => &[],
                false => bytes
                    .get(range.start - base..range.end - base)
                    .unwrap_or_default(),
            },
            start: range.start,
        };
        match (plan.per, judged.verdict.valid()) {
            (Per::Game, _) => {
                builder.push(&plan.columns, &game, None);
                counts.rows += 1;
            }
            (Per::Ply, Some(valid)) => {
                let mut position = valid.start.clone();
                for (i, record) in valid.moves.iter().enumerate() {
                    xfen.clear();
                    position
                        .fen(chess960_core::CastlingStyle::Xfen)
                        .append_to(&mut xfen);
                    let ply = PlyView {
                        ply: i as u32 + 1,
                        xfen: &xfen,
                        record,
                    };
                    builder.push(&plan.columns, &game, Some(&ply));
                    counts.rows += 1;
                    position.play_unchecked(record.chess_move);
                }
            }
            (Per::Ply, None) => {}
        }
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
