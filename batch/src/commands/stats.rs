//! `pgn960 stats`: per-start-position results (SP 0..959), Double Chess960 pairs apart,
//! with filters, exact merging of tables from separate runs, CSV or JSON.

use crate::cli::speed;
use crate::driver::{Driver, Globals};
use crate::output::Sink;
use crate::select::{Date, FilteredBy, Filters, GameFacts, Speed};
use crate::stats::table::{Row, Tables, Winner};
use anyhow::{bail, Context, Result};
use chess960_core::sp::StartKind;
use pgn960::pipeline::{ChunkOutput, Cut};
use pgn960::validate::start::{resolve_start, RuleTags, StartOutcome};
use pgn960::validate::{truncation, GameKind, MissingVariant, ValidateOptions, Validator, Verdict};
use pgn_parse::{GameEnd, GameResult, Origin, Reader, Skip, Tag, Visitor};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Output format of the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Comma-separated values with a header row.
    #[default]
    Csv,
    /// A JSON array of rows.
    Json,
}

/// Arguments of `pgn960 stats`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  pgn960 stats lichess_db_chess960_2024-*.pgn.zst -o stats.csv\n  pgn960 stats games.pgn --headers-only --min-elo 2000 --time-control blitz,rapid\n  pgn960 stats --merge jan.csv feb.csv -o q1.csv"
)]
pub struct StatsArgs {
    /// PGN files, Parquet tables of games, directories or - (with --merge: CSV tables written by `pgn960 stats`).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Where the table goes (default: standard output).
    #[arg(short, long, value_name = "FILE", default_value = "-")]
    pub output: PathBuf,
    /// Table format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Write the Double Chess960 table (keyed by white SP, black SP) to this file.
    #[arg(long, value_name = "FILE")]
    pub dfrc: Option<PathBuf>,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    #[arg(long)]
    pub include_classical: bool,
    /// Do not replay moves: trust the FEN and Result tags (much faster).
    #[arg(long)]
    pub headers_only: bool,
    /// Both players rated at least N.
    #[arg(long, value_name = "N")]
    pub min_elo: Option<u32>,
    /// Rating difference at most N.
    #[arg(long, value_name = "N")]
    pub max_elo_diff: Option<u32>,
    /// At least N plies (with --headers-only: from the PlyCount tag, when there is one).
    #[arg(long, value_name = "N")]
    pub min_plies: Option<u32>,
    /// Only these speeds, from the TimeControl tag (lichess boundaries).
    #[arg(long, value_parser = speed(), value_delimiter = ',', value_name = "SPEED")]
    pub time_control: Vec<Speed>,
    /// Games on or after this date (YYYY.MM.DD; UTCDate tag, else Date).
    #[arg(long, value_name = "DATE")]
    pub since: Option<Date>,
    /// Games on or before this date.
    #[arg(long, value_name = "DATE")]
    pub until: Option<Date>,
    /// Merge tables (CSV files from earlier runs) instead of reading games.
    #[arg(long)]
    pub merge: bool,
    /// Draw white's score per SP with its interval as an SVG picture.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// With --chart: leave out SPs with fewer games.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "chart")]
    pub chart_min_games: u64,
    /// Write the summary of counted and excluded games as JSON.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
}

/// Why a game was not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Excluded {
    Invalid,
    Unsupported,
    Unfinished,
    NotAStart,
    Classical,
    Filtered(FilteredBy),
}

impl Excluded {
    fn name(self) -> &'static str {
        match self {
            Excluded::Invalid => "invalid",
            Excluded::Unsupported => "unsupported-variant",
            Excluded::Unfinished => "unfinished",
            Excluded::NotAStart => "mid-game-fen",
            Excluded::Classical => "classical",
            Excluded::Filtered(f) => f.name(),
        }
    }
}

/// The summary of a stats run.
#[derive(Debug, Default, Serialize)]
pub struct StatsSummary {
    /// Games read.
    pub games_read: u64,
    /// Games counted in the SP table.
    pub counted: u64,
    /// Games counted in the Double Chess960 table.
    pub counted_double_chess960: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// Seconds.
    pub seconds: f64,
}

/// The tags stats needs, collected without allocation beyond the FEN values.
#[derive(Default)]
struct HeaderVisitor<'a> {
    tags: Vec<Tag<'a>>,
    skip: bool,
}

impl<'a> Visitor<'a> for HeaderVisitor<'a> {
    type Output = GameEnd;
    fn begin_game(&mut self, _: usize) {
        self.tags.clear();
    }
    fn tag(&mut self, tag: Tag<'a>) {
        if matches!(
            tag.name,
            b"FEN"
                | b"Variant"
                | b"SetUp"
                | b"Result"
                | b"WhiteElo"
                | b"BlackElo"
                | b"TimeControl"
                | b"Date"
                | b"UTCDate"
                | b"PlyCount"
        ) {
            self.tags.push(tag);
        }
    }
    fn end_tags(&mut self) -> Skip {
        Skip(self.skip)
    }
    fn end_game(&mut self, end: GameEnd) -> Self::Output {
        end
    }
}

fn tag_str<'t>(tags: &'t [Tag<'_>], name: &[u8]) -> Option<std::borrow::Cow<'t, str>> {
    tags.iter()
        .find(|t| t.name == name)
        .map(|t| t.value_lossy_str())
}

/// Counts of one chunk.
#[derive(Default)]
struct ChunkStats {
    tables: Tables,
    read: u64,
    counted: u64,
    counted_pairs: u64,
    excluded: BTreeMap<Excluded, u64>,
}

impl ChunkOutput for ChunkStats {
    fn games(&self) -> u64 {
        self.read
    }
}

struct Judge<'o> {
    filters: &'o Filters,
    include_classical: bool,
    missing_variant: MissingVariant,
}

impl Judge<'_> {
    /// Counts one game into `stats`.
    fn count(
        &self,
        stats: &mut ChunkStats,
        tags: &[Tag<'_>],
        verdict: Result<(GameKind, StartKind, GameResult, Option<u32>), Excluded>,
    ) {
        stats.read += 1;
        let outcome = verdict.and_then(|(kind, start, result, plies)| {
            let winner = match result {
                GameResult::WhiteWins => Winner::White,
                GameResult::BlackWins => Winner::Black,
                GameResult::Draw => Winner::Draw,
                GameResult::Unknown => return Err(Excluded::Unfinished),
            };
            if start == StartKind::NotAStart {
                return Err(Excluded::NotAStart);
            }
            if kind == GameKind::Standard && !self.include_classical {
                return Err(Excluded::Classical);
            }
            let facts = GameFacts::from_tags(tags);
            if let Some(f) = self.filters.check(&facts, plies) {
                return Err(Excluded::Filtered(f));
            }
            Ok((start, winner, facts.ratings))
        });
        match outcome {
            Ok((StartKind::Chess960(sp), winner, ratings)) => {
                if let Some(c) = stats.tables.by_sp.get_mut(sp as usize) {
                    c.add(winner, ratings);
                    stats.counted += 1;
                }
            }
            Ok((StartKind::DoubleChess960 { white, black }, winner, ratings)) => {
                stats
                    .tables
                    .by_pair
                    .entry((white, black))
                    .or_default()
                    .add(winner, ratings);
                stats.counted_pairs += 1;
            }
            Ok((StartKind::NotAStart, ..)) => {}
            Err(why) => *stats.excluded.entry(why).or_default() += 1,
        }
    }
}

fn process(bytes: &[u8], origin: Origin, judge: &Judge<'_>, headers_only: bool) -> ChunkStats {
    let mut stats = ChunkStats::default();
    if headers_only {
        let mut reader = Reader::with_origin(bytes, origin);
        let mut v = HeaderVisitor {
            tags: Vec::new(),
            skip: true,
        };
        while let Some(end) = reader.read_game(&mut v) {
            let tags = &v.tags;
            let verdict = if end.error.is_some()
                || truncation(end.termination, &end.byte_range).is_some()
            {
                Err(Excluded::Invalid)
            } else {
                let rule = RuleTags::from_tags(tags);
                match resolve_start(&rule, judge.missing_variant, &mut Vec::new()) {
                    Ok(StartOutcome::Chess(start)) => {
                        let result = tag_str(tags, b"Result").map_or(GameResult::Unknown, |r| {
                            GameResult::from_bytes(r.as_bytes())
                        });
                        let plies = tag_str(tags, b"PlyCount").and_then(|p| p.trim().parse().ok());
                        Ok((start.kind, start.class.kind, result, plies))
                    }
                    Ok(StartOutcome::Unsupported(_)) => Err(Excluded::Unsupported),
                    Err(_) => Err(Excluded::Invalid),
                }
            };
            judge.count(&mut stats, tags, verdict);
        }
        return stats;
    }
    // Each game validated while it is read (no token lists).
    let mut reader = Reader::with_origin(bytes, origin);
    let mut validator = Validator::new(ValidateOptions {
        missing_variant: judge.missing_variant,
        ..ValidateOptions::default()
    });
    while let Some((_, verdict)) = reader.read_game(&mut validator) {
        let verdict = match verdict {
            Verdict::Valid(v) => Ok((v.kind, v.class.kind, v.result, Some(v.plies))),
            Verdict::Unsupported(_) => Err(Excluded::Unsupported),
            Verdict::Invalid(_) => Err(Excluded::Invalid),
        };
        judge.count(&mut stats, validator.tags(), verdict);
    }
    stats
}

fn write_rows(path: &Path, rows: &[Row], format: Format, inputs: &[PathBuf]) -> Result<()> {
    let mut sink = Sink::create(path, inputs)?;
    match format {
        Format::Csv => {
            let mut w = csv::Writer::from_writer(&mut sink);
            for row in rows {
                w.serialize(row)?;
            }
            w.flush()?;
        }
        Format::Json => {
            serde_json::to_writer_pretty(&mut sink, rows)?;
            sink.write_all(b"\n")?;
        }
    }
    sink.commit()
}

/// Reads tables written by `pgn960 stats` (CSV) and adds them up.
pub fn merge_tables(paths: &[PathBuf]) -> Result<Tables> {
    let mut tables = Tables::default();
    for path in paths {
        let mut reader = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        for (i, row) in reader.deserialize::<Row>().enumerate() {
            let row = row.with_context(|| {
                format!(
                    "{}: row {}: not a pgn960 stats table",
                    path.display(),
                    i + 2
                )
            })?;
            let counts = row.counts();
            match row.black_sp {
                Some(black) => tables
                    .by_pair
                    .entry((row.sp, black))
                    .or_default()
                    .merge(&counts),
                None => match tables.by_sp.get_mut(row.sp as usize) {
                    Some(c) => c.merge(&counts),
                    None => bail!(
                        "{}: row {}: SP {} is out of range",
                        path.display(),
                        i + 2,
                        row.sp
                    ),
                },
            }
        }
    }
    Ok(tables)
}

/// Runs `pgn960 stats`.
pub fn run(args: &StatsArgs, globals: Globals) -> Result<StatsSummary> {
    let started = std::time::Instant::now();
    let mut summary = StatsSummary::default();
    let tables = if args.merge {
        merge_tables(&args.inputs)?
    } else {
        let filters = Filters {
            min_elo: args.min_elo,
            max_elo_diff: args.max_elo_diff,
            min_plies: args.min_plies,
            speeds: args.time_control.clone(),
            since: args.since,
            until: args.until,
        };
        let judge = Judge {
            filters: &filters,
            include_classical: args.include_classical,
            missing_variant: globals.variant,
        };
        let mut driver = Driver::new(&args.inputs, globals)?;
        let mut tables = Tables::default();
        let mut excluded: BTreeMap<Excluded, u64> = BTreeMap::new();
        driver.run(
            Cut::Games,
            |bytes, origin| process(bytes, origin, &judge, args.headers_only),
            |_, chunk, _| {
                tables.merge(&chunk.tables);
                summary.games_read += chunk.read;
                summary.counted += chunk.counted;
                summary.counted_double_chess960 += chunk.counted_pairs;
                for (k, v) in chunk.excluded {
                    *excluded.entry(k).or_default() += v;
                }
                Ok(())
            },
        )?;
        driver.finish();
        summary.excluded = excluded.into_iter().map(|(k, v)| (k.name(), v)).collect();
        tables
    };
    summary.seconds = started.elapsed().as_secs_f64();
    let inputs_for_refusal: Vec<PathBuf> = args.inputs.clone();
    write_rows(
        &args.output,
        &tables.sp_rows(),
        args.format,
        &inputs_for_refusal,
    )?;
    if let Some(dfrc) = &args.dfrc {
        write_rows(dfrc, &tables.pair_rows(), args.format, &inputs_for_refusal)?;
    }
    if let Some(report) = &args.report {
        crate::archive::write_json_report(report, &summary, &inputs_for_refusal)?;
    }
    if let Some(chart) = &args.chart {
        // Drawn to a temporary file, then written through a Sink (atomic for regular files,
        // in place for devices such as /dev/null).
        let temp = tempfile::Builder::new().suffix(".svg").tempfile()?;
        crate::stats::chart::draw(&tables, temp.path(), args.chart_min_games)?;
        let svg = std::fs::read(temp.path())
            .with_context(|| format!("cannot read back {}", temp.path().display()))?;
        let mut sink = Sink::create(chart, &inputs_for_refusal)?;
        sink.write_all(&svg)?;
        sink.commit()?;
    }
    if !args.merge {
        let mut text = format!(
            "games read: {}, counted: {} (SP table) + {} (Double Chess960 table)",
            summary.games_read, summary.counted, summary.counted_double_chess960
        );
        for (k, v) in &summary.excluded {
            text.push_str(&format!(", {k}: {v}"));
        }
        eprintln!("{text}");
    }
    Ok(summary)
}
