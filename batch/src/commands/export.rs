//! `pgn960 export`: games as rows of a Parquet, CSV or JSON Lines table. The run is the
//! library's [`pgn960::export::ExportRun`]; here are its flags and its summary.

use crate::args::{Inputs, TableFormat, TableOutput};
use crate::driver::{Driver, Globals};
use crate::export::columns::{game_columns, ply_columns, select, UciCastling};
use crate::export::{summary_text, ExportCounts, ExportRun, Exported, Format, Per, TableSpec};
use crate::output::print_summary;
use anyhow::{anyhow, bail, Result};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};

/// Arguments of `pgn960 export`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Columns (docs/export.md): the tags Event, Site, White, Black, Result, WhiteTitle, BlackTitle, WhiteElo, BlackElo, WhiteRatingDiff, BlackRatingDiff, UTCDate, UTCTime, Termination, TimeControl, FEN, then sp, black_sp, variant, start_xfen, plies, moves_san, moves_uci, final_xfen, outcome, speed, clocks, evals, evals_mate, emts, depths, valid, reason, location, source, offset.\nWith --per ply: source, offset, ply, xfen, san, uci, clock, eval, eval_mate, emt, depth, result, sp.\nThe summary goes to standard error (-q: none).\n{}\n\nExamples:\n  pgn960 export games.pgn.zst -o games.parquet\n  pgn960 export games.pgn -o plies.parquet --per ply\n  pgn960 export games.pgn -o games.csv --columns Site,sp,Result,plies", crate::args::common_help())
)]
pub struct ExportArgs {
    /// The games to export.
    #[command(flatten)]
    pub inputs: Inputs,
    /// The table: parquet, csv or jsonl (- for standard output, with --format).
    #[command(flatten)]
    pub table: TableOutput,
    /// One row per game, or one per ply of every valid game.
    #[arg(long, value_enum, default_value_t = Per::Game)]
    pub per: Per,
    /// Export invalid games and other variants too (valid = false, reason, location).
    #[arg(long)]
    pub include_invalid: bool,
    /// Add the movetext as written (the lichess dataset's `movetext` column).
    #[arg(long)]
    pub movetext: bool,
    /// Add these tags as columns (strings); a tag named like another column, whatever the case, becomes NAME_tag.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub tags: Vec<String>,
    /// Castling in the UCI columns (uci, moves_uci): king-takes-rook (e1h1, UCI_Chess960)
    /// or king-two-squares (e1g1/e1c1 where the king castles from e1/e8 with the rook on
    /// the h/a file, the standard-chess squares; king onto rook for every other castling).
    #[arg(long, value_name = "STYLE", value_parser = uci_castling(), default_value = "king-takes-rook")]
    pub uci_castling: UciCastling,
    /// Write only these columns, in this order.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub columns: Vec<String>,
    /// Megabytes of PGN per chunk of work, and so per Parquet row group (about 300 lichess
    /// games a MB; memory grows with it: four chunks per thread in flight).
    #[arg(long, value_name = "MB", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub row_group_mb: u32,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// The parser of `--uci-castling`.
fn uci_castling() -> impl TypedValueParser<Value = UciCastling> {
    PossibleValuesParser::new([
        PossibleValue::new("king-takes-rook").help("e1h1 for every castling (UCI_Chess960)"),
        PossibleValue::new("king-two-squares")
            .help("e1g1/e1c1 from e1 (e8) with the rook on h/a; else king onto rook"),
    ])
    .map(|s| UciCastling::from_name(&s).unwrap_or_default())
}

/// Runs `pgn960 export`; returns the counts.
pub fn run(args: &ExportArgs, globals: Globals) -> Result<ExportCounts> {
    let output = &args.table.output;
    let format = TableFormat::choose(
        "export",
        output,
        args.table.format,
        &[Format::Parquet, Format::Csv, Format::Jsonl],
        None,
    )?;
    let run = ExportRun::new(&args.inputs, output, format, globals.quiet)?;
    if args.include_invalid && args.per == Per::Ply {
        bail!("--include-invalid is for per-game tables: invalid games have no plies");
    }
    let all = match args.per {
        Per::Game => game_columns(&args.tags, args.movetext),
        Per::Ply => ply_columns(&args.tags, args.movetext),
    };
    let spec = TableSpec {
        columns: select(all, &args.columns).map_err(|e| anyhow!(e))?,
        grain: args.per.into(),
        include_invalid: args.include_invalid,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
    }
    .with_uci_castling(args.uci_castling);
    // Larger row groups than the 2 MiB chunks of `check` cost less per row group to encode
    // and to read.
    let chunk_bytes = (args.row_group_mb as usize) << 20;
    let driver = Driver::new(&args.inputs, globals)?;
    let exported = run.write(driver.into_library(), &spec, chunk_bytes)?;
    print_summary(&report(args, &exported), globals.quiet);
    Ok(exported.counts)
}

/// The summary: the counts, and where the table went.
fn report(args: &ExportArgs, exported: &Exported) -> String {
    let counts = &exported.counts;
    let mut text = summary_text(counts, exported.seconds, exported.bytes);
    if args.table.output.as_os_str() != "-" {
        text.push_str(&format!(
            "table: {} ({} rows)\n",
            args.table.output.display(),
            counts.rows
        ));
    }
    text
}
