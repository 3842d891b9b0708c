//! `pgn960 filter`: write the games a selection keeps, byte for byte as read (or
//! normalised), and account for every other game. The run is the library's
//! [`pgn960::archive::filter`]; here are its flags and its summary.

use crate::archive::pick::{PickOptions, PickSummary};
use crate::args::{Inputs, NormaliseOptions, RejectsOption};
use crate::driver::{Driver, Globals};
use crate::output::print_summary;
use anyhow::Result;
use pgn960::archive::filter::{rejects_text, FilterRun, FilterTargets, Filtered};
use pgn960::select::Selection;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `pgn960 filter`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Games read = selected + not selected + rejected, checked at the end of every run. \
Games the tags already drop are not replayed (counted as not selected unless unreadable); \
invalid games are never selected. The summary goes to standard error (-q: none; --count \
prints the counts on standard output).\n{}\n\n\
Examples:\n  pgn960 filter games.pgn -o blitz2000.pgn --min-elo 2000 --time-control blitz --since 2024.01.01\n  \
pgn960 filter games.pgn -o few.pgn --sp 518,0-10,100-399 --rejects bad.pgn --report report.json\n  \
pgn960 filter games.pgn --count --player DrNykterstein --ignore-case", crate::args::common_help())
)]
pub struct FilterArgs {
    /// The games to select from.
    #[command(flatten)]
    pub inputs: Inputs,
    /// The selected games (- for standard output).
    #[arg(short, long, value_name = "OUT.pgn", required_unless_present = "count")]
    pub output: Option<PathBuf>,
    /// Print only the counts; write no games.
    #[arg(long, conflicts_with_all = ["output", "rejects"])]
    pub count: bool,
    /// How selected games are written.
    #[command(flatten)]
    pub normalise: NormaliseOptions,
    /// Where rejected games go.
    #[command(flatten)]
    pub rejects: RejectsOption,
    /// Write the counts (selected, not selected by filter, rejected by reason) as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Which games are selected.
    #[command(flatten)]
    pub selection: Selection,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// The selection and how games are read and written, from the flags.
pub fn pick_options<'s>(
    selection: &'s Selection,
    normalise: &NormaliseOptions,
    globals: Globals,
) -> PickOptions<'s> {
    PickOptions {
        selection,
        normalise: normalise.style(),
        variant_tag: normalise.variant_tag,
        write: true,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        key: None,
    }
}

/// Runs `pgn960 filter`; returns the summary.
pub fn run(args: &FilterArgs, globals: Globals) -> Result<PickSummary> {
    let targets = FilterTargets {
        output: args.output.clone().filter(|_| !args.count),
        rejects: args.rejects.rejects.clone(),
        report: args.report.clone(),
    };
    let run = FilterRun::new(&args.inputs, &targets, globals.quiet)?;
    let driver = Driver::new(&args.inputs, globals)?;
    let opts = pick_options(&args.selection, &args.normalise, globals);
    let filtered = run.write(driver.into_library(), &opts)?;
    report(args, globals, &filtered)?;
    Ok(filtered.summary)
}

/// Prints the summary: on standard error, or with --count on standard output (the counts
/// are then what was asked for).
fn report(args: &FilterArgs, globals: Globals, filtered: &Filtered) -> Result<()> {
    let summary = &filtered.summary;
    let mut text = summary.text();
    if let Some(output) = args.output.as_ref().filter(|o| o.as_os_str() != "-") {
        text.push_str(&format!("selected games: {}\n", output.display()));
    }
    text.push_str(&rejects_text(filtered.rejects.as_ref(), summary.rejected));
    if args.count {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(crate::output::escape_controls(&text, true).as_bytes())?;
        stdout.flush()?;
    } else {
        print_summary(&text, globals.quiet);
    }
    Ok(())
}
