//! Games as rows of a table: the one schema of `pgn960 export` and of the Python package.
//! [`columns`] names the columns, their types and values; [`table_rows`] validates a chunk
//! and hands out its rows (one per game, or one per ply of every valid game) with the
//! counts that show no game was lost; [`arrow`] (feature `parquet`) builds them into Arrow
//! record batches with the published schema; [`format`] names the formats of the tables
//! written to files.

#[cfg(feature = "parquet")]
pub mod arrow;
pub mod columns;
pub mod format;

pub use format::TableFormat;

use crate::pipeline::ChunkInfo;
use crate::validate::{validate_chunk, MissingVariant, RejectReason, ValidateOptions, Verdict};
use columns::{game_columns, ply_columns, select, Annotated, Column, Field, GameView, PlyView};
use pgn_parse::Origin;
use serde::Serialize;
use std::collections::BTreeMap;

/// What one row of a table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    /// One row per game.
    Game,
    /// One row per ply of every valid game.
    Ply,
}

/// What a table holds: its columns and which games become rows.
#[derive(Debug, Clone)]
pub struct TableSpec {
    /// The columns, in order.
    pub columns: Vec<Column>,
    /// Rows per game or per ply.
    pub grain: Grain,
    /// Rows for invalid games and other variants too (per-game tables).
    pub include_invalid: bool,
    /// What games without a Variant tag are.
    pub missing_variant: MissingVariant,
    /// Games of more bytes are rows of `too-large` games (0: no limit).
    pub max_game_bytes: usize,
    /// The start taken for a game whose start is ambiguous (`--assume-sp`).
    pub assume_sp: Option<chess960_core::SpPair>,
}

impl TableSpec {
    /// The table of `export`'s options: every column of `grain` with `tags` added (and
    /// `movetext` when asked), narrowed to `names` in that order when not empty. An unknown
    /// column, or invalid games asked for in a per-ply table, is an error saying so.
    pub fn new(
        grain: Grain,
        tags: &[String],
        movetext: bool,
        names: &[String],
        include_invalid: bool,
    ) -> Result<TableSpec, String> {
        if include_invalid && grain == Grain::Ply {
            return Err("invalid games are for per-game tables: they have no plies".into());
        }
        let all = match grain {
            Grain::Game => game_columns(tags, movetext),
            Grain::Ply => ply_columns(tags, movetext),
        };
        Ok(TableSpec {
            columns: select(all, names)?,
            grain,
            include_invalid,
            missing_variant: MissingVariant::default(),
            max_game_bytes: crate::pipeline::DEFAULT_MAX_GAME_BYTES,
            assume_sp: None,
        })
    }

    /// The table with castling written in `castling` in its UCI columns.
    pub fn with_uci_castling(mut self, castling: columns::UciCastling) -> TableSpec {
        for c in &mut self.columns {
            match &mut c.field {
                Field::Uci(style) | Field::MovesUci(style) => *style = castling,
                _ => {}
            }
        }
        self
    }

    /// Whether the moves must be kept (a move list, the outcome, or one row per ply): the
    /// SAN and UCI of every move cost most of an export, a table without them is written at
    /// close to `check`'s speed.
    pub fn needs_moves(&self) -> bool {
        self.grain == Grain::Ply
            || self.columns.iter().any(|c| {
                matches!(
                    c.field,
                    Field::MovesSan
                        | Field::MovesUci(_)
                        | Field::Clocks
                        | Field::Evals
                        | Field::EvalsMate
                        | Field::Emts
                        | Field::Depths
                        | Field::Outcome
                )
            })
    }
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

/// Where a rejected game's problem is: `line:column` (PGN), or `row N` (0-based) with the
/// column of its movetext when the problem is there (Parquet). `local` is counted from the
/// chunk's first line ([`ChunkInfo::first_line`] must be absolute).
pub fn location(info: &ChunkInfo, local: (u32, u32)) -> String {
    location_at(info.line(local.0), local.1, info.rows)
}

/// [`location`] of an absolute line and column; `rows` when the input is a Parquet table
/// (its lines then name rows).
#[cfg_attr(not(feature = "parquet"), allow(unused_variables))]
pub fn location_at(line: u64, column: u32, rows: bool) -> String {
    #[cfg(feature = "parquet")]
    if rows {
        let row = crate::parquet::row_of_line(line);
        return if crate::parquet::is_movetext_line(line) {
            format!("row {row}, movetext column {column}")
        } else {
            format!("row {row}")
        };
    }
    format!("{line}:{column}")
}

/// The reason a game is not a plain valid row (`None` for a valid game), counted.
fn judge(verdict: &Verdict, counts: &mut ExportCounts) -> Option<&'static str> {
    counts.games_read += 1;
    match verdict {
        Verdict::Valid(_) => {
            counts.valid += 1;
            None
        }
        Verdict::Unsupported(_) => Some("unsupported-variant"),
        Verdict::Invalid(r) => {
            counts.rejected += 1;
            Some(r.reason.name())
        }
    }
}

/// Validates every game of a chunk and calls `push` with each row of the table `spec`
/// describes, in order (a game, and for per-ply tables each of its plies). `info` must hold
/// the chunk's absolute first line (`PipelineOptions::lines_at_cut`); `source` names the
/// input in the `source` column. Returns the counts: every game read is a row or skipped
/// with its reason.
pub fn table_rows(
    bytes: &[u8],
    origin: Origin,
    info: &ChunkInfo,
    source: &str,
    spec: &TableSpec,
    mut push: impl FnMut(&GameView<'_>, Option<&PlyView<'_>>),
) -> ExportCounts {
    let options = ValidateOptions {
        moves: spec.needs_moves(),
        missing_variant: spec.missing_variant,
        max_game_bytes: spec.max_game_bytes,
        assume_sp: spec.assume_sp,
        ..ValidateOptions::default()
    };
    let mut counts = ExportCounts::default();
    let base = origin.offset;
    let mut xfen = String::new();
    let annotation_lists = spec.columns.iter().any(|c| {
        matches!(
            c.field,
            Field::Clocks | Field::Evals | Field::EvalsMate | Field::Emts | Field::Depths
        )
    });
    validate_chunk(bytes, origin, &options, info.rows, |judged| {
        let reason = judge(&judged.verdict, &mut counts);
        let included = reason.is_none() || (spec.include_invalid && spec.grain == Grain::Game);
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
            (true, Some(line)) => crate::parquet::row_of_line(info.line(line)),
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
            annotated: match (annotation_lists, judged.verdict.valid()) {
                (true, Some(valid)) => Annotated::of(&valid.moves),
                _ => Annotated::default(),
            },
        };
        counts.rows += push_rows(spec.grain, &game, &mut xfen, &mut push);
    });
    counts
}

/// Pushes a game's rows: the game, or each ply of a valid game. Returns the rows pushed.
fn push_rows(
    grain: Grain,
    game: &GameView<'_>,
    xfen: &mut String,
    push: &mut impl FnMut(&GameView<'_>, Option<&PlyView<'_>>),
) -> u64 {
    match (grain, game.verdict.valid()) {
        (Grain::Game, _) => {
            push(game, None);
            1
        }
        (Grain::Ply, Some(valid)) => {
            let mut position = valid.start.clone();
            for (i, record) in valid.moves.iter().enumerate() {
                xfen.clear();
                position
                    .fen(chess960_core::CastlingStyle::Xfen)
                    .append_to(xfen);
                let ply = PlyView {
                    ply: i as u32 + 1,
                    xfen,
                    record,
                };
                push(game, Some(&ply));
                position.play_unchecked(record.chess_move);
            }
            valid.moves.len() as u64
        }
        (Grain::Ply, None) => 0,
    }
}

/// A text cell made safe for spreadsheets (OWASP's CSV injection rule): a value beginning
/// with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a spreadsheet
/// shows it as text instead of running it as a formula. Used for the tables people open in
/// spreadsheets (the rejects TSV, `stats --by` keys); the data tables of `export` stay exact.
///
/// ```
/// assert_eq!(pgn960::table::spreadsheet_text("=cmd|' /C calc'!A0"), "'=cmd|' /C calc'!A0");
/// assert_eq!(pgn960::table::spreadsheet_text("Carlsen, Magnus"), "Carlsen, Magnus");
/// ```
pub fn spreadsheet_text(text: &str) -> std::borrow::Cow<'_, str> {
    match text.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{text}").into(),
        _ => text.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_refuses_invalid_plies_and_unknown_columns() {
        assert!(TableSpec::new(Grain::Ply, &[], false, &[], true).is_err());
        let err = TableSpec::new(Grain::Game, &[], false, &["nope".into()], false).unwrap_err();
        assert!(err.contains("moves_san"), "{err}");
        let spec = TableSpec::new(Grain::Game, &[], false, &["sp".into()], false).unwrap();
        assert!(!spec.needs_moves());
        assert!(TableSpec::new(Grain::Ply, &[], false, &[], false)
            .unwrap()
            .needs_moves());
    }

    #[test]
    fn rows_and_counts_add_up() {
        let pgn = b"[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n1. e4 e5 *\n\n[Variant \"Chess960\"]\n\n1. Zz9 *\n\n";
        let info = ChunkInfo {
            offset: 0,
            len: pgn.len(),
            source_bytes: 0,
            first_line: 1,
            first_game: 0,
            rows: false,
            lines: None,
        };
        let spec = TableSpec::new(Grain::Ply, &[], false, &[], false).unwrap();
        let mut plies = Vec::new();
        let counts = table_rows(pgn, Origin::default(), &info, "t", &spec, |_, ply| {
            plies.push(ply.map(|p| p.ply))
        });
        assert_eq!(plies, vec![Some(1), Some(2)]);
        assert_eq!(counts.games_read, 2);
        assert_eq!(counts.rows, 2);
        assert_eq!(counts.exported + counts.skipped_total(), counts.games_read);
    }
}
