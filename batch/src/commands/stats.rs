//! `pgn960 stats`: per-start-position results (SP 0..959), Double Chess960 pairs apart,
//! with filters, exact merging of tables from separate runs, CSV or JSON.

use crate::driver::{Driver, Globals};
use crate::output::{check_outputs, commit_all, is_special, Sink};
use crate::select::{FilteredBy, Filters, GameFacts};
use crate::stats::table;
use crate::stats::table::{Row, Tables, Winner};
use anyhow::{bail, Context, Result};
use chess960_core::StartKind;
use pgn960::pipeline::ChunkOutput;
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
    /// Merge tables (CSV files from earlier runs) instead of reading games: SP tables into
    /// -o, Double Chess960 tables (recognised by their header) into --dfrc.
    #[arg(
        long,
        conflicts_with_all = [
            "include_classical", "headers_only", "min_elo", "max_elo_diff", "min_plies",
            "speeds", "since", "until",
        ]
    )]
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
    /// Which games are counted.
    #[command(flatten)]
    pub filters: Filters,
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
    tags.iter().find(|t| t.name == name).map(|t| t.value_str())
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
    // A game too large to hold comes in pieces: counted once, as invalid (too-large).
    if let Some(part) = origin.part {
        if part.game && part.first {
            judge.count(&mut stats, &[], Err(Excluded::Invalid));
        }
        return stats;
    }
    if headers_only {
        let mut reader = Reader::with_origin(bytes, origin);
        let mut v = HeaderVisitor {
            tags: Vec::new(),
            skip: true,
        };
        while let Some(end) = reader.read_game(&mut v) {
            let tags = &v.tags;
            let verdict = if end.error.is_some()
                || truncation(end.movetext_end, &end.byte_range).is_some()
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

/// Writes a table (with its header even when it has no row), finished but not renamed.
fn write_rows(
    path: &Path,
    rows: &[Row],
    pairs: bool,
    format: Format,
    inputs: &[PathBuf],
) -> Result<Option<crate::output::Finished>> {
    let mut sink = Sink::create(path, inputs)?;
    match format {
        Format::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(&mut sink);
            w.write_record(table::csv_header(pairs))?;
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
    sink.finish()
}

/// The kinds of table `stats` writes, told apart by their header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableKind {
    /// One row per SP.
    Sp,
    /// One row per (white SP, black SP) pair of Double Chess960.
    DoubleChess960,
}

/// The tables read by [`merge_tables`], and which kinds were given.
pub struct Merged {
    /// The sums.
    pub tables: Tables,
    /// Whether SP tables were given.
    pub sp: bool,
    /// Whether Double Chess960 tables were given.
    pub double_chess960: bool,
}

/// Reads tables written by `pgn960 stats` (CSV) and adds them up exactly. A file whose
/// header is not one of ours, a row that cannot be (counts that do not add up, an SP out
/// of range) or a sum past the counters' range is an error naming the file and row.
pub fn merge_tables(paths: &[PathBuf]) -> Result<Merged> {
    let mut merged = Merged {
        tables: Tables::default(),
        sp: false,
        double_chess960: false,
    };
    let headers = [
        (TableKind::Sp, table::csv_header(false)),
        (TableKind::DoubleChess960, table::csv_header(true)),
    ];
    for path in paths {
        let mut reader = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let header: Vec<String> = reader
            .headers()
            .with_context(|| format!("cannot read {}", path.display()))?
            .iter()
            .map(str::to_string)
            .collect();
        let Some(&(kind, _)) = headers.iter().find(|(_, h)| *h == header) else {
            bail!(
                "{}: not a table written by pgn960 stats (its header is {:?})",
                path.display(),
                header.join(",")
            );
        };
        match kind {
            TableKind::Sp => merged.sp = true,
            TableKind::DoubleChess960 => merged.double_chess960 = true,
        }
        for (i, row) in reader.deserialize::<Row>().enumerate() {
            let at = || format!("{}: row {}", path.display(), i + 2);
            let row = row.with_context(|| format!("{}: not a pgn960 stats row", at()))?;
            let counts = row.counts();
            counts
                .check()
                .map_err(|why| anyhow::anyhow!("{}: {why}", at()))?;
            let target = match row.black_sp {
                Some(black) if black < 960 && row.sp < 960 => {
                    merged.tables.by_pair.entry((row.sp, black)).or_default()
                }
                None => match merged.tables.by_sp.get_mut(row.sp as usize) {
                    Some(c) => c,
                    None => bail!("{}: SP {} is out of range", at(), row.sp),
                },
                Some(black) => bail!("{}: SP pair {}/{black} is out of range", at(), row.sp),
            };
            target
                .checked_merge(&counts)
                .with_context(|| format!("{}: the sums overflow", at()))?;
        }
    }
    Ok(merged)
}

/// Runs `pgn960 stats`.
pub fn run(args: &StatsArgs, globals: Globals) -> Result<StatsSummary> {
    let started = std::time::Instant::now();
    let mut summary = StatsSummary::default();
    let (write_sp, write_dfrc) = (true, args.dfrc.is_some());
    let mut planned: Vec<(&str, &Path)> = vec![("-o", &args.output)];
    for (role, path) in [
        ("--dfrc", &args.dfrc),
        ("--report", &args.report),
        ("--chart", &args.chart),
    ] {
        if let Some(path) = path {
            planned.push((role, path));
        }
    }
    check_outputs(&planned, &args.inputs)?;
    if let Some(chart) = &args.chart {
        let svg = chart
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
        if !svg && chart.as_os_str() != "-" && !is_special(chart) {
            bail!(
                "--chart writes SVG: name the file .svg ({} is not)",
                chart.display()
            );
        }
    }
    let (tables, write_sp, write_dfrc) = if args.merge {
        let merged = merge_tables(&args.inputs)?;
        if merged.double_chess960 && args.dfrc.is_none() {
            bail!("Double Chess960 tables were given: name the merged table with --dfrc FILE");
        }
        (
            merged.tables,
            merged.sp || !merged.double_chess960,
            merged.double_chess960,
        )
    } else {
        let filters = args.filters.clone();
        let judge = Judge {
            filters: &filters,
            include_classical: args.include_classical,
            missing_variant: globals.variant,
        };
        let mut driver = Driver::new(&args.inputs, globals)?;
        let mut tables = Tables::default();
        let mut excluded: BTreeMap<Excluded, u64> = BTreeMap::new();
        driver.run(
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
        (tables, write_sp, write_dfrc)
    };
    summary.seconds = started.elapsed().as_secs_f64();
    // Every output is finished before any is renamed into place.
    let inputs = &args.inputs;
    let mut finished = Vec::new();
    if write_sp {
        finished.push(write_rows(
            &args.output,
            &tables.sp_rows(),
            false,
            args.format,
            inputs,
        )?);
    }
    if let (Some(dfrc), true) = (&args.dfrc, write_dfrc) {
        finished.push(write_rows(
            dfrc,
            &tables.pair_rows(),
            true,
            args.format,
            inputs,
        )?);
    }
    if let Some(report) = &args.report {
        let mut sink = Sink::create(report, inputs)?;
        crate::archive::write_json(&mut sink, &summary)?;
        finished.push(sink.finish()?);
    }
    if let Some(chart) = &args.chart {
        let svg = crate::stats::chart::draw(&tables, args.chart_min_games)?;
        let mut sink = Sink::create(chart, inputs)?;
        sink.write_all(svg.as_bytes())?;
        finished.push(sink.finish()?);
    }
    commit_all(finished)?;
    if !args.merge && !globals.quiet {
        let dfrc = match &args.dfrc {
            Some(path) => format!("in {}", path.display()),
            None => "their table: --dfrc FILE".to_string(),
        };
        let mut text = format!(
            "games read: {}, counted: {} in the SP table + {} Double Chess960 games ({dfrc})",
            summary.games_read, summary.counted, summary.counted_double_chess960
        );
        for (k, v) in &summary.excluded {
            text.push_str(&format!(", {k}: {v}"));
        }
        eprintln!("{text}");
    }
    Ok(summary)
}
