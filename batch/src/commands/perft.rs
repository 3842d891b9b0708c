//! `pgn960 perft`: count legal move trees, or check a whole perft suite.

use crate::driver::Globals;
use crate::signals::INTERRUPTED;
use anyhow::{bail, Context, Result};
use chess960_core::perft::{parse_suite, perft};
use chess960_core::{CastlingNotation, Move, Position};
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Arguments of `pgn960 perft`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 counted (every count of a suite matched), 1 a suite count mismatched, 2 could not run, 130 interrupted (docs/outputs.md).\n\nExamples:\n  pgn960 perft --sp 518 5\n  pgn960 perft \"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9\" 4 --divide\n  pgn960 perft --suite chess960.perft --depth 4"
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
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Threads and quiet.
    #[command(flatten)]
    pub run: crate::args::RunOptions,
}

/// What `--json` prints for one position.
#[derive(Debug, Serialize)]
struct PerftReport {
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    divide: Vec<DivideRow>,
}

#[derive(Debug, Serialize)]
struct DivideRow {
    #[serde(rename = "move")]
    uci: String,
    nodes: u64,
}

/// What `--json` prints for a suite.
#[derive(Debug, Serialize)]
struct SuiteReport {
    positions: usize,
    counts_checked: u64,
    nodes: u64,
    seconds: f64,
    mismatches: Vec<Mismatch>,
}

#[derive(Debug, Serialize)]
struct Mismatch {
    line: usize,
    id: String,
    fen: String,
    /// The depth, or none when the FEN was rejected.
    depth: Option<u32>,
    expected: Option<u64>,
    got: Option<u64>,
    error: Option<String>,
}

/// Subtrees of this depth or less are counted by one thread in one go (a few million nodes,
/// tens of milliseconds): a stop asked for (Ctrl-C) is seen between them.
const TASK_DEPTH: u32 = 5;

/// Counts below each legal move of `pos` to `depth` on `pool`. Above [`TASK_DEPTH`] the
/// moves of every position are spread over the threads (rayon's work stealing keeps them
/// busy, with no list of positions built), so a deep perft uses every thread and stops soon
/// after a Ctrl-C.
pub fn parallel_divide(
    pos: &Position,
    depth: u32,
    pool: &rayon::ThreadPool,
) -> Result<Vec<(Move, u64)>> {
    use rayon::prelude::*;
    if depth == 0 {
        return Ok(Vec::new());
    }
    let roots: Vec<Move> = pos.legal_moves().iter().copied().collect();
    let counts: Option<Vec<u64>> = pool.install(|| {
        roots
            .par_iter()
            .map(|&m| count(&pos.played_unchecked(m), depth - 1))
            .collect()
    });
    let counts = counts.ok_or(pgn960::Error::Interrupted)?;
    Ok(roots.into_iter().zip(counts).collect())
}

/// The perft of `pos` to `depth`, in parallel above [`TASK_DEPTH`]; `None` when stopped.
fn count(pos: &Position, depth: u32) -> Option<u64> {
    use rayon::prelude::*;
    if depth <= TASK_DEPTH {
        return (!INTERRUPTED.load(Ordering::Relaxed)).then(|| perft(pos, depth));
    }
    let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves
        .par_iter()
        .map(|&m| count(&pos.played_unchecked(m), depth - 1))
        .sum()
}

/// Runs `pgn960 perft`; returns whether every count matched (always true without --suite).
pub fn run(args: &PerftArgs, globals: Globals, out: &mut dyn Write) -> Result<bool> {
    let pool = pgn960::pipeline::thread_pool(globals.threads)?;
    if let Some(path) = &args.suite {
        let max_depth = args.max_depth.unwrap_or(u32::MAX);
        return run_suite(path, max_depth, args.json, &pool, out);
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
    let moves = parallel_divide(&pos, depth, &pool)?;
    let total = if depth == 0 {
        1
    } else {
        moves.iter().map(|(_, n)| n).sum()
    };
    let secs = started.elapsed().as_secs_f64();
    if args.json {
        let report = PerftReport {
            fen: pos.to_string(),
            depth,
            nodes: total,
            seconds: secs,
            divide: if args.divide {
                moves
                    .iter()
                    .map(|(m, n)| DivideRow {
                        uci: m.to_uci(CastlingNotation::KingTakesRook).to_string(),
                        nodes: *n,
                    })
                    .collect()
            } else {
                Vec::new()
            },
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(true);
    }
    if args.divide {
        for (m, n) in &moves {
            writeln!(out, "{}: {n}", m.to_uci(CastlingNotation::KingTakesRook))?;
        }
        writeln!(out)?;
    }
    writeln!(out, "{total}")?;
    if !globals.quiet {
        eprintln!(
            "depth {depth}: {total} nodes in {secs:.3} s ({:.1} Mnodes/s, {} threads)",
            total as f64 / secs.max(1e-9) / 1e6,
            pool.current_num_threads()
        );
    }
    Ok(true)
}

fn parse_depth(text: &str) -> Result<u32> {
    text.parse()
        .with_context(|| format!("expected a depth, found {text:?}"))
}

/// The result of one suite entry: its mismatches (or its rejection), counts checked, nodes.
type EntryResult = (Vec<Mismatch>, u64, u64);

/// Checks every entry of the suite at `path` to `max_depth`, in parallel, and writes the
/// mismatches and a summary line (or the JSON report); whether all counts matched.
fn run_suite(
    path: &PathBuf,
    max_depth: u32,
    json: bool,
    pool: &rayon::ThreadPool,
    out: &mut dyn Write,
) -> Result<bool> {
    use rayon::prelude::*;
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let suite = parse_suite(&text).with_context(|| format!("{}", path.display()))?;
    let started = Instant::now();
    // Entries are checked in parallel, reported in file order; a stop is seen between them.
    let results: Option<Vec<EntryResult>> = pool.install(|| {
        suite
            .par_iter()
            .map(|entry| {
                (!INTERRUPTED.load(Ordering::Relaxed)).then(|| check_entry(entry, max_depth))
            })
            .collect()
    });
    let results = results.ok_or(pgn960::Error::Interrupted)?;
    let secs = started.elapsed().as_secs_f64();
    let mut report = SuiteReport {
        positions: suite.len(),
        counts_checked: 0,
        nodes: 0,
        seconds: secs,
        mismatches: Vec::new(),
    };
    for (found, checked, nodes) in results {
        report.counts_checked += checked;
        report.nodes += nodes;
        report.mismatches.extend(found);
    }
    let ok = report.mismatches.is_empty();
    if !ok {
        crate::signals::note_invalid();
    }
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        write_suite_report(out, path, &report)?;
    }
    Ok(ok)
}

/// Checks one suite entry's counts up to `max_depth`.
fn check_entry(entry: &chess960_core::perft::SuiteEntry, max_depth: u32) -> EntryResult {
    let mismatch = |depth, expected, got, error| Mismatch {
        line: entry.line,
        id: entry.id.clone(),
        fen: entry.fen.clone(),
        depth,
        expected,
        got,
        error,
    };
    let pos = match Position::from_fen(&entry.fen) {
        Ok(pos) => pos,
        Err(e) => return (vec![mismatch(None, None, None, Some(e.to_string()))], 0, 0),
    };
    let (mut found, mut checked, mut nodes) = (Vec::new(), 0, 0);
    for &(depth, expected) in entry.counts.iter().filter(|(d, _)| *d <= max_depth) {
        let got = perft(&pos, depth);
        checked += 1;
        nodes += got;
        if got != expected {
            found.push(mismatch(Some(depth), Some(expected), Some(got), None));
        }
    }
    (found, checked, nodes)
}

/// Writes a suite's mismatches, one a line, and its summary line.
fn write_suite_report(out: &mut dyn Write, path: &Path, report: &SuiteReport) -> Result<()> {
    for m in &report.mismatches {
        let at = format!("{}:{}: {}", path.display(), m.line, m.id);
        match (&m.error, m.depth, m.expected, m.got) {
            (Some(error), ..) => writeln!(out, "{at} rejected: {error}")?,
            (None, Some(depth), Some(expected), Some(got)) => writeln!(
                out,
                "{at} depth {depth}: expected {expected}, got {got} ({})",
                m.fen
            )?,
            _ => {}
        }
    }
    let secs = report.seconds;
    writeln!(
        out,
        "{} positions, {} counts checked, {} mismatches, {} nodes in {secs:.2} s ({:.1} Mnodes/s)",
        report.positions,
        report.counts_checked,
        report.mismatches.len(),
        report.nodes,
        report.nodes as f64 / secs.max(1e-9) / 1e6
    )?;
    Ok(())
}
