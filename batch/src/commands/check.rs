//! `pgn960 check`: replay every move of every game and report what is wrong, where.

use crate::archive::{self, ArchiveOptions, ArchiveSummary, Outputs, RejectRow};
use crate::args::Inputs;
use crate::driver::Globals;
use crate::output::{escape_controls, OutputPlan};
use anyhow::Result;
use serde::Serialize;
use std::io::Write;
use std::path::Path;

/// Arguments of `pgn960 check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("The problems and the summary are check's output: they go to standard output (-q: none).\n{}\n\nExample:\n  pgn960 check lichess_db_chess960_rated_2024-01.pgn.zst", crate::args::common_help())
)]
pub struct CheckArgs {
    /// The games to check.
    #[command(flatten)]
    pub inputs: Inputs,
    /// Print a JSON report on standard output instead of the text summary (the counts of
    /// `clean`'s report but those of games written, which check does not write).
    #[arg(long)]
    pub json: bool,
    /// Print at most this many problems (0: none).
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub max_errors: usize,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// The JSON report of `check --json`: the summary without the counts only `clean` fills
/// (`written`, `deduplicated`).
#[derive(Debug, Serialize)]
struct CheckReport<'a> {
    #[serde(flatten)]
    summary: serde_json::Map<String, serde_json::Value>,
    first_problems: &'a [RejectRow],
}

/// The JSON report's summary part.
fn check_summary(summary: &ArchiveSummary) -> Result<serde_json::Map<String, serde_json::Value>> {
    let mut map = match serde_json::to_value(summary)? {
        serde_json::Value::Object(map) => map,
        _ => serde_json::Map::new(),
    };
    map.remove("written");
    map.remove("deduplicated");
    Ok(map)
}

/// Runs `pgn960 check`; returns the summary.
pub fn run(args: &CheckArgs, globals: Globals) -> Result<ArchiveSummary> {
    let mut problems: Vec<RejectRow> = Vec::new();
    let mut outputs = Outputs::default();
    let max = if globals.quiet && !args.json {
        0
    } else {
        args.max_errors
    };
    let json = args.json;
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    let report_id = json.then(|| plan.add("--json", Path::new("-"), "json"));
    plan.check()?;
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
                    written = writeln!(stdout, "{}", escape_controls(&row.message(), false));
                }
                problems.push(row.clone());
            }
        },
    )?;
    written?;
    if let Some(id) = report_id {
        let report = CheckReport {
            summary: check_summary(&summary)?,
            first_problems: &problems,
        };
        drop(stdout);
        let mut sink = plan.create(id)?;
        writeln!(sink, "{}", serde_json::to_string_pretty(&report)?)?;
        plan.finish(sink)?;
        plan.commit()?;
        return Ok(summary);
    } else if !globals.quiet {
        if !problems.is_empty() {
            writeln!(stdout)?;
        }
        let text = archive::summary_text(&summary, false);
        write!(stdout, "{}", escape_controls(&text, true))?;
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
