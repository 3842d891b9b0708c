//! `pgn960 sp`: start-position numbers, back ranks and FENs.

use anyhow::{bail, Context, Result};
use chess960_core::{BackRank, CastlingStyle, Position, StartKind, SP_COUNT};
use serde::Serialize;
use std::io::Write;

/// Arguments of `pgn960 sp`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Exit status: 0 answered, 2 could not (an SP out of range, a back rank or FEN that is no start position, a bad option) (docs/outputs.md).\n\nExamples:\n  pgn960 sp 518\n  pgn960 sp RNBQKBNR\n  pgn960 sp \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"\n  pgn960 sp --all > sp.tsv\n  pgn960 sp --random --seed 7"
)]
pub struct SpArgs {
    /// An SP number (0-959), a back rank (8 letters, e.g. RNBQKBNR) or a FEN.
    #[arg(conflicts_with_all = ["all", "random"])]
    pub query: Option<String>,
    /// Print all 960 start positions as TSV (sp, back rank, X-FEN, Shredder-FEN).
    #[arg(long)]
    pub all: bool,
    /// Print one start position drawn uniformly at random.
    #[arg(long)]
    pub random: bool,
    /// Seed for --random (default: from the clock).
    #[arg(long, requires = "random")]
    pub seed: Option<u64>,
    /// Print JSON (one object, or an array with --all) instead of tab-separated lines.
    #[arg(long)]
    pub json: bool,
}

/// A start position, as `sp` prints it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StartInfo {
    /// The SP number (white's, for a Double Chess960 start).
    pub sp: u16,
    /// White's back rank.
    pub start: String,
    /// Black's SP, for a Double Chess960 start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_sp: Option<u16>,
    /// Black's back rank (seen from white), for a Double Chess960 start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black_start: Option<String>,
    /// The position in X-FEN.
    pub xfen: String,
    /// The position in Shredder-FEN.
    pub shredder_fen: String,
    /// Whether the castling rights are the full rights of the start.
    pub castling_is_full: bool,
}

impl StartInfo {
    /// Start position `sp`.
    fn of_sp(sp: u16) -> Result<StartInfo> {
        let pos = Position::from_sp(sp)?;
        Ok(StartInfo {
            sp,
            start: BackRank::from_sp(sp)?.to_string(),
            black_sp: None,
            black_start: None,
            xfen: pos.to_string(),
            shredder_fen: pos.fen(CastlingStyle::Shredder).to_string(),
            castling_is_full: true,
        })
    }

    /// The tab-separated line: number, back rank, X-FEN, Shredder-FEN (and a note).
    fn line(&self) -> String {
        let note = if self.castling_is_full {
            ""
        } else {
            " (castling rights differ from the start position's)"
        };
        match (self.black_sp, &self.black_start) {
            (Some(black), Some(black_start)) => format!(
                "double chess960: white {} ({}), black {black} ({black_start})\t{}\t{}{note}",
                self.sp, self.start, self.xfen, self.shredder_fen
            ),
            _ => format!(
                "{}\t{}\t{}\t{}{note}",
                self.sp, self.start, self.xfen, self.shredder_fen
            ),
        }
    }
}

/// A small deterministic generator (SplitMix64) for `--random`.
fn splitmix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Draws an SP uniformly (rejection sampling, no modulo bias).
pub fn random_sp(seed: u64) -> u16 {
    let mut state = seed;
    loop {
        state = splitmix(state);
        let candidate = (state >> 54) as u16; // 10 bits: 0..1023
        if candidate < SP_COUNT {
            return candidate;
        }
    }
}

/// What `query` names: an SP number, a back rank or a FEN of a start position.
pub fn resolve_query(query: &str) -> Result<StartInfo> {
    let q = query.trim();
    if let Ok(n) = q.parse::<u32>() {
        let sp = u16::try_from(n).ok().filter(|&n| n < SP_COUNT);
        let Some(sp) = sp else {
            bail!("{}", crate::args::sp_out_of_range(n));
        };
        return StartInfo::of_sp(sp);
    }
    if q.len() == 8 && !q.contains('/') {
        let sp = q
            .parse::<BackRank>()
            .and_then(|r| r.sp())
            .with_context(|| format!("{q:?} is not a Chess960 back rank"))?;
        return StartInfo::of_sp(sp);
    }
    let pos = Position::from_fen(q).with_context(|| format!("cannot read FEN {q:?}"))?;
    let class = pos.classify_start();
    let mut info = match class.kind {
        StartKind::Chess960(sp) => StartInfo::of_sp(sp)?,
        StartKind::DoubleChess960 { white, black } => StartInfo {
            sp: white,
            start: BackRank::from_sp(white)?.to_string(),
            black_sp: Some(black),
            black_start: Some(BackRank::from_sp(black)?.to_string()),
            xfen: pos.to_string(),
            shredder_fen: pos.fen(CastlingStyle::Shredder).to_string(),
            castling_is_full: true,
        },
        StartKind::NotAStart => bail!("not a Chess960 start position: {}", pos),
    };
    info.castling_is_full = class.castling_is_full;
    Ok(info)
}

/// Runs `pgn960 sp`.
pub fn run(args: &SpArgs, out: &mut dyn Write) -> Result<()> {
    let answers = if args.all {
        (0..SP_COUNT)
            .map(StartInfo::of_sp)
            .collect::<Result<Vec<_>>>()?
    } else if args.random {
        let seed = args.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0)
        });
        vec![StartInfo::of_sp(random_sp(seed))?]
    } else {
        let Some(query) = &args.query else {
            bail!("give an SP number, a back rank or a FEN (or --all, --random)");
        };
        vec![resolve_query(query)?]
    };
    if args.json {
        let text = match (args.all, answers.first()) {
            (false, Some(one)) => serde_json::to_string_pretty(one)?,
            _ => serde_json::to_string_pretty(&answers)?,
        };
        writeln!(out, "{text}")?;
        return Ok(());
    }
    if args.all {
        writeln!(out, "sp\tstart\txfen\tshredder_fen")?;
    }
    for answer in &answers {
        writeln!(out, "{}", answer.line())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries() {
        assert_eq!(
            resolve_query("518").unwrap().line(),
            "518\tRNBQKBNR\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\trnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"
        );
        assert!(resolve_query("BBQNNRKR").unwrap().line().starts_with("0\t"));
        assert!(
            resolve_query("rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w CAca - 0 1")
                .unwrap()
                .line()
                .starts_with("959\t")
        );
        assert!(resolve_query("960").is_err());
        assert!(resolve_query("RNBBKQNR").is_ok());
        assert!(resolve_query("RBNBKQNR").is_err());
    }

    #[test]
    fn random_is_uniform_enough_and_in_range() {
        let mut seen = vec![0u32; 960];
        for seed in 0..96_000 {
            seen[random_sp(seed) as usize] += 1;
        }
        assert!(
            seen.iter().all(|&n| n > 50 && n < 170),
            "{:?}",
            seen.iter().min()
        );
    }
}
