//! `pgn960 clean`: write every valid game normalised, quarantine the rest with a reason.

use crate::archive::{self, ArchiveOptions, ArchiveSummary, Outputs};
use crate::args::{castling_style, variant_spelling, Inputs, RejectsOption};
use crate::driver::Globals;
use crate::output::{derived_name, is_special, OutputId, OutputPlan};
use anyhow::{bail, Result};
use chess960_core::CastlingStyle;
use pgn960::validate::variant::VariantSpelling;
use std::path::PathBuf;

/// Arguments of `pgn960 clean`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Games read = written + rejected + deduplicated, checked at the end of every run; \
the summary goes to standard error (-q: none). Inputs are never modified.\n{}\n\nExample:\n  pgn960 clean games.pgn -o clean.pgn --report report.json", crate::args::common_help())
)]
pub struct CleanArgs {
    /// The games to clean.
    #[command(flatten)]
    pub inputs: Inputs,
    /// The cleaned archive (- for standard output).
    #[arg(short, long, value_name = "OUT.pgn")]
    pub output: PathBuf,
    /// Where rejected games go.
    #[command(flatten)]
    pub rejects: RejectsOption,
    /// FEN spelling in written Chess960 games: xfen (KQkq, a file letter only for an inner
    /// rook) or shredder (file letters, HAha).
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen")]
    pub fen_style: CastlingStyle,
    /// The Variant tag written in Chess960 games: chess960 (Chess960, as lichess),
    /// fischerandom (cutechess, TCEC) or "chess 960" (pychess).
    #[arg(long, value_name = "VALUE", value_parser = variant_spelling(), default_value = "chess960")]
    pub variant_tag: VariantSpelling,
    /// Leave comments out (with their [%clk]/[%eval] annotations, unless --keep-annotations).
    #[arg(long)]
    pub strip_comments: bool,
    /// With --strip-comments: keep these [%...] commands of each comment (e.g. clk,eval; all
    /// for every command), dropping only the text.
    #[arg(
        long,
        value_name = "NAMES",
        value_delimiter = ',',
        requires = "strip_comments"
    )]
    pub keep_annotations: Vec<String>,
    /// Leave variations out.
    #[arg(long)]
    pub strip_variations: bool,
    /// Keep games whose variations have illegal moves, without those variations.
    #[arg(long)]
    pub drop_bad_variations: bool,
    /// Drop repeated games: same start position and same moves (the first is kept).
    #[arg(long)]
    pub dedupe: bool,
    /// Reject games with fewer main-line plies.
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u32>,
    /// Write the counts, by reason, as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// Where rejected games and their reasons go: `--rejects`, else beside a file named by
/// `-o` (`OUT.rejects.pgn`, compressed like `OUT`, and `OUT.rejects.tsv`); none when the
/// kept games go to standard output or a device and `--rejects` is not given.
fn rejects_paths(args: &CleanArgs) -> Option<(PathBuf, PathBuf, bool)> {
    if let Some(rejects) = &args.rejects.rejects {
        let tsv = derived_name(rejects, "", "tsv", false);
        return Some((rejects.clone(), tsv, true));
    }
    let output = &args.output;
    if output.as_os_str() == "-" || is_special(output) {
        return None;
    }
    let pgn = derived_name(output, ".rejects", "pgn", true);
    let tsv = derived_name(output, ".rejects", "tsv", false);
    Some((pgn, tsv, false))
}

/// The outputs of a clean run, planned.
struct CleanPlan {
    plan: OutputPlan,
    kept: OutputId,
    /// The rejected games and their reasons, and whether `--rejects` named them.
    rejects: Option<(OutputId, OutputId, bool)>,
    report: Option<OutputId>,
}

impl CleanPlan {
    fn new(args: &CleanArgs, quiet: bool) -> Result<CleanPlan> {
        let mut plan = OutputPlan::new(&args.inputs, quiet);
        let kept = plan.add("-o", &args.output, "pgn");
        let rejects = rejects_paths(args).map(|(pgn, tsv, asked)| {
            let games = plan.add("rejected games", &pgn, "pgn");
            (
                games,
                plan.add("reasons of rejected games", &tsv, "tsv"),
                asked,
            )
        });
        let report = args
            .report
            .as_ref()
            .map(|r| plan.add("--report", r, "json"));
        plan.check()?;
        Ok(CleanPlan {
            plan,
            kept,
            rejects,
            report,
        })
    }

    fn outputs(&self) -> Result<Outputs> {
        let mut outputs = Outputs {
            kept: Some(self.plan.create(self.kept)?),
            ..Outputs::default()
        };
        if let Some((games, tsv, _)) = self.rejects {
            outputs.rejects = Some(self.plan.create(games)?);
            outputs.rejects_tsv = Some(self.plan.create_tsv(tsv)?);
        }
        Ok(outputs)
    }
}

/// The options of the archive run.
fn archive_options(args: &CleanArgs) -> ArchiveOptions {
    ArchiveOptions {
        write: true,
        fen_style: args.fen_style,
        variant_tag: args.variant_tag,
        strip_comments: args.strip_comments,
        keep_annotations: match args.keep_annotations.as_slice() {
            [] => None,
            names if names.iter().any(|n| n == "all") => Some(Vec::new()),
            names => Some(names.to_vec()),
        },
        strip_variations: args.strip_variations,
        drop_bad_variations: args.drop_bad_variations,
        min_plies: args.min_plies,
        dedupe: args.dedupe,
        ..ArchiveOptions::default()
    }
}

/// Runs `pgn960 clean`; returns the summary.
pub fn run(args: &CleanArgs, globals: Globals) -> Result<ArchiveSummary> {
    let mut planned = CleanPlan::new(args, globals.quiet)?;
    let mut outputs = planned.outputs()?;
    let summary = archive::write(&args.inputs, globals, &archive_options(args), &mut outputs)?;
    let accounted = summary.written + summary.rejected + summary.deduplicated;
    if accounted != summary.games_read {
        bail!(
            "internal error: games read ({}) != written ({}) + rejected ({}) + deduplicated ({}); outputs not written",
            summary.games_read,
            summary.written,
            summary.rejected,
            summary.deduplicated
        );
    }
    // Every output is finished before any is renamed into place: a write error on any (a
    // full disk, a closed pipe) leaves none of them behind. Rejects files nobody asked for
    // are left out when no game was rejected.
    let keep_rejects = summary.rejected > 0 || planned.rejects.is_some_and(|r| r.2);
    let plan = &mut planned.plan;
    if let Some(tsv) = outputs.rejects_tsv.take() {
        plan.finish_csv(tsv, keep_rejects)?;
    }
    if let Some(games) = outputs.rejects.take() {
        plan.finish_if(games, keep_rejects)?;
    }
    if let Some(kept) = outputs.kept.take() {
        plan.finish(kept)?;
    }
    if let Some(id) = planned.report {
        let mut sink = plan.create(id)?;
        archive::write_json(&mut sink, &summary)?;
        plan.finish(sink)?;
    }
    let text = summary_text(args, &planned, &summary, keep_rejects);
    planned.plan.commit()?;
    planned.plan.summary(&text);
    Ok(summary)
}

/// The summary printed after a run.
fn summary_text(
    args: &CleanArgs,
    planned: &CleanPlan,
    summary: &ArchiveSummary,
    keep: bool,
) -> String {
    let mut text = archive::summary_text(summary, true);
    text.push_str(&format!(
        "games read {} = written {} + rejected {} + deduplicated {}\n",
        summary.games_read, summary.written, summary.rejected, summary.deduplicated
    ));
    if args.output.as_os_str() != "-" {
        text.push_str(&format!("kept games:     {}\n", args.output.display()));
    }
    let path = |id| planned.plan.output(id).path.display();
    match planned.rejects {
        Some((games, tsv, _)) if keep => text.push_str(&format!(
            "rejected games: {} (reasons in {})\n",
            path(games),
            path(tsv)
        )),
        Some(_) => text.push_str("rejected games: none, no rejects file written\n"),
        None if summary.rejected > 0 => text.push_str(&format!(
            "rejected games: {} counted, not written (name a file with --rejects)\n",
            summary.rejected
        )),
        None => {}
    }
    text
}
