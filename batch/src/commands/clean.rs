//! `pgn960 clean`: write every valid game normalised, quarantine the rest with a reason.

use crate::archive::{self, ArchiveOptions, Outputs, Summary};
use crate::cli::castling_style;
use crate::driver::Globals;
use crate::output::{check_outputs, commit_all, derived_name, is_special, Sink};
use anyhow::{bail, Result};
use chess960_core::CastlingStyle;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `pgn960 clean`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Games read = written + rejected + deduplicated, checked at the end of every run.\nOutputs are written to temporary files and renamed when complete; inputs are never modified.\n\nExample:\n  pgn960 clean games.pgn -o clean.pgn --report report.json"
)]
pub struct CleanArgs {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), Parquet tables of games, directories, or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The cleaned archive (- for standard output).
    #[arg(short, long, value_name = "OUT.pgn")]
    pub output: PathBuf,
    /// Where rejected games go, byte for byte as read [default: OUT.rejects.pgn beside a file
    /// OUT, compressed like it, and only when a game was rejected; none with -o -]; a TSV of
    /// reasons is written beside it (.tsv).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// FEN spelling in written Chess960 games: xfen (KQkq, a file letter only for an inner
    /// rook) or shredder (file letters, HAha).
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen")]
    pub fen_style: CastlingStyle,
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
}

/// Where rejected games and their reasons go: `--rejects`, else beside a file named by
/// `-o` (`OUT.rejects.pgn`, compressed like `OUT`, and `OUT.rejects.tsv`); none when the
/// kept games go to standard output or a device and `--rejects` is not given.
fn rejects_paths(args: &CleanArgs) -> Option<(PathBuf, PathBuf, bool)> {
    if let Some(rejects) = &args.rejects {
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

/// Runs `pgn960 clean`; returns the summary.
pub fn run(args: &CleanArgs, globals: Globals) -> Result<Summary> {
    let to_stdout = args.output.as_os_str() == "-";
    let rejects = rejects_paths(args);
    let mut planned: Vec<(&str, &Path)> = vec![("-o", &args.output)];
    if let Some((pgn, tsv, _)) = &rejects {
        planned.push(("rejected games", pgn));
        planned.push(("reasons of rejected games", tsv));
    }
    if let Some(report) = &args.report {
        planned.push(("--report", report));
    }
    check_outputs(&planned, &args.inputs)?;
    let mut outputs = Outputs {
        kept: Some(Sink::create(&args.output, &args.inputs)?),
        ..Outputs::default()
    };
    if let Some((pgn, tsv, _)) = &rejects {
        outputs.rejects = Some(Sink::create(pgn, &args.inputs)?);
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b'\t')
            .from_writer(Sink::create(tsv, &args.inputs)?);
        writer.flush()?;
        outputs.rejects_tsv = Some(writer);
    }
    let opts = ArchiveOptions {
        write: true,
        fen_style: args.fen_style,
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
    };
    let summary = archive::write(&args.inputs, globals, &opts, &mut outputs)?;
    let accounted = summary.written + summary.rejected + summary.deduplicated;
    let not_written = if outputs.rejects.is_none() {
        summary.rejected
    } else {
        0
    };
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
    // full disk, a closed pipe) leaves none of them behind.
    let tsv = match outputs.rejects_tsv.take() {
        Some(w) => Some(
            w.into_inner()
                .map_err(|e| anyhow::anyhow!("cannot write the reasons file: {}", e.error()))?,
        ),
        None => None,
    };
    let mut finished = Vec::new();
    // Rejects files nobody asked for are left out when no game was rejected.
    let keep_rejects = summary.rejected > 0 || rejects.as_ref().is_some_and(|r| r.2);
    for sink in [tsv, outputs.rejects.take()].into_iter().flatten() {
        let done = sink.finish()?;
        if keep_rejects {
            finished.push(done);
        }
    }
    finished.push(outputs.kept.take().map(Sink::finish).transpose()?.flatten());
    if let Some(report) = &args.report {
        let mut sink = Sink::create(report, &args.inputs)?;
        archive::write_json(&mut sink, &summary)?;
        finished.push(sink.finish()?);
    }
    commit_all(finished)?;
    if globals.quiet {
        return Ok(summary);
    }
    let mut text = archive::summary_text(&summary, true);
    text.push_str(&format!(
        "games read {} = written {} + rejected {} + deduplicated {}\n",
        summary.games_read, summary.written, summary.rejected, summary.deduplicated
    ));
    if !to_stdout {
        text.push_str(&format!("kept games:     {}\n", args.output.display()));
    }
    match &rejects {
        Some((pgn, tsv, _)) if keep_rejects => text.push_str(&format!(
            "rejected games: {} (reasons in {})\n",
            pgn.display(),
            tsv.display()
        )),
        Some(_) => text.push_str("rejected games: none, no rejects file written\n"),
        None if not_written > 0 => text.push_str(&format!(
            "rejected games: {not_written} counted, not written (name a file with --rejects)\n"
        )),
        None => {}
    }
    if to_stdout {
        eprint!("{text}");
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    Ok(summary)
}
