//! `pgn960 check`: replay every move of every game and report what is wrong, where.

use crate::archive::{self, ArchiveOptions, Outputs, RejectRow, Summary};
use crate::driver::Globals;
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `pgn960 check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 all games valid, 1 some invalid, 2 usage or I/O error.\n\nExample:\n  pgn960 check lichess_db_chess960_rated_2024-01.pgn.zst"
)]
pub struct CheckArgs {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), Parquet tables of games, directories (all such files below), or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Print a JSON report on standard output instead of the text summary.
    #[arg(long)]
    pub json: bool,
    /// Print at most this many problems (0: none).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_errors: usize,
}

/// The JSON report of `check --json`.
#[derive(Debug, Serialize)]
struct CheckReport<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    first_problems: &'a [RejectRow],
}

/// Runs `pgn960 check`; returns the summary.
pub fn run(args: &CheckArgs, globals: Globals) -> Result<Summary> {
    let mut problems: Vec<RejectRow> = Vec::new();
    let mut outputs = Outputs::default();
    let max = if globals.quiet && !args.json {
        0
    } else {
        args.max_errors
    };
    let json = args.json;
    let mut stdout = std::io::stdout().lock();
    // A closed standard output (`check ... | head`) ends the run: the error carries it.
    let mut written: std::io::Result<()> = Ok(());
    let summary = archive::run(
        &args.inputs,
        globals,
        &ArchiveOptions::default(),
        &mut outputs,
        &mut |row| {
            if problems.len() < max {
                if !json && written.is_ok() {
                    written = writeln!(stdout, "{}", row.message());
                }
                problems.push(row.clone());
            }
        },
    )?;
    written?;
    if json {
        let report = CheckReport {
            summary: &summary,
            first_problems: &problems,
        };
        writeln!(stdout, "{}", serde_json::to_string_pretty(&report)?)?;
    } else if !globals.quiet {
        if !problems.is_empty() {
            writeln!(stdout)?;
        }
        write!(stdout, "{}", archive::summary_text(&summary, false))?;
        if summary.rejected as usize > problems.len() && max > 0 {
            writeln!(
                stdout,
                "({} more problems not shown; raise --max-errors)",
                summary.rejected as usize - problems.len()
            )?;
        }
    }
    stdout.flush()?;
    Ok(summary)
}
