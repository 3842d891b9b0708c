//! `clean`'s outputs: the kept games, the rejected games and their reasons, and a JSON
//! report, planned and checked before any game is read, written by [`super::write`], and
//! renamed into place together only when every one is complete.

use super::{ArchiveOptions, ArchiveSummary, Outputs};
use crate::driver::Driver;
use crate::output::{derived_name, is_special, OutputError, OutputId, OutputPlan};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Where a clean run writes (`-o`, `--rejects`, `--report`).
#[derive(Debug, Clone, Default)]
pub struct CleanTargets {
    /// The cleaned archive (`-` for standard output).
    pub output: PathBuf,
    /// Where rejected games go; their reasons go beside it (`NAME.tsv`). Without it, they
    /// go beside `output` (`OUT.rejects.pgn`, compressed like `OUT`, and
    /// `OUT.rejects.tsv`), or nowhere when `output` is standard output or a device.
    pub rejects: Option<PathBuf>,
    /// The counts, by reason, as JSON.
    pub report: Option<PathBuf>,
}

/// What became of the rejected games of a clean run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RejectsWritten {
    /// Written: the games, and their reasons.
    Files(PathBuf, PathBuf),
    /// Nothing was rejected and no `--rejects` was named: no file written.
    NoneRejected,
    /// No place to write them (the kept games went to standard output or a device).
    NotWritten,
}

/// A finished clean run: its counts and what it wrote.
#[derive(Debug, Clone)]
pub struct Cleaned {
    /// The counts (games read = written + rejected + deduplicated).
    pub summary: ArchiveSummary,
    /// The rejected games.
    pub rejects: RejectsWritten,
    /// Every file written, as `(what, path)` (`-o`, `rejected games`, ...), standard output
    /// left out.
    pub files: Vec<(&'static str, PathBuf)>,
}

/// A clean run's outputs, planned, checked and created (not yet written).
pub struct CleanRun {
    plan: OutputPlan,
    kept: OutputId,
    /// The rejected games and their reasons, and whether `--rejects` named them.
    rejects: Option<(OutputId, OutputId, bool)>,
    report: Option<OutputId>,
    outputs: Outputs,
}

/// Where rejected games and their reasons go (see [`CleanTargets::rejects`]), and whether
/// they were named.
fn rejects_paths(targets: &CleanTargets) -> Option<(PathBuf, PathBuf, bool)> {
    if let Some(rejects) = &targets.rejects {
        let tsv = derived_name(rejects, "", "tsv", false);
        return Some((rejects.clone(), tsv, true));
    }
    let output = &targets.output;
    if output.as_os_str() == "-" || is_special(output) {
        return None;
    }
    let pgn = derived_name(output, ".rejects", "pgn", true);
    let tsv = derived_name(output, ".rejects", "tsv", false);
    Some((pgn, tsv, false))
}

impl CleanRun {
    /// Plans the outputs of a clean run over `inputs`, checks them (no two the same file,
    /// none an input) and creates them under temporary names.
    pub fn new(
        inputs: &[PathBuf],
        targets: &CleanTargets,
        quiet: bool,
    ) -> Result<CleanRun, OutputError> {
        let mut plan = OutputPlan::new(inputs, quiet);
        let kept = plan.add("-o", &targets.output, "pgn");
        let rejects = rejects_paths(targets).map(|(pgn, tsv, asked)| {
            let games = plan.add("rejected games", &pgn, "pgn");
            let reasons = plan.add("reasons of rejected games", &tsv, "tsv");
            (games, reasons, asked)
        });
        let report = (targets.report.as_ref()).map(|r| plan.add("--report", r, "json"));
        plan.check()?;
        let mut outputs = Outputs {
            kept: Some(plan.create(kept)?),
            ..Outputs::default()
        };
        if let Some((games, tsv, _)) = rejects {
            outputs.rejects = Some(plan.create(games)?);
            outputs.rejects_tsv = Some(plan.create_tsv(tsv)?);
        }
        Ok(CleanRun {
            plan,
            kept,
            rejects,
            report,
            outputs,
        })
    }

    /// Cleans every input of `driver` ([`super::write`] with `opts`, which must write) and
    /// renames the outputs into place; on any error none is left behind.
    pub fn write<E: From<crate::Error> + From<OutputError> + Send>(
        mut self,
        driver: Driver<E>,
        opts: &ArchiveOptions,
    ) -> Result<Cleaned, E> {
        let summary = super::write(driver, opts, &mut self.outputs)?;
        Ok(self.commit(summary)?)
    }

    /// Finishes every output, then renames them all into place. Rejects files nobody asked
    /// for are left out when no game was rejected.
    fn commit(mut self, summary: ArchiveSummary) -> Result<Cleaned, OutputError> {
        let accounted = summary.written + summary.rejected + summary.deduplicated;
        if accounted != summary.games_read {
            return Err(OutputError::Failed {
                message: format!(
                    "internal error: games read ({}) != written ({}) + rejected ({}) + deduplicated ({}); outputs not written",
                    summary.games_read, summary.written, summary.rejected, summary.deduplicated
                ),
                cause: None,
            });
        }
        let keep_rejects = summary.rejected > 0 || self.rejects.is_some_and(|r| r.2);
        let plan = &mut self.plan;
        if let Some(tsv) = self.outputs.rejects_tsv.take() {
            plan.finish_csv(tsv, keep_rejects)?;
        }
        if let Some(games) = self.outputs.rejects.take() {
            plan.finish_if(games, keep_rejects)?;
        }
        if let Some(kept) = self.outputs.kept.take() {
            plan.finish(kept)?;
        }
        if let Some(id) = self.report {
            let mut sink = plan.create(id)?;
            write_json(&mut sink, &summary)?;
            plan.finish(sink)?;
        }
        let rejects = match self.rejects {
            Some((games, tsv, _)) if keep_rejects => {
                let path = |id| plan.output(id).path.clone();
                RejectsWritten::Files(path(games), path(tsv))
            }
            Some(_) => RejectsWritten::NoneRejected,
            None => RejectsWritten::NotWritten,
        };
        let files = self.files(&rejects);
        self.plan.commit()?;
        Ok(Cleaned {
            summary,
            rejects,
            files,
        })
    }

    /// The files a run writes, in the plan's order.
    fn files(&self, rejects: &RejectsWritten) -> Vec<(&'static str, PathBuf)> {
        let mut ids = vec![self.kept];
        if let (Some((games, tsv, _)), RejectsWritten::Files(..)) = (self.rejects, rejects) {
            ids.extend([games, tsv]);
        }
        ids.extend(self.report);
        ids.into_iter()
            .map(|id| self.plan.output(id))
            .filter(|o| o.path != Path::new("-"))
            .map(|o| (o.role, o.path.clone()))
            .collect()
    }
}

/// Writes a value as pretty JSON, with a final line break.
pub fn write_json(out: &mut impl Write, value: &impl serde::Serialize) -> Result<(), OutputError> {
    let text = serde_json::to_vec_pretty(value).map_err(|e| OutputError::Failed {
        message: format!("cannot write JSON: {e}"),
        cause: None,
    })?;
    out.write_all(&text)?;
    out.write_all(b"\n")?;
    Ok(())
}
