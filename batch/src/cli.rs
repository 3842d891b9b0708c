//! The command line: global options and subcommands.

use crate::commands::{
    book, check, clean, export, filter, perft, report, sp, split, stats, tree, xfen,
};
use crate::driver::Globals;
use anyhow::Result;
use clap::{Parser, Subcommand};
use pgn960::validate::MissingVariant;

/// Clean, check and analyse Chess960 (Fischer random) PGN archives.
#[derive(Debug, Parser)]
#[command(
    name = "pgn960",
    version,
    about,
    long_about = None,
    after_help = format!("Inputs: {}.\n{}\nA second Ctrl-C stops at once.", crate::args::inputs_help(""), crate::args::common_help())
)]
pub struct Cli {
    /// The options of the commands that read games, also taken before the command's name
    /// (given after it, they win).
    #[command(flatten)]
    pub read: ReadOptions,
    /// The job.
    #[command(subcommand)]
    pub command: Command,
}

pub use crate::args::{ReadOptions, VariantArg};

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every move of every game; report invalid games with file:line:col.
    Check(check::CheckArgs),
    /// Write valid games normalised (X-FEN, canonical SAN); quarantine the rest with a reason.
    Clean(clean::CleanArgs),
    /// Select games (SP, players, ratings, dates, tags, positions...); write them as read.
    Filter(filter::FilterArgs),
    /// Divide games into files by SP, month, event, ... (or N games each).
    Split(split::SplitArgs),
    /// Games as rows of a Parquet, CSV or JSON Lines table (one per game, or per ply).
    Export(export::ExportArgs),
    /// Per-start-position results (SP 0..959) as CSV or JSON; merge tables of separate runs.
    Stats(stats::StatsArgs),
    /// The opening tree of each start position (moves, results, ratings, evals) as CSV or JSON.
    Tree(tree::TreeArgs),
    /// One self-contained HTML page to explore the 960 start positions of an archive.
    Report(report::ReportArgs),
    /// An opening suite for engine testing (EPD or PGN) from games or start positions.
    Book(book::BookArgs),
    /// Convert FENs (PGN FEN tags, FEN/EPD lists) between X-FEN and Shredder-FEN.
    Xfen(xfen::XfenArgs),
    /// Start positions: SP number <-> back rank <-> FEN.
    Sp(sp::SpArgs),
    /// Count move trees (perft), or check a perft suite file.
    Perft(perft::PerftArgs),
}

/// Exit status: all good.
pub const EXIT_OK: i32 = 0;
/// Exit status: some games invalid (or perft mismatches).
pub const EXIT_INVALID: i32 = 1;
/// Exit status: usage or I/O error.
pub const EXIT_ERROR: i32 = 2;
/// Exit status: interrupted (Ctrl-C).
pub const EXIT_INTERRUPTED: i32 = 130;

impl Command {
    /// The reading options given after the command's name (`perft` takes -j and -q only,
    /// `sp` none).
    fn read_options(&self) -> ReadOptions {
        match self {
            Command::Check(a) => a.read.clone(),
            Command::Clean(a) => a.read.clone(),
            Command::Filter(a) => a.read.clone(),
            Command::Split(a) => a.read.clone(),
            Command::Export(a) => a.read.clone(),
            Command::Stats(a) => a.read.clone(),
            Command::Tree(a) => a.read.clone(),
            Command::Report(a) => a.read.clone(),
            Command::Xfen(a) => a.read.clone(),
            Command::Book(a) => a.read.clone(),
            Command::Perft(a) => ReadOptions {
                threads: a.run.threads,
                quiet: a.run.quiet,
                ..ReadOptions::default()
            },
            Command::Sp(_) => ReadOptions::default(),
        }
    }
}

/// The options of a run: those after the command's name win over those before.
fn globals(cli: &Cli) -> Globals {
    let (top, sub) = (&cli.read, cli.command.read_options());
    let quiet = top.quiet || sub.quiet;
    Globals {
        threads: thread_count(sub.threads.or(top.threads).unwrap_or(0)),
        quiet,
        progress: !quiet && !top.no_progress && !sub.no_progress,
        variant: match sub.variant.or(top.variant) {
            Some(VariantArg::Chess960) => MissingVariant::Chess960,
            Some(VariantArg::DoubleChess960) => MissingVariant::DoubleChess960,
            None => MissingVariant::Detect,
        },
        max_game_bytes: sub
            .max_game_bytes
            .or(top.max_game_bytes)
            .unwrap_or(pgn960::pipeline::DEFAULT_MAX_GAME_BYTES),
        assume_sp: sub.assume_sp.or(top.assume_sp),
    }
}

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Result<i32> {
    let globals = globals(&cli);
    let status = |invalid: bool| if invalid { EXIT_INVALID } else { EXIT_OK };
    match &cli.command {
        Command::Check(args) => Ok(status(check::run(args, globals)?.rejected > 0)),
        Command::Clean(args) => Ok(status(clean::run(args, globals)?.rejected > 0)),
        Command::Filter(args) => Ok(status(filter::run(args, globals)?.rejected > 0)),
        Command::Split(args) => Ok(status(split::run(args, globals)?.rejected > 0)),
        Command::Export(args) => {
            let counts = export::run(args, globals)?;
            Ok(status(counts.rejected > 0))
        }
        Command::Stats(args) => Ok(status(stats::run(args, globals)?.invalid() > 0)),
        Command::Tree(args) => Ok(status(tree::run(args, globals)?.invalid() > 0)),
        Command::Report(args) => {
            let page = report::run(args, globals)?;
            let rejected = page.summary.archive.as_ref().map_or(0, |a| a.rejected);
            Ok(status(rejected > 0))
        }
        Command::Xfen(args) => Ok(status(xfen::run(args, globals)? > 0)),
        Command::Book(args) => Ok(status(book::run(args, globals)?.not_valid_total() > 0)),
        Command::Sp(args) => {
            sp::run(args, &mut std::io::stdout().lock())?;
            Ok(EXIT_OK)
        }
        Command::Perft(args) => Ok(status(!perft::run(
            args,
            globals,
            &mut std::io::stdout().lock(),
        )?)),
    }
}

/// Threads per core at most: more only adds switching and memory (each worker holds a few
/// chunks of about 2 MiB in flight).
pub const MAX_THREADS_PER_CORE: usize = 8;

/// The `-j` to use: as asked (0: one per core), at most [`MAX_THREADS_PER_CORE`] per core,
/// with a message when it is lowered.
fn thread_count(asked: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let most = cores * MAX_THREADS_PER_CORE;
    if asked > most {
        eprintln!(
            "pgn960: -j {asked} is more than {MAX_THREADS_PER_CORE} threads per core ({cores} cores); using {most}"
        );
        return most;
    }
    asked
}

/// Prints an error that ended a run and returns its exit status: when the reader of the
/// output went away (`pgn960 check ... | head`), the verdict so far, quietly (1 if
/// something invalid was met, else 0); 130 when interrupted; else 2.
pub fn report_error(e: &anyhow::Error) -> i32 {
    let broken_pipe = e.chain().any(|c| {
        let kind = c.downcast_ref::<std::io::Error>().map(std::io::Error::kind);
        let kind = kind.or_else(|| {
            c.downcast_ref::<pgn960::output::OutputError>()
                .and_then(|o| o.io_kind())
        });
        kind == Some(std::io::ErrorKind::BrokenPipe)
    });
    let interrupted = e.chain().any(|c| {
        matches!(
            c.downcast_ref::<pgn960::Error>(),
            Some(pgn960::Error::Interrupted)
        )
    });
    if broken_pipe {
        if crate::signals::seen_invalid() {
            EXIT_INVALID
        } else {
            EXIT_OK
        }
    } else if interrupted || crate::signals::INTERRUPTED.load(std::sync::atomic::Ordering::Relaxed)
    {
        if crate::output::STDOUT_WRITTEN.load(std::sync::atomic::Ordering::Relaxed) {
            eprintln!("pgn960: interrupted; no file was written, and what went to standard output is incomplete");
        } else {
            eprintln!("pgn960: interrupted; no output was written");
        }
        EXIT_INTERRUPTED
    } else {
        let text = format!("{e:#}");
        eprintln!(
            "pgn960: error: {}",
            crate::output::escape_controls(&text, true)
        );
        EXIT_ERROR
    }
}
