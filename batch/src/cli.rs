//! The command line: global options and subcommands.

use crate::commands::{check, clean, export, filter, perft, report, sp, split, stats, tree, xfen};
use crate::driver::Globals;
use anyhow::Result;
use chess960_core::CastlingStyle;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand};
use pgn960::facts::Speed;
use pgn960::validate::MissingVariant;

/// Clean, check and analyse Chess960 (Fischer random) PGN archives.
#[derive(Debug, Parser)]
#[command(
    name = "pgn960",
    version,
    about,
    long_about = None,
    after_help = "Inputs: files, directories (every .pgn, .pgn.zst, .pgn.gz, .pgn.bz2, .parquet below \
                  them, in path order) or - for standard input; compression and Parquet are \
                  recognised by content.\n\
                  Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error, 130 interrupted \
                  (Ctrl-C; a second Ctrl-C stops at once). Outputs are written to a temporary file \
                  and renamed into place only when complete."
)]
pub struct Cli {
    /// Worker threads (0, the default: one per core; at most 8 per core).
    #[arg(
        short = 'j',
        long,
        global = true,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub threads: usize,
    /// Print nothing but errors: no progress bar, no summary, no problem lines (outputs named
    /// by -o, --json or --report are still written; the exit status still tells).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// No progress bar (it is drawn only when standard error is a terminal).
    #[arg(long, global = true)]
    pub no_progress: bool,
    /// What games without a Variant tag are: `chess960` for archives that never write the
    /// tag (the lichess Parquet dataset; no FEN then means SP 518). Default: Chess960 when
    /// the FEN says so (a non-classical start, file-letter castling), else classical.
    #[arg(long, global = true, value_enum, value_name = "VARIANT")]
    pub variant: Option<VariantArg>,
    /// Reject a game of more bytes as `too-large` (every command that reads games): read in
    /// pieces, never held whole, copied whole to the rejects; a stretch of junk that long is
    /// skipped in pieces. 0: no limit.
    #[arg(
        long,
        global = true,
        value_name = "BYTES",
        default_value_t = pgn960::pipeline::DEFAULT_MAX_GAME_BYTES
    )]
    pub max_game_bytes: usize,
    /// The job.
    #[command(subcommand)]
    pub command: Command,
}

/// The values of `--variant`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum VariantArg {
    /// Games without a Variant tag are Chess960.
    Chess960,
}

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

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Result<i32> {
    let globals = Globals {
        threads: thread_count(cli.threads),
        quiet: cli.quiet,
        progress: !cli.quiet && !cli.no_progress,
        variant: match cli.variant {
            Some(VariantArg::Chess960) => MissingVariant::Chess960,
            None => MissingVariant::Detect,
        },
        max_game_bytes: cli.max_game_bytes,
    };
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
        Command::Stats(args) => {
            stats::run(args, globals)?;
            Ok(EXIT_OK)
        }
        Command::Tree(args) => {
            tree::run(args, globals)?;
            Ok(EXIT_OK)
        }
        Command::Report(args) => {
            report::run(args, globals)?;
            Ok(EXIT_OK)
        }
        Command::Xfen(args) => Ok(status(xfen::run(args, globals)? > 0)),
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
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
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
    } else if interrupted {
        eprintln!("pgn960: interrupted; no output was written");
        EXIT_INTERRUPTED
    } else {
        eprintln!("pgn960: error: {e:#}");
        EXIT_ERROR
    }
}

/// The parser of a castling style option (`xfen`, `shredder`).
pub fn castling_style() -> impl TypedValueParser<Value = CastlingStyle> {
    PossibleValuesParser::new([
        PossibleValue::new("xfen").help("KQkq, a file letter only for an inner rook"),
        PossibleValue::new("shredder").help("file letters, king side first (HAha)"),
    ])
    .map(|s| match s.as_str() {
        "shredder" => CastlingStyle::Shredder,
        _ => CastlingStyle::Xfen,
    })
}

/// The parser of a speed option (`ultra-bullet`, `bullet`, `blitz`, `rapid`, `classical`).
pub fn speed() -> impl TypedValueParser<Value = Speed> {
    PossibleValuesParser::new(Speed::ALL.map(|s| PossibleValue::new(s.name())))
        .map(|s| s.parse().unwrap_or(Speed::Classical))
}
