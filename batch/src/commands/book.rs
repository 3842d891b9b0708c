//! `pgn960 book`: an opening suite for engine testing, from an archive's games or from the
//! start positions (the engine is `pgn960::book`).

use crate::args::castling_style;
use crate::driver::{Driver, Globals};
use crate::output::OutputPlan;
use anyhow::{bail, Result};
use chess960_core::CastlingStyle;
use pgn960::book::{book_chunk, sp_entries, BookCounts, BookFormat, BookOptions, Books};
use std::io::Write;
use std::ops::RangeInclusive;
use std::path::PathBuf;

/// Arguments of `pgn960 book`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("EPD: one position a line, a full FEN (the four EPD fields and the move counters). PGN: one game a position, its start (FEN tag) and the moves that reach it, result *. Positions are deduplicated (placement, side to move, castling, en passant), the first kept. The summary goes to standard error (-q: none).\n{}\n\nExamples:\n  pgn960 book games.pgn -o book.epd --plies 8-12 --eval-window -0.5:0.5\n  pgn960 book games.pgn -o book.pgn --plies 6 --fen-style shredder\n  pgn960 book --sp 0-959 -o frc.epd", crate::args::common_help())
)]
pub struct BookArgs {
    /// The games the positions come from (PGN, compressed, Parquet, directories, -).
    #[arg(
        value_name = "INPUTS",
        required_unless_present = "sp",
        conflicts_with = "sp"
    )]
    pub inputs: Vec<PathBuf>,
    /// The book (.epd or .pgn; - for standard output, with --format).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// epd or pgn [default: from the extension of -o, else epd].
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// The plies after which positions are taken: N or A-B (1 is after white's first move).
    #[arg(long, value_name = "A-B", default_value = "8", value_parser = span::<u32>)]
    pub plies: RangeInclusive<u32>,
    /// Keep only positions whose evaluation after the move is in LOW:HIGH (pawns, white's
    /// view; [%eval], TCEC wv=, cutechess scores); positions without one are left out.
    #[arg(long, value_name = "LOW:HIGH", value_parser = window, allow_hyphen_values = true)]
    pub eval_window: Option<(f64, f64)>,
    /// Keep only positions whose material (1, 3, 3, 5, 9) differs by at most N between the sides.
    #[arg(long, value_name = "N")]
    pub max_imbalance: Option<u32>,
    /// The start positions themselves instead of an archive: N or A-B (0-959).
    #[arg(long, value_name = "A-B", value_parser = span::<u16>)]
    pub sp: Option<RangeInclusive<u16>>,
    /// Castling rights in every FEN: xfen (KQkq) or shredder (HAha).
    #[arg(long, value_name = "STYLE", value_parser = castling_style(), default_value = "xfen")]
    pub fen_style: CastlingStyle,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// The formats of a book.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// FEN lines.
    Epd,
    /// PGN games.
    Pgn,
}

/// `N` or `A-B` (A ≤ B).
fn span<T: std::str::FromStr + PartialOrd + Copy>(text: &str) -> Result<RangeInclusive<T>, String> {
    let number = |t: &str| {
        t.trim()
            .parse::<T>()
            .map_err(|_| format!("not a number: {t:?}"))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => (number(text)?, number(text)?),
    };
    if a > b {
        return Err(format!("{text:?}: the first number is above the second"));
    }
    Ok(a..=b)
}

/// `LOW:HIGH` in pawns (LOW ≤ HIGH).
fn window(text: &str) -> Result<(f64, f64), String> {
    let number = |t: &str| t.trim().parse::<f64>().ok().filter(|v| v.is_finite());
    match text.split_once(':').map(|(a, b)| (number(a), number(b))) {
        Some((Some(low), Some(high))) if low <= high => Ok((low, high)),
        _ => Err(format!(
            "{text:?}: expected LOW:HIGH in pawns, e.g. -0.5:0.5"
        )),
    }
}

/// Runs `pgn960 book`; returns the counts.
pub fn run(args: &BookArgs, globals: Globals) -> Result<BookCounts> {
    let format = match (args.format, args.output.extension()) {
        (Some(f), _) => f,
        (None, Some(ext)) if ext.eq_ignore_ascii_case("pgn") => Format::Pgn,
        _ => Format::Epd,
    };
    if *args.plies.start() == 0 {
        bail!("--plies counts from 1 (the position after white's first move)");
    }
    let options = BookOptions {
        plies: args.plies.clone(),
        eval_window: args.eval_window,
        max_imbalance: args.max_imbalance,
        fen_style: args.fen_style,
        format: match format {
            Format::Epd => BookFormat::Epd,
            Format::Pgn => BookFormat::Pgn,
        },
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
    };
    let mut plan = OutputPlan::new(&args.inputs, globals.quiet);
    let book_id = plan.add(
        "-o",
        &args.output,
        if format == Format::Pgn { "pgn" } else { "epd" },
    );
    plan.check()?;
    let mut books = Books::default();
    if let Some(sps) = &args.sp {
        if *sps.end() > 959 {
            bail!("{}", pgn960::select::sp_out_of_range(sps.end()));
        }
        let entries = sp_entries(sps.clone(), &options);
        books.counts.written = entries.len() as u64;
        books.entries = entries;
    } else {
        let mut driver = Driver::new(&args.inputs, globals)?;
        driver.run(
            |bytes, origin| book_chunk(bytes, origin, &options),
            |_, chunk, _| {
                books.add(chunk);
                Ok(())
            },
        )?;
        driver.finish();
    }
    let c = &books.counts;
    let accounted = c.games_used + c.too_short + c.all_filtered + c.not_valid_total();
    if accounted != c.games_read {
        bail!(
            "internal error: games read {} but {accounted} accounted for",
            c.games_read
        );
    }
    let mut sink = plan.create(book_id)?;
    for entry in &books.entries {
        sink.write_all(entry.text.as_bytes())?;
    }
    plan.finish(sink)?;
    plan.commit()?;
    plan.summary(&summary_text(&books.counts, args.sp.is_some()));
    Ok(books.counts)
}

/// The summary: games by what became of them, positions by filter.
fn summary_text(c: &BookCounts, from_sps: bool) -> String {
    if from_sps {
        return format!("start positions written: {}\n", c.written);
    }
    let mut text = format!(
        "games read {} = used {} + too short {} + every position filtered {} + not valid {}\n",
        c.games_read,
        c.games_used,
        c.too_short,
        c.all_filtered,
        c.not_valid_total()
    );
    for (reason, n) in &c.not_valid {
        text.push_str(&format!("  {reason:<28}{n:>8}\n"));
    }
    text.push_str(&format!(
        "positions {} = written {} + duplicates {} + outside the eval window {} + unbalanced {}\n",
        c.positions, c.written, c.duplicates, c.outside_eval_window, c.unbalanced
    ));
    text
}
