//! `pgn960 clean`: write every valid game normalised, quarantine the rest with a reason.

use crate::archive::{self, ArchiveOptions, Outputs, Summary};
use crate::cli::castling_style;
use crate::driver::Globals;
use crate::output::{refuse_input, Sink};
use anyhow::{bail, Result};
use chess960_core::CastlingStyle;
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
    /// Where rejected games go, byte for byte as read [default: OUT.rejects.pgn]; a TSV of
    /// reasons is written beside it (.tsv).
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// FEN spelling in written Chess960 games: xfen (KQkq, a file letter only for an inner
    /// rook) or shredder (file letters, HAha).
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen")]
    pub fen_style: CastlingStyle,
    /// Leave comments (and clock annotations) out.
    #[arg(long)]
    pub strip_comments: bool,
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

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("out");
    path.with_file_name(format!("{stem}{suffix}"))
}

/// Runs `pgn960 clean`; returns the summary.
pub fn run(args: &CleanArgs, globals: Globals) -> Result<Summary> {
    let stdout = args.output.as_os_str() == "-";
    let rejects_path = match &args.rejects {
        Some(p) => p.clone(),
        None if stdout => PathBuf::from("stdout.rejects.pgn"),
        None => with_suffix(&args.output, ".rejects.pgn"),
    };
    let tsv_path = rejects_path.with_extension("tsv");
    let mut files = vec![rejects_path.clone(), tsv_path.clone()];
    if !stdout {
        files.push(args.output.clone());
    }
    for (i, a) in files.iter().enumerate() {
        if files[i + 1..].contains(a) {
            bail!("{} is given for two outputs", a.display());
        }
        refuse_input(a, &args.inputs)?;
    }
    let mut tsv = csv::WriterBuilder::new()
        .delimiter(b'\t')
        .from_writer(Sink::create(&tsv_path, &args.inputs)?);
    tsv.flush()?;
    let mut outputs = Outputs {
        kept: Some(Sink::create(&args.output, &args.inputs)?),
        rejects: Some(Sink::create(&rejects_path, &args.inputs)?),
        rejects_tsv: Some(tsv),
    };
    let opts = ArchiveOptions {
        write: true,
        fen_style: args.fen_style,
        strip_comments: args.strip_comments,
        strip_variations: args.strip_variations,
        drop_bad_variations: args.drop_bad_variations,
        min_plies: args.min_plies,
        dedupe: args.dedupe,
        ..ArchiveOptions::default()
    };
    let summary = archive::run(&args.inputs, globals, &opts, &mut outputs, &mut |_| {})?;
    let written_plus = summary.written + summary.rejected + summary.deduplicated;
    if written_plus != summary.games_read {
        bail!(
            "internal error: games read ({}) != written ({}) + rejected ({}) + deduplicated ({}); outputs not written",
            summary.games_read,
            summary.written,
            summary.rejected,
            summary.deduplicated
        );
    }
    // Everything is flushed before anything is renamed into place: a write error on any
    // output (a full disk, a closed pipe) leaves none of them behind.
    let tsv =
        match outputs.rejects_tsv.take() {
            Some(tsv) => Some(tsv.into_inner().map_err(|e| {
                anyhow::anyhow!("cannot write {}: {}", tsv_path.display(), e.error())
            })?),
            None => None,
        };
    let mut sinks = [tsv, outputs.rejects.take(), outputs.kept.take()];
    for sink in sinks.iter_mut().flatten() {
        sink.flush_all()?;
    }
    for sink in sinks.into_iter().flatten() {
        sink.commit()?;
    }
    if let Some(report) = &args.report {
        archive::write_json_report(report, &summary, &args.inputs)?;
    }
    let text = archive::summary_text(&summary, true);
    let check = format!(
        "games read {} = written {} + rejected {} + deduplicated {}\n",
        summary.games_read, summary.written, summary.rejected, summary.deduplicated
    );
    if stdout {
        eprint!("{text}{check}");
    } else {
        print!("{text}{check}");
        println!("kept games:     {}", args.output.display());
        println!(
            "rejected games: {} (reasons in {})",
            rejects_path.display(),
            tsv_path.display()
        );
    }
    Ok(summary)
}
