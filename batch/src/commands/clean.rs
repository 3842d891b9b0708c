//! `pgn960 clean`: write every valid game normalised, quarantine the rest with a reason.

use crate::archive::{self, ArchiveOptions, ArchiveSummary};
use crate::args::{castling_style, variant_spelling, Inputs, RejectsOption};
use crate::driver::{Driver, Globals};
use crate::output::print_summary;
use anyhow::Result;
use chess960_core::CastlingStyle;
use pgn960::archive::clean::{CleanRun, CleanTargets, Cleaned, RejectsWritten};
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

/// Where the outputs go.
fn targets(args: &CleanArgs) -> CleanTargets {
    CleanTargets {
        output: args.output.clone(),
        rejects: args.rejects.rejects.clone(),
        report: args.report.clone(),
    }
}

/// Runs `pgn960 clean`; returns the summary.
pub fn run(args: &CleanArgs, globals: Globals) -> Result<ArchiveSummary> {
    let run = CleanRun::new(&args.inputs, &targets(args), globals.quiet)?;
    let driver = Driver::new(&args.inputs, globals)?;
    let opts = archive::with_globals(&archive_options(args), globals);
    let cleaned = run.write(driver.into_library(), &opts)?;
    print_summary(&summary_text(args, &cleaned), globals.quiet);
    Ok(cleaned.summary)
}

/// The summary printed after a run.
fn summary_text(args: &CleanArgs, cleaned: &Cleaned) -> String {
    let summary = &cleaned.summary;
    let mut text = archive::summary_text(summary, true);
    text.push_str(&format!(
        "games read {} = written {} + rejected {} + deduplicated {}\n",
        summary.games_read, summary.written, summary.rejected, summary.deduplicated
    ));
    if args.output.as_os_str() != "-" {
        text.push_str(&format!("kept games:     {}\n", args.output.display()));
    }
    match &cleaned.rejects {
        RejectsWritten::Files(games, tsv) => text.push_str(&format!(
            "rejected games: {} (reasons in {})\n",
            games.display(),
            tsv.display()
        )),
        RejectsWritten::NoneRejected => {
            text.push_str("rejected games: none, no rejects file written\n")
        }
        RejectsWritten::NotWritten if summary.rejected > 0 => text.push_str(&format!(
            "rejected games: {} counted, not written (name a file with --rejects)\n",
            summary.rejected
        )),
        RejectsWritten::NotWritten => {}
    }
    text
}
