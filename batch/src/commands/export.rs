//! `pgn960 export`: games as rows of a Parquet, CSV or JSON Lines table.

use crate::driver::{Driver, Globals};
use crate::export::columns::{game_columns, ply_columns, select};
use crate::export::{
    export_chunk, summary_text, Encoding, ExportCounts, Format, Per, Rows, TableSpec,
};
use crate::output::Sink;
use anyhow::{anyhow, bail, Result};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `pgn960 export`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Columns (docs/export.md): the tags Event, Site, White, Black, Result, WhiteTitle, BlackTitle, WhiteElo, BlackElo, WhiteRatingDiff, BlackRatingDiff, UTCDate, UTCTime, Termination, TimeControl, FEN, then sp, black_sp, variant, start_xfen, plies, moves_san, moves_uci, final_xfen, outcome, speed, clocks, evals, evals_mate, valid, reason, location, source, offset.\nWith --per ply: source, offset, ply, xfen, san, uci, clock, eval, eval_mate, result, sp.\nExit status: 0 all games valid, 1 some invalid (skipped, or exported with --include-invalid), 2 usage or I/O error.\n\nExamples:\n  pgn960 export games.pgn.zst -o games.parquet\n  pgn960 export games.pgn -o plies.parquet --per ply\n  pgn960 export games.pgn -o games.csv --columns Site,sp,Result,plies"
)]
pub struct ExportArgs {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), Parquet tables of games, directories, or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The table (- for standard output, with --format).
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Output format [default: from the extension: .parquet, .csv, .jsonl].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// One row per game, or one per ply of every valid game.
    #[arg(long, value_enum, default_value_t = Per::Game)]
    pub per: Per,
    /// Export invalid games and other variants too (valid = false, reason, location).
    #[arg(long)]
    pub include_invalid: bool,
    /// Add the movetext as written (the lichess dataset's `movetext` column).
    #[arg(long)]
    pub movetext: bool,
    /// Add these tags as columns (strings).
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub tags: Vec<String>,
    /// Write only these columns, in this order.
    #[arg(long, value_delimiter = ',', value_name = "NAME,...")]
    pub columns: Vec<String>,
    /// Megabytes of PGN per chunk of work, and so per Parquet row group (about 300 lichess
    /// games a MB; memory grows with it: four chunks per thread in flight).
    #[arg(long, value_name = "MB", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub row_group_mb: u32,
}

/// Runs `pgn960 export`; returns the counts.
pub fn run(args: &ExportArgs, globals: Globals) -> Result<ExportCounts> {
    let format = match args.format.or_else(|| Format::from_path(&args.output)) {
        Some(f) => f,
        None => bail!(
            "cannot tell the format of {} from its extension: give --format parquet, csv or jsonl",
            args.output.display()
        ),
    };
    if args.include_invalid && args.per == Per::Ply {
        bail!("--include-invalid is for per-game tables: invalid games have no plies");
    }
    let all = match args.per {
        Per::Game => game_columns(&args.tags, args.movetext),
        Per::Ply => ply_columns(&args.tags, args.movetext),
    };
    let plan = TableSpec {
        columns: select(all, &args.columns).map_err(|e| anyhow!(e))?,
        grain: args.per.into(),
        include_invalid: args.include_invalid,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
    };
    // Larger row groups than the 2 MiB chunks of `check` cost less per row group to encode
    // and to read.
    let chunk_bytes = (args.row_group_mb as usize) << 20;
    let mut sink = Sink::create(&args.output, &args.inputs)?;
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut counts = ExportCounts::default();
    let mut bytes = 0u64;
    match format {
        Format::Csv | Format::Jsonl => {
            if format == Format::Csv {
                sink.write_all(&crate::export::text::csv_header(&plan.columns))?;
            }
            let encoding = if format == Format::Csv {
                Encoding::Csv
            } else {
                Encoding::Jsonl
            };
            driver.run_chunks(
                chunk_bytes,
                |name, data, origin, info| {
                    export_chunk(data, origin, info, &name.to_string(), &plan, &encoding)
                },
                |_, chunk, info| {
                    counts.add(&chunk.counts);
                    bytes += info.len as u64;
                    match chunk.rows? {
                        Rows::Text(text) => sink.write_all(&text)?,
                        #[cfg(feature = "parquet")]
                        Rows::Parquet(_) => bail!("internal error: Parquet rows for a text table"),
                    }
                    Ok(())
                },
            )?;
            let seconds = driver.finish();
            check_counts(&counts)?;
            sink.commit()?;
            report(args, &counts, seconds, bytes);
        }
        #[cfg(feature = "parquet")]
        Format::Parquet => {
            let (mut file, encoder) = crate::export::parquet::create(sink, &plan.columns)?;
            let encoding = Encoding::Parquet(std::sync::Arc::new(encoder));
            driver.run_chunks(
                chunk_bytes,
                |name, data, origin, info| {
                    export_chunk(data, origin, info, &name.to_string(), &plan, &encoding)
                },
                |_, chunk, info| {
                    counts.add(&chunk.counts);
                    bytes += info.len as u64;
                    match chunk.rows? {
                        Rows::Parquet(chunks) if chunk.counts.rows > 0 => file.append(chunks)?,
                        Rows::Parquet(_) => {}
                        Rows::Text(_) => bail!("internal error: text rows for a Parquet table"),
                    }
                    Ok(())
                },
            )?;
            let seconds = driver.finish();
            check_counts(&counts)?;
            file.finish()?.commit()?;
            report(args, &counts, seconds, bytes);
        }
        #[cfg(not(feature = "parquet"))]
        Format::Parquet => bail!("this build has no Parquet support (cargo feature `parquet`)"),
    }
    Ok(counts)
}

/// Every game read is exported or skipped with a reason: checked before the table is
/// put in place.
fn check_counts(counts: &ExportCounts) -> Result<()> {
    if counts.games_read != counts.exported + counts.skipped_total() {
        bail!(
            "internal error: games read ({}) != exported ({}) + skipped ({}); no table written",
            counts.games_read,
            counts.exported,
            counts.skipped_total()
        );
    }
    Ok(())
}

/// Prints the counts (to standard error when the table goes to standard output).
fn report(args: &ExportArgs, counts: &ExportCounts, seconds: f64, bytes: u64) {
    let text = summary_text(counts, seconds, bytes);
    if args.output.as_os_str() == "-" {
        eprint!("{text}");
    } else {
        print!("{text}");
        println!("table: {} ({} rows)", args.output.display(), counts.rows);
    }
}
