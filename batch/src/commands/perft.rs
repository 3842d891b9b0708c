//! `pgn960 perft`: count legal move trees, or check a whole perft suite.

use anyhow::{bail, Context, Result};
use chess960_core::perft::{divide, parse_suite, perft};
use chess960_core::{CastlingNotation, Position};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `pgn960 perft`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  pgn960 perft --sp 518 5\n  pgn960 perft \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\" 4 --divide\n  pgn960 perft --suite chess960.perft --depth 4"
)]
pub struct PerftArgs {
    /// A FEN (X-FEN and Shredder-FEN accepted), or the depth when --sp or --suite is given.
    pub fen_or_depth: Option<String>,
    /// The depth (plies).
    pub depth: Option<u32>,
    /// Start from Chess960 start position N instead of a FEN.
    #[arg(long, value_name = "N")]
    pub sp: Option<u16>,
    /// Print the count below each legal move (UCI, king-takes-rook castling).
    #[arg(long)]
    pub divide: bool,
    /// Check every count of a suite file (`id/epd/perft D N` blocks, `FEN ;D1 n` EPD lines or
    /// `fen<TAB>depth<TAB>nodes` rows); exits 1 if any differs.
    #[arg(long, value_name = "FILE", conflicts_with = "sp")]
    pub suite: Option<PathBuf>,
    /// With --suite: the deepest depth to check (default: all listed).
    #[arg(long = "depth", value_name = "D", requires = "suite")]
    pub max_depth: Option<u32>,
}

/// Runs `pgn960 perft`; returns whether every count matched (always true without --suite).
pub fn run(args: &PerftArgs, out: &mut dyn Write) -> Result<bool> {
    if let Some(path) = &args.suite {
        return run_suite(path, args.max_depth.unwrap_or(u32::MAX), out);
    }
    let (pos, depth) = match (args.sp, &args.fen_or_depth, args.depth) {
        (Some(sp), Some(d), None) => (Position::from_sp(sp)?, parse_depth(d)?),
        (None, Some(fen), Some(depth)) => (
            Position::from_fen(fen).with_context(|| format!("cannot read FEN {fen:?}"))?,
            depth,
        ),
        _ => bail!("usage: pgn960 perft \"<FEN>\" DEPTH | pgn960 perft --sp N DEPTH | pgn960 perft --suite FILE"),
    };
    let started = Instant::now();
    let total = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, depth) {
            writeln!(out, "{}: {n}", m.to_uci(CastlingNotation::KingTakesRook))?;
            total += n;
        }
        writeln!(out)?;
        total
    } else {
        perft(&pos, depth)
    };
    let secs = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    eprintln!(
        "depth {depth}: {total} nodes in {secs:.3} s ({:.1} Mnodes/s)",
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(true)
}

fn parse_depth(text: &str) -> Result<u32> {
    text.parse()
        .with_context(|| format!("expected a depth, found {text:?}"))
}

fn run_suite(path: &PathBuf, max_depth: u32, out: &mut dyn Write) -> Result<bool> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let suite = parse_suite(&text).with_context(|| format!("{}", path.display()))?;
    let started = Instant::now();
    let (mut checked, mut mismatches, mut nodes) = (0u64, 0u64, 0u64);
    for entry in &suite {
        let pos = match Position::from_fen(&entry.fen) {
            Ok(pos) => pos,
            Err(e) => {
                writeln!(
                    out,
                    "{}:{}: {} rejected: {e}",
                    path.display(),
                    entry.line,
                    entry.id
                )?;
                mismatches += 1;
                continue;
            }
        };
        for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= max_depth) {
            let got = perft(&pos, depth);
            checked += 1;
            nodes += got;
            if got != expected {
                mismatches += 1;
                writeln!(
                    out,
                    "{}:{}: {} depth {depth}: expected {expected}, got {got} ({})",
                    path.display(),
                    entry.line,
                    entry.id,
                    entry.fen
                )?;
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "{} positions, {checked} counts checked, {mismatches} mismatches, {nodes} nodes in {secs:.2} s ({:.1} Mnodes/s)",
        suite.len(),
        nodes as f64 / secs.max(1e-9) / 1e6
    )?;
    Ok(mismatches == 0)
}
