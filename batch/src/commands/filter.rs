//! `pgn960 filter`: write the games a selection keeps, byte for byte as read (or
//! normalised), and account for every other game.

use crate::archive::pick::{
    pick_chunk, run_picks, tally, write_game, PickOptions, PickSummary, Rejects,
};
use crate::cli::castling_style;
use crate::driver::{Driver, Globals};
use crate::output::{check_outputs, commit_all, derived_name, Sink};
use crate::select::Selection;
use anyhow::Result;
use chess960_core::CastlingStyle;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `pgn960 filter`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Games read = selected + not selected + rejected, checked at the end of every run. \
Games the tags already drop are not replayed (counted as not selected unless unreadable); \
invalid games are never selected.\n\
Outputs are written to temporary files and renamed when complete; inputs are never modified.\n\n\
Examples:\n  pgn960 filter games.pgn -o blitz2000.pgn --min-elo 2000 --time-control blitz --since 2024.01.01\n  \
pgn960 filter games.pgn -o few.pgn --sp 518,0-10,100-399 --rejects bad.pgn --report report.json\n  \
pgn960 filter games.pgn --count --player DrNykterstein --ignore-case"
)]
pub struct FilterArgs {
    /// PGN files (.pgn, .pgn.zst, .pgn.gz, .pgn.bz2), Parquet tables of games, directories, or - for stdin.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// The selected games (- for standard output).
    #[arg(short, long, value_name = "OUT.pgn", required_unless_present = "count")]
    pub output: Option<PathBuf>,
    /// Print only the counts; write no games.
    #[arg(long, conflicts_with_all = ["output", "rejects"])]
    pub count: bool,
    /// Write selected games as `clean` does (X-FEN or --fen-style, canonical SAN, the
    /// seven-tag roster first) instead of byte for byte as read.
    #[arg(long, alias = "normalize")]
    pub normalise: bool,
    /// With --normalise: FEN spelling, xfen or shredder.
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen", requires = "normalise")]
    pub fen_style: CastlingStyle,
    /// Write rejected (invalid) games here, byte for byte as read, with a TSV of reasons
    /// beside it (.tsv); otherwise they are only counted.
    #[arg(long, value_name = "FILE")]
    pub rejects: Option<PathBuf>,
    /// Write the counts (selected, not selected by filter, rejected by reason) as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Which games are selected.
    #[command(flatten)]
    pub selection: Selection,
}

/// Runs `pgn960 filter`; returns the summary.
pub fn run(args: &FilterArgs, globals: Globals) -> Result<PickSummary> {
    let tsv = args
        .rejects
        .as_ref()
        .map(|r| derived_name(r, "", "tsv", false));
    let mut planned: Vec<(&str, &Path)> = Vec::new();
    if let Some(output) = &args.output {
        planned.push(("-o", output));
    }
    if let (Some(rejects), Some(tsv)) = (&args.rejects, &tsv) {
        planned.push(("--rejects", rejects));
        planned.push(("reasons of rejected games", tsv));
    }
    if let Some(report) = &args.report {
        planned.push(("--report", report));
    }
    check_outputs(&planned, &args.inputs)?;
    let mut output = match &args.output {
        Some(path) if !args.count => Some(Sink::create(path, &args.inputs)?),
        _ => None,
    };
    let mut rejects = Rejects::default();
    if let (Some(path), Some(tsv)) = (&args.rejects, &tsv) {
        rejects.games = Some(Sink::create(path, &args.inputs)?);
        let mut writer = csv::WriterBuilder::new()
            .delimiter(b'\t')
            .from_writer(Sink::create(tsv, &args.inputs)?);
        writer.flush()?;
        rejects.tsv = Some(writer);
    }
    let opts = PickOptions {
        selection: &args.selection,
        normalise: args.normalise.then_some(args.fen_style),
        write: !args.count,
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        key: None,
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut summary = PickSummary {
        inputs: driver.names().iter().map(|n| n.to_string()).collect(),
        ..PickSummary::default()
    };
    run_picks(
        &mut driver,
        |bytes, origin, held| pick_chunk(bytes, origin, &opts, held),
        |name, picked, info, input| {
            let mut first = summary.selected == 0;
            let mut write = |text: &[u8], _key: Vec<u8>| -> Result<()> {
                if let Some(out) = output.as_mut() {
                    write_game(out, text, first)?;
                }
                first = false;
                Ok(())
            };
            tally(
                &mut summary,
                &mut rejects,
                &name.to_string(),
                picked,
                info,
                input,
                &mut write,
            )
        },
    )?;
    summary.seconds = driver.finish();
    summary.check()?;
    // Every output is finished before any is renamed into place.
    let mut finished = Vec::new();
    if let Some(w) = rejects.tsv.take() {
        let sink = w
            .into_inner()
            .map_err(|e| anyhow::anyhow!("cannot write the reasons file: {}", e.error()))?;
        finished.push(sink.finish()?);
    }
    if let Some(sink) = rejects.games.take() {
        finished.push(sink.finish()?);
    }
    if let Some(sink) = output.take() {
        finished.push(sink.finish()?);
    }
    if let Some(report) = &args.report {
        let mut sink = Sink::create(report, &args.inputs)?;
        serde_json::to_writer_pretty(&mut sink, &summary)?;
        sink.write_all(b"\n")?;
        finished.push(sink.finish()?);
    }
    commit_all(finished)?;
    if globals.quiet && !args.count {
        return Ok(summary);
    }
    let mut text = summary.text();
    if let Some(output) = args.output.as_ref().filter(|o| o.as_os_str() != "-") {
        text.push_str(&format!("selected games: {}\n", output.display()));
    }
    match (&args.rejects, &tsv) {
        (Some(pgn), Some(tsv)) => text.push_str(&format!(
            "rejected games: {} (reasons in {})\n",
            pgn.display(),
            tsv.display()
        )),
        _ if summary.rejected > 0 => text.push_str(&format!(
            "rejected games: {} counted, not written (name a file with --rejects)\n",
            summary.rejected
        )),
        _ => {}
    }
    let to_stdout = args.output.as_ref().is_some_and(|o| o.as_os_str() == "-");
    if to_stdout {
        eprint!("{text}");
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(text.as_bytes())?;
        stdout.flush()?;
    }
    Ok(summary)
}
