//! `pgn960 split`: divide the selected games into one file per key value (SP, month,
//! event, ...) or per N games, in a directory, every file complete or absent. The run is
//! the library's [`pgn960::archive::split`]; here are its flags and its summary.

use crate::archive::pick::PickSummary;
use crate::args::{Inputs, NormaliseOptions, RejectsOption};
use crate::commands::filter::pick_options;
use crate::driver::{Driver, Globals};
use crate::output::print_summary;
use anyhow::Result;
use pgn960::archive::filter::rejects_text;
pub use pgn960::archive::split::SplitBy;
use pgn960::archive::split::{
    default_max_open, raise_open_file_limit, Existing, SplitOptions, SplitRun, SplitTargets,
};
use pgn960::select::Selection;
use std::path::PathBuf;

/// Arguments of `pgn960 split`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Files are named by --template (default {{key}}-{{value}}.pgn): sp-0518.pgn, \
month-2024-03.pgn, event-Rated_Blitz_game.pgn, games-000001.pgn. In a value, every byte \
but ASCII letters, digits and -_.+ becomes _ (a leading . too) and it is cut to 80 bytes; \
when more than spaces changed, or the name is already another value's, a hash of the \
exact value is added (event-Titled_Arena_2024-a8084c2ad71269e9.pgn): no value can leave \
DIR, and different values get different files. Missing values are `unknown`.\n\
Games read = selected + not selected + rejected; every selected game is in exactly one file.\n\
DIR is locked while a run writes it; a DIR that holds files already is refused unless --force \
(the earlier files are removed once the new ones are in place) or --append (games are added \
to the files of the same name; the others stay). No other output may be inside DIR. The \
summary goes to standard error (-q: none).\n{}\n\n\
Examples:\n  pgn960 split games.pgn --by sp -o by-sp/\n  \
pgn960 split games.pgn --by month -o months/ --min-elo 2000 --rejects bad.pgn\n  \
pgn960 split games.pgn --by games:10000 -o parts/ --template part-{{value}}.pgn", crate::args::common_help())
)]
pub struct SplitArgs {
    /// The games to split.
    #[command(flatten)]
    pub inputs: Inputs,
    /// What to split by: sp, sp-pair, month, year, event, time-control (speed), white,
    /// result, or games:N (files of N games).
    #[arg(long, value_name = "KEY")]
    pub by: SplitBy,
    /// The directory the files go to (created if absent).
    #[arg(short, long, value_name = "DIR")]
    pub output: PathBuf,
    /// File names: {key} is the key's name, {value} the value made safe (plain PGN files:
    /// a compressed extension such as .gz is refused).
    #[arg(long, value_name = "PATTERN", default_value = "{key}-{value}.pgn")]
    pub template: String,
    /// At most N output files open at once [default: half the open-file limit, which split
    /// raises to its hard limit first, at most 4096; 64 if it cannot be read].
    #[arg(long, value_name = "N")]
    pub max_open: Option<usize>,
    /// A DIR that holds files already: replace them (the earlier files are removed once
    /// the new ones are in place).
    #[arg(long, conflicts_with = "append")]
    pub force: bool,
    /// A DIR that holds files already: add the games to the files of the same name and
    /// keep the others.
    #[arg(long)]
    pub append: bool,
    /// How games are written.
    #[command(flatten)]
    pub normalise: NormaliseOptions,
    /// Where rejected games go.
    #[command(flatten)]
    pub rejects: RejectsOption,
    /// Write the counts and the files written as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Which games are split (the others are counted).
    #[command(flatten)]
    pub selection: Selection,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// Runs `pgn960 split`; returns the summary.
pub fn run(args: &SplitArgs, globals: Globals) -> Result<PickSummary> {
    let targets = SplitTargets {
        dir: args.output.clone(),
        rejects: args.rejects.rejects.clone(),
        report: args.report.clone(),
    };
    let existing = match (args.force, args.append) {
        (true, _) => Existing::Replace,
        (_, true) => Existing::Append,
        _ => Existing::Refuse,
    };
    let options = SplitOptions {
        by: args.by,
        template: args.template.clone(),
        max_open: args.max_open.unwrap_or_else(|| {
            raise_open_file_limit();
            default_max_open()
        }),
        existing,
    };
    let run = SplitRun::new(&args.inputs, &targets, options, globals.quiet)?;
    let driver = Driver::new(&args.inputs, globals)?;
    let opts = pick_options(&args.selection, &args.normalise, globals);
    let done = run.write(driver.into_library(), &opts)?;
    let mut text = done.summary.text();
    text.push_str(&format!(
        "files written: {} in {}",
        done.files.len(),
        args.output.display()
    ));
    match existing {
        Existing::Replace => text.push_str(&format!(" ({} earlier files removed)", done.removed)),
        Existing::Append => text.push_str(&format!(" ({} of them added to)", done.appended)),
        Existing::Refuse => {}
    }
    text.push('\n');
    text.push_str(&rejects_text(done.rejects.as_ref(), done.summary.rejected));
    print_summary(&text, globals.quiet);
    Ok(done.summary)
}
