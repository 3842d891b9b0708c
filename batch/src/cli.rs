//! The command line: global options and subcommands.

use crate::commands::{check, clean, perft, sp, stats, xfen};
use anyhow::Result;
use clap::{Parser, Subcommand};

/// Clean, check and analyse Chess960 (Fischer random) PGN archives.
#[derive(Debug, Parser)]
#[command(
    name = "pgn960",
    version,
    about,
    long_about = None,
    after_help = "Inputs: files, directories (every .pgn, .pgn.zst, .pgn.gz, .pgn.bz2 below them, in \
                  path order) or - for standard input; compression is recognised by content.\n\
                  Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error, 130 interrupted \
                  (Ctrl-C; a second Ctrl-C stops at once). Outputs are written to a temporary file \
                  and renamed into place only when complete."
)]
pub struct Cli {
    /// Worker threads (0, the default: one per core).
    #[arg(
        short = 'j',
        long,
        global = true,
        value_name = "N",
        default_value_t = 0,
        hide_default_value = true
    )]
    pub threads: usize,
    /// No progress bar (it is shown only when standard error is a terminal).
    #[arg(short, long, global = true)]
    pub quiet: bool,
    /// The job.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay every move of every game; report invalid games with file:line:col.
    Check(check::CheckArgs),
    /// Write valid games normalised (X-FEN, canonical SAN); quarantine the rest with a reason.
    Clean(clean::CleanArgs),
    /// Per-start-position results (SP 0..959) as CSV or JSON; merge tables of separate runs.
    Stats(stats::StatsArgs),
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
    match &cli.command {
        Command::Check(args) => {
            let s = check::run(args, cli.threads, cli.quiet)?;
            Ok(if s.rejected == 0 {
                EXIT_OK
            } else {
                EXIT_INVALID
            })
        }
        Command::Clean(args) => {
            let s = clean::run(args, cli.threads, cli.quiet)?;
            Ok(if s.rejected == 0 {
                EXIT_OK
            } else {
                EXIT_INVALID
            })
        }
        Command::Stats(args) => {
            stats::run(args, cli.threads, cli.quiet)?;
            Ok(EXIT_OK)
        }
        Command::Xfen(args) => {
            let failed = xfen::run(args, cli.threads, cli.quiet)?;
            Ok(if failed == 0 { EXIT_OK } else { EXIT_INVALID })
        }
        Command::Sp(args) => {
            sp::run(args, &mut std::io::stdout().lock())?;
            Ok(EXIT_OK)
        }
        Command::Perft(args) => {
            let ok = perft::run(args, &mut std::io::stdout().lock())?;
            Ok(if ok { EXIT_OK } else { EXIT_INVALID })
        }
    }
}
