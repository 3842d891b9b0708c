//! `pgn960 filter`: write the games a selection keeps, byte for byte as read (or
//! normalised), and account for every other game.

use crate::archive::pick::{
    pick_chunk, run_picks, tally, write_game, PickOptions, PickSummary, Rejects,
};
use crate::args::{Inputs, NormaliseOptions, RejectsOption};
use crate::driver::{Driver, Globals};
use crate::output::{derived_name, OutputError, OutputId, OutputPlan};
use anyhow::Result;
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

/// The outputs of a run of `filter` or `split` beside the games: rejected games, their
/// reasons, the JSON report.
pub struct SideOutputs {
    /// The rejected games and their reasons.
    pub rejects: Option<(OutputId, OutputId)>,
    /// The `--report`.
    pub report: Option<OutputId>,
}

impl SideOutputs {
    /// Adds `--rejects` (and its reasons beside it) and `--report` to `plan`.
    pub fn plan(plan: &mut OutputPlan, rejects: &RejectsOption, report: Option<&PathBuf>) -> Self {
        let rejects = rejects.rejects.as_ref().map(|path| {
            let tsv = derived_name(path, "", "tsv", false);
            let games = plan.add("--rejects", path, "pgn");
            (games, plan.add("reasons of rejected games", &tsv, "tsv"))
        });
        let report = report.map(|path| plan.add("--report", path, "json"));
        SideOutputs { rejects, report }
    }

    /// Creates the rejects outputs.
    pub fn create(&self, plan: &OutputPlan) -> Result<Rejects> {
        let mut rejects = Rejects::default();
        if let Some((games, tsv)) = self.rejects {
            rejects.games = Some(plan.create(games)?);
            rejects.tsv = Some(plan.create_tsv(tsv)?);
        }
        Ok(rejects)
    }

    /// Finishes the rejects outputs and writes the report.
    pub fn finish(
        &self,
        plan: &mut OutputPlan,
        mut rejects: Rejects,
        report: &impl serde::Serialize,
    ) -> Result<()> {
        if let Some(tsv) = rejects.tsv.take() {
            plan.finish_csv(tsv, true)?;
        }
        if let Some(games) = rejects.games.take() {
            plan.finish(games)?;
        }
        if let Some(id) = self.report {
            let mut sink = plan.create(id)?;
            serde_json::to_writer_pretty(&mut sink, report)?;
            sink.write_all(b"\n")?;
            plan.finish(sink)?;
        }
        Ok(())
    }

    /// The summary's line on rejected games.
    pub fn rejects_text(&self, plan: &OutputPlan, rejected: u64) -> String {
        match self.rejects {
            Some((games, tsv)) => format!(
                "rejected games: {} (reasons in {})\n",
                plan.output(games).path.display(),
                plan.output(tsv).path.display()
            ),
            None if rejected > 0 => format!(
                "rejected games: {rejected} counted, not written (name a file with --rejects)\n"
            ),
            None => String::new(),
        }
    }
}

/// Runs `pgn960 filter`; returns the summary.
pub fn run(args: &FilterArgs, globals: Globals) -> Result<PickSummary> {
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    let games_id = match &args.output {
        Some(path) if !args.count => Some(plan.add("-o", path, "pgn")),
        _ => None,
    };
    let side = SideOutputs::plan(&mut plan, &args.rejects, args.report.as_ref());
    plan.check()?;
    let mut output = games_id.map(|id| plan.create(id)).transpose()?;
    let mut rejects = side.create(&plan)?;
    let opts = PickOptions {
        selection: &args.selection,
        normalise: args.normalise.style(),
        variant_tag: args.normalise.variant_tag,
        write: !args.count,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        key: None,
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut summary = PickSummary {
        inputs: driver.names().iter().map(|n| n.to_string()).collect(),
        ..PickSummary::default()
    };
    run_picks(
        &mut driver,
        |bytes, origin, shape| pick_chunk(bytes, origin, &opts, shape),
        |name, picked, info, input| {
            let mut first = summary.selected == 0;
            let mut write = |text: &[u8], _key: Vec<u8>| -> Result<(), OutputError> {
                if let Some(out) = output.as_mut() {
                    write_game(out, text, first)?;
                }
                first = false;
                Ok(())
            };
            Ok(tally(
                &mut summary,
                &mut rejects,
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
    // Every output is finished before any is renamed into place.
    side.finish(&mut plan, rejects, &summary)?;
    if let Some(sink) = output.take() {
        plan.finish(sink)?;
    }
    plan.commit()?;
    report(args, &plan, &side, &summary)?;
    Ok(summary)
}

/// Prints the summary: on standard error, or with --count on standard output (the counts
/// are then what was asked for).
fn report(
    args: &FilterArgs,
    plan: &OutputPlan,
    side: &SideOutputs,
    summary: &PickSummary,
) -> Result<()> {
    let mut text = summary.text();
    if let Some(output) = args.output.as_ref().filter(|o| o.as_os_str() != "-") {
        text.push_str(&format!("selected games: {}\n", output.display()));
    }
    text.push_str(&side.rejects_text(plan, summary.rejected));
    if args.count {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(crate::output::escape_controls(&text, true).as_bytes())?;
        stdout.flush()?;
    } else {
        plan.summary(&text);
    }
    Ok(())
}
