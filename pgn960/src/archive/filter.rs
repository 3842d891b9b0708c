//! `filter`'s outputs: the selected games (byte for byte as read, or normalised), the
//! rejected games with their reasons, and a JSON report, planned and checked before any
//! game is read, written in input order and renamed into place together only when every
//! one is complete. [`SideOutputs`] (the rejects and the report) are `split`'s too.

use super::clean::write_json;
use super::pick::{pick_chunk, run_picks, tally, write_game, PickOptions, PickSummary, Rejects};
use crate::driver::Driver;
use crate::output::{derived_name, OutputError, OutputId, OutputPlan, Sink};
use std::path::{Path, PathBuf};

/// The outputs of a run of `filter` or `split` beside the games: rejected games, their
/// reasons, the JSON report.
pub struct SideOutputs {
    /// The rejected games and their reasons.
    pub rejects: Option<(OutputId, OutputId)>,
    /// The `--report`.
    pub report: Option<OutputId>,
}

impl SideOutputs {
    /// Adds `--rejects` (and its reasons beside it, `NAME.tsv`) and `--report` to `plan`.
    pub fn plan(plan: &mut OutputPlan, rejects: Option<&Path>, report: Option<&Path>) -> Self {
        let rejects = rejects.map(|path| {
            let tsv = derived_name(path, "", "tsv", false);
            let games = plan.add("--rejects", path, "pgn");
            (games, plan.add("reasons of rejected games", &tsv, "tsv"))
        });
        let report = report.map(|path| plan.add("--report", path, "json"));
        SideOutputs { rejects, report }
    }

    /// Creates the rejects outputs.
    pub fn create(&self, plan: &OutputPlan) -> Result<Rejects, OutputError> {
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
    ) -> Result<(), OutputError> {
        if let Some(tsv) = rejects.tsv.take() {
            plan.finish_csv(tsv, true)?;
        }
        if let Some(games) = rejects.games.take() {
            plan.finish(games)?;
        }
        if let Some(id) = self.report {
            let mut sink = plan.create(id)?;
            write_json(&mut sink, report)?;
            plan.finish(sink)?;
        }
        Ok(())
    }

    /// Where the rejected games and their reasons went, if they were written.
    pub fn rejects_paths(&self, plan: &OutputPlan) -> Option<(PathBuf, PathBuf)> {
        let path = |id| plan.output(id).path.clone();
        self.rejects.map(|(games, tsv)| (path(games), path(tsv)))
    }
}

/// The summary's line on rejected games: where they went, or that they were only counted.
pub fn rejects_text(rejects: Option<&(PathBuf, PathBuf)>, rejected: u64) -> String {
    match rejects {
        Some((games, tsv)) => format!(
            "rejected games: {} (reasons in {})\n",
            games.display(),
            tsv.display()
        ),
        None if rejected > 0 => format!(
            "rejected games: {rejected} counted, not written (name a file with --rejects)\n"
        ),
        None => String::new(),
    }
}

/// The files of a plan that a run wrote, as `(what, path)`, standard output left out.
pub fn written_files(plan: &OutputPlan, ids: &[OutputId]) -> Vec<(&'static str, PathBuf)> {
    ids.iter()
        .map(|&id| plan.output(id))
        .filter(|o| o.path != Path::new("-"))
        .map(|o| (o.role, o.path.clone()))
        .collect()
}

/// Where a filter run writes (`-o`, `--rejects`, `--report`).
#[derive(Debug, Clone, Default)]
pub struct FilterTargets {
    /// The selected games (`-` for standard output); none: only count them (`--count`).
    pub output: Option<PathBuf>,
    /// The rejected games as read, their reasons beside them (`NAME.tsv`); none: only
    /// counted.
    pub rejects: Option<PathBuf>,
    /// The counts as JSON.
    pub report: Option<PathBuf>,
}

/// A finished filter run: its counts and what it wrote.
#[derive(Debug, Clone)]
pub struct Filtered {
    /// The counts (games read = selected + not selected + rejected).
    pub summary: PickSummary,
    /// The rejected games and their reasons, when written.
    pub rejects: Option<(PathBuf, PathBuf)>,
    /// Every file written, as `(what, path)` (`-o`, `--rejects`, ...), standard output
    /// left out.
    pub files: Vec<(&'static str, PathBuf)>,
}

/// A filter run's outputs, planned, checked and created (not yet written).
pub struct FilterRun {
    plan: OutputPlan,
    games: Option<OutputId>,
    side: SideOutputs,
    output: Option<Sink>,
    rejects: Rejects,
}

impl FilterRun {
    /// Plans the outputs of a filter run over `inputs`, checks them (no two the same file,
    /// none an input) and creates them under temporary names.
    pub fn new(
        inputs: &[PathBuf],
        targets: &FilterTargets,
        quiet: bool,
    ) -> Result<FilterRun, OutputError> {
        let mut plan = OutputPlan::new(inputs, quiet);
        let games = (targets.output.as_ref()).map(|path| plan.add("-o", path, "pgn"));
        let side = SideOutputs::plan(
            &mut plan,
            targets.rejects.as_deref(),
            targets.report.as_deref(),
        );
        plan.check()?;
        let output = games.map(|id| plan.create(id)).transpose()?;
        let rejects = side.create(&plan)?;
        Ok(FilterRun {
            plan,
            games,
            side,
            output,
            rejects,
        })
    }

    /// Filters every input of `driver` with `opts` (the texts of games are kept when an
    /// output takes them, whatever `opts.write` says; no split key) and renames the outputs
    /// into place; on any error none is left behind.
    pub fn write<E: From<crate::Error> + From<OutputError>>(
        mut self,
        mut driver: Driver<E>,
        opts: &PickOptions<'_>,
    ) -> Result<Filtered, E> {
        let opts = PickOptions {
            write: self.output.is_some() || self.side.rejects.is_some(),
            key: None,
            ..*opts
        };
        let mut summary = PickSummary {
            inputs: driver.names().iter().map(|n| n.to_string()).collect(),
            ..PickSummary::default()
        };
        let (output, rejects) = (&mut self.output, &mut self.rejects);
        run_picks(
            &mut driver,
            |bytes, origin, shape| pick_chunk(bytes, origin, &opts, shape),
            |name, picked, info, input| {
                let mut first = summary.selected == 0;
                let mut write = |text: &[u8], _at, _key| -> Result<(), OutputError> {
                    if let Some(out) = output.as_mut() {
                        write_game(out, text, first)?;
                    }
                    first = false;
                    Ok(())
                };
                let file = name.to_string();
                Ok(tally(
                    &mut summary,
                    rejects,
                    &file,
                    picked,
                    info,
                    input.map(|b| &b[..]),
                    &mut write,
                )?)
            },
        )?;
        summary.seconds = driver.finish();
        Ok(self.commit(summary)?)
    }

    /// Checks the counts, finishes every output, then renames them all into place.
    fn commit(mut self, summary: PickSummary) -> Result<Filtered, OutputError> {
        summary.check()?;
        let rejects = std::mem::take(&mut self.rejects);
        // Every output is finished before any is renamed into place.
        self.side.finish(&mut self.plan, rejects, &summary)?;
        if let Some(sink) = self.output.take() {
            self.plan.finish(sink)?;
        }
        self.plan.commit()?;
        let mut ids: Vec<OutputId> = self.games.into_iter().collect();
        ids.extend(self.side.rejects.into_iter().flat_map(|(g, t)| [g, t]));
        ids.extend(self.side.report);
        Ok(Filtered {
            rejects: self.side.rejects_paths(&self.plan),
            files: written_files(&self.plan, &ids),
            summary,
        })
    }
}
