//! `pgn960 split`: divide the selected games into one file per key value (SP, month,
//! event, ...) or per N games, in a directory, every file complete or absent. The
//! directory's files are the library's [`pgn960::archive::split`].

use crate::archive::pick::{
    pick_chunk, run_picks, tally, KeyFn, PickOptions, PickSummary, Rejects,
};
use crate::args::{Inputs, NormaliseOptions, RejectsOption};
use crate::commands::filter::SideOutputs;
use crate::driver::{Driver, Globals};
use crate::output::{OutputError, OutputPlan};
use anyhow::{bail, Result};
pub use pgn960::archive::split::SplitBy;
use pgn960::archive::split::{check_template, file_name, safe_value, Existing, Parts};
use pgn960::select::Selection;
use pgn960::validate::Verdict;
use pgn_parse::Tag;
use std::collections::BTreeMap;
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
    /// File names: {key} is the key's name, {value} the value made safe.
    #[arg(long, value_name = "PATTERN", default_value = "{key}-{value}.pgn")]
    pub template: String,
    /// At most N output files open at once.
    #[arg(long, value_name = "N", default_value_t = 64)]
    pub max_open: usize,
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

/// The report of a split: the counts and the files.
#[derive(serde::Serialize)]
struct SplitReport<'a> {
    #[serde(flatten)]
    summary: &'a PickSummary,
    directory: String,
    files: BTreeMap<&'a str, u64>,
}

/// Runs `pgn960 split`; returns the summary.
pub fn run(args: &SplitArgs, globals: Globals) -> Result<PickSummary> {
    check_template(&args.template).map_err(anyhow::Error::msg)?;
    if std::fs::metadata(&args.output).is_ok_and(|m| !m.is_dir()) {
        bail!("-o {}: not a directory", args.output.display());
    }
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    plan.add_directory("-o", &args.output);
    let side = SideOutputs::plan(&mut plan, &args.rejects, args.report.as_ref());
    plan.check()?;
    let existing = match (args.force, args.append) {
        (true, _) => Existing::Replace,
        (_, true) => Existing::Append,
        _ => Existing::Refuse,
    };
    let mut parts = Parts::create(&args.output, args.max_open, existing, &args.inputs)?;
    let mut rejects = side.create(&plan)?;
    let summary = split_games(args, globals, &mut parts, &mut rejects)?;
    parts.finish(&args.inputs)?;
    let files: BTreeMap<&str, u64> = parts
        .parts
        .iter()
        .map(|p| (p.name.as_str(), p.games))
        .collect();
    let report = SplitReport {
        summary: &summary,
        directory: args.output.display().to_string(),
        files,
    };
    side.finish(&mut plan, rejects, &report)?;
    let (count, appended) = (report.files.len(), parts.appended.len());
    let removed = parts.commit()?;
    plan.commit()?;
    let mut text = summary.text();
    text.push_str(&format!(
        "files written: {count} in {}",
        args.output.display()
    ));
    match existing {
        Existing::Replace => text.push_str(&format!(" ({removed} earlier files removed)")),
        Existing::Append => text.push_str(&format!(" ({appended} of them added to)")),
        Existing::Refuse => {}
    }
    text.push('\n');
    text.push_str(&side.rejects_text(&plan, summary.rejected));
    plan.summary(&text);
    Ok(summary)
}

/// Reads every game and writes each selected one to its part.
fn split_games(
    args: &SplitArgs,
    globals: Globals,
    parts: &mut Parts,
    rejects: &mut Rejects,
) -> Result<PickSummary> {
    let by = args.by;
    let key = move |tags: &[Tag<'_>], verdict: &Verdict| by.value(tags, verdict);
    let opts = PickOptions {
        selection: &args.selection,
        normalise: args.normalise.style(),
        variant_tag: args.normalise.variant_tag,
        write: true,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        key: match by {
            SplitBy::Games(_) => None,
            _ => Some(&key as &KeyFn),
        },
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut summary = PickSummary {
        inputs: driver.names().iter().map(|n| n.to_string()).collect(),
        ..PickSummary::default()
    };
    let template = &args.template;
    run_picks(
        &mut driver,
        |bytes, origin, shape| pick_chunk(bytes, origin, &opts, shape),
        |name, picked, info, input| {
            let mut selected = summary.selected;
            let mut write = |text: &[u8], key: Vec<u8>| -> Result<(), OutputError> {
                let key = match by {
                    SplitBy::Games(n) => format!("{:06}", selected / n + 1).into_bytes(),
                    _ => key,
                };
                selected += 1;
                let id = parts.part(&key, |hash| {
                    file_name(template, by.name(), &safe_value(&key, hash))
                })?;
                parts.write(id, text)
            };
            Ok(tally(
                &mut summary,
                rejects,
                &name.to_string(),
                picked,
                info,
                input,
                &mut write,
            )?)
        },
    )?;
    summary.seconds = driver.finish();
    summary.check()?;
    Ok(summary)
}
