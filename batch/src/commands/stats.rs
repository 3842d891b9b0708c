//! `pgn960 stats`: per-start-position results (SP 0..959), Double Chess960 pairs apart,
//! cut by `--by` keys, with significance per cell, evaluations, engine-match pairs,
//! filters, exact merging of tables from separate runs, CSV or JSON.

use crate::args::{TableFormat, TableOutput};
use crate::driver::{Driver, Globals};
use crate::output::{is_special, OutputId, OutputPlan, Sink};
use crate::select::{FilteredBy, Filters, GameFacts};
use crate::stats::by::{ByKey, Key, KeyValue};
use crate::stats::pairs::{PairGame, Pairer};
use crate::stats::significance::Homogeneity;
use crate::stats::table;
use crate::stats::table::{Cell, GameEvals, Row, Tables, Winner, EVAL_CAP_CENTIPAWNS};
use anyhow::{bail, Context, Result};
use chess960_core::StartKind;
use pgn960::annotations::Annotations;
use pgn960::pipeline::ChunkOutput;
use pgn960::validate::reason::Repair;
use pgn960::validate::{
    observe_chunk, GameKind, GameObserver, Judged, MissingVariant, ReadMode, ValidateOptions,
    Verdict,
};
use pgn_parse::{GameResult, Origin, Skip, Tag};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The formats of stats tables.
const FORMATS: [TableFormat; 2] = [TableFormat::Csv, TableFormat::Json];

/// Arguments of `pgn960 stats`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Examples:\n  pgn960 stats lichess_db_chess960_2024-*.pgn.zst -o stats.csv\n  pgn960 stats games.pgn --headers-only --min-elo 2000 --time-control blitz,rapid\n  pgn960 stats games.pgn --by time-control,rating-band -o cuts.csv --report r.json\n  pgn960 stats match.pgn --pairs pairs.csv\n  pgn960 stats --merge jan.csv feb.csv -o q1.csv\n\n\
The summary goes to standard error (-q: none). Every table's format is csv or json, from its \
extension (the --dfrc-table and --pairs tables too), else --format, else csv.\n{}", crate::args::common_help())
)]
pub struct StatsArgs {
    /// The inputs.
    #[arg(required = true, help = crate::args::inputs_help(" (with --merge: CSV tables written by `pgn960 stats`)"))]
    pub inputs: Vec<PathBuf>,
    /// The SP table: csv or json.
    #[command(flatten)]
    pub table: TableOutput,
    /// Write the Double Chess960 table (keyed by white SP, black SP) to this file.
    #[arg(long, value_name = "FILE")]
    pub dfrc_table: Option<PathBuf>,
    /// The old name of --dfrc-table (filter's --dfrc selects games): still taken, with a
    /// warning.
    #[arg(
        long = "dfrc",
        value_name = "FILE",
        hide = true,
        conflicts_with = "dfrc_table"
    )]
    pub dfrc_old: Option<PathBuf>,
    /// Count classical games (not marked Chess960, standard start) as SP 518.
    #[arg(long)]
    pub include_classical: bool,
    /// Do not replay moves: trust the FEN and Result tags (much faster; no evaluations, and
    /// a Result contradicting the final position is counted as written).
    #[arg(long)]
    pub headers_only: bool,
    /// Cut the tables by these keys (comma-separated): time-control, month, year,
    /// rating-band, event, white, black. Long format: the key columns first, 960 rows per
    /// combination of key values present.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "KEY")]
    pub by: Vec<ByKey>,
    /// With --by rating-band: the width of a band of the mean rating of both players.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub band_width: u32,
    /// Find engine-match game pairs (same start position, same players with colours swapped,
    /// within 1024 games) and write their pentanomials (from the view of the first pair's
    /// White), score and Elo with its 95% interval per start position and in total.
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<PathBuf>,
    /// Merge tables (CSV files from earlier runs) instead of reading games: SP tables into
    /// -o, Double Chess960 tables (recognised by their header) into --dfrc-table. Tables with
    /// --by keys merge with tables of the same keys only.
    #[arg(
        long,
        conflicts_with_all = [
            "include_classical", "headers_only", "min_elo", "max_elo_diff", "min_plies",
            "speeds", "since", "until", "pairs",
        ]
    )]
    pub merge: bool,
    /// Draw the funnel of chance as an SVG picture: white's score per SP against its number
    /// of games, the band chance alone fills, and the SPs that differ (q < 0.05) named.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
    /// With --chart: leave out SPs with fewer games.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "chart")]
    pub chart_min_games: u64,
    /// Write the summary as JSON: counted and excluded games, results corrected, per cell
    /// the homogeneity test and verdict, the pairs.
    #[arg(long, value_name = "FILE.json")]
    pub report: Option<PathBuf>,
    /// Which games are counted.
    #[command(flatten)]
    pub filters: Filters,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
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
    /// Counted games whose Result contradicted their final checkmate or stalemate: counted
    /// with the result the position gives (0 with --headers-only, which trusts the tag).
    pub results_corrected: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// The --by key columns, in order.
    pub by: Vec<&'static str>,
    /// Per cell of the SP table: the significance tests and their verdict.
    pub significance: Vec<CellReport>,
    /// Per cell of the Double Chess960 table (with --dfrc): the same tests over its pairs.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dfrc_significance: Vec<CellReport>,
    /// The engine-match pairs (--pairs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pairs: Option<PairsReport>,
    /// Seconds.
    pub seconds: f64,
}

impl StatsSummary {
    /// Games not counted because they are invalid.
    pub fn invalid(&self) -> u64 {
        self.excluded.get("invalid").copied().unwrap_or(0)
    }
}

/// The significance of one cell's SP table, for the JSON report.
#[derive(Debug, Serialize)]
pub struct CellReport {
    /// The cell's key values, by column name, in --by order.
    #[serde(serialize_with = "as_map")]
    pub key: Vec<(&'static str, String)>,
    /// Games in the cell.
    pub games: u64,
    /// White's pooled score in the cell.
    pub pooled_white_score: Option<f64>,
    /// The homogeneity test of the SPs' W/D/L (Pearson's `chi2` on `df`, p-value `p` from
    /// the chi-square law or by permutation, see `method`); absent when not testable.
    pub homogeneity: Option<Homogeneity>,
    /// SPs whose q-value is below 0.05.
    pub significant_sps: Vec<u16>,
    /// Double Chess960 (white SP, black SP) pairs whose q-value is below 0.05 (DFRC cells).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub significant_pairs: Vec<(u16, u16)>,
    /// Whether any SP differs beyond chance, in one sentence.
    pub verdict: String,
}

/// Pairs written as a JSON object, in their order.
fn as_map<S: serde::Serializer>(pairs: &[(&'static str, String)], s: S) -> Result<S::Ok, S::Error> {
    s.collect_map(pairs.iter().map(|(k, v)| (k, v)))
}

/// The engine-match pairs of `--pairs`, for the JSON report.
#[derive(Debug, Serialize)]
pub struct PairsReport {
    /// Player A, whose view the pentanomial takes.
    pub player_a: Option<String>,
    /// Player B.
    pub player_b: Option<String>,
    /// Pairs of A and B.
    pub pairs: u64,
    /// Counted games that found no partner.
    pub unpaired_games: u64,
    /// Pairs between players other than A and B (not in the pentanomial).
    pub other_pairs: u64,
    /// The total row of the --pairs table.
    pub total: crate::stats::pairs::PairRow,
}

fn tag_str<'t>(tags: &'t [Tag<'_>], name: &[u8]) -> Option<std::borrow::Cow<'t, str>> {
    tags.iter().find(|t| t.name == name).map(|t| t.value_str())
}

/// The observer of `stats`: reads the `[%eval]` annotations of the main line and counts
/// each judged game.
struct StatsObserver<'j, 'o> {
    judge: &'j Judge<'o>,
    headers_only: bool,
    evals: GameEvals,
    stats: ChunkStats,
}

impl<'a> GameObserver<'a> for StatsObserver<'_, '_> {
    fn tags(&mut self, _tags: &[Tag<'a>]) -> Skip {
        self.evals = GameEvals::default();
        Skip(false)
    }
    fn main_comment(&mut self, text: &'a [u8], plies: u32) {
        // Most comments are clocks: only one that holds an evaluation and could change what
        // is kept (the first of the game, or after ply 10 or 20) is parsed.
        let wanted = !self.evals.any || plies == 10 || plies == 20;
        if wanted && has_eval(text) {
            if let Some(eval) = Annotations::parse(text).eval {
                let cap = EVAL_CAP_CENTIPAWNS as f64 / 100.0;
                let cp = (eval.capped_pawns(cap) * 100.0).round() as i64;
                self.evals.any = true;
                match plies {
                    10 => self.evals.ply10 = Some(cp),
                    20 => self.evals.ply20 = Some(cp),
                    _ => {}
                }
            }
        }
    }
    fn end_game(&mut self, game: Judged<'_, 'a>) {
        let verdict = match game.verdict {
            Verdict::Valid(v) => Ok(Game {
                kind: v.kind,
                start: v.class.kind,
                result: v.result,
                plies: if self.headers_only {
                    tag_str(game.tags, b"PlyCount").and_then(|p| p.trim().parse().ok())
                } else {
                    Some(v.plies)
                },
                evals: self.evals,
                corrected: v
                    .repairs
                    .iter()
                    .any(|r| matches!(r, Repair::ResultCorrected { .. })),
            }),
            Verdict::Unsupported(_) => Err(Excluded::Unsupported),
            Verdict::Invalid(_) => Err(Excluded::Invalid),
        };
        self.judge.count(&mut self.stats, game.tags, verdict);
    }
}

/// Whether a comment has a `%eval` command (a quick look before parsing it).
fn has_eval(text: &[u8]) -> bool {
    memchr::memchr_iter(b'%', text).any(|i| text[i + 1..].starts_with(b"eval"))
}

/// What counting needs of a game that was read.
struct Game {
    kind: GameKind,
    start: StartKind,
    result: GameResult,
    plies: Option<u32>,
    evals: GameEvals,
    corrected: bool,
}

/// Counts of one chunk.
#[derive(Default)]
struct ChunkStats {
    tables: Tables,
    read: u64,
    counted: u64,
    counted_pairs: u64,
    results_corrected: u64,
    excluded: BTreeMap<Excluded, u64>,
    /// The counted games, in order, with --pairs.
    pair_games: Vec<PairGame>,
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
    keys: &'o [ByKey],
    band_width: u32,
    pairs: bool,
    max_game_bytes: usize,
}

impl Judge<'_> {
    /// Counts one game into `stats`.
    fn count(&self, stats: &mut ChunkStats, tags: &[Tag<'_>], verdict: Result<Game, Excluded>) {
        stats.read += 1;
        let mut evals = GameEvals::default();
        let mut corrected = false;
        let outcome = verdict.and_then(|game| {
            let Game {
                kind,
                start,
                result,
                plies,
                ..
            } = game;
            (evals, corrected) = (game.evals, game.corrected);
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
            if let Some(f) = self
                .filters
                .check(&facts, crate::select::date_span(tags), plies)
            {
                return Err(Excluded::Filtered(f));
            }
            Ok((start, winner, facts))
        });
        let (start, winner, facts) = match outcome {
            Ok(counted) => counted,
            Err(why) => {
                *stats.excluded.entry(why).or_default() += 1;
                return;
            }
        };
        let key: Key = self
            .keys
            .iter()
            .map(|&k| KeyValue::of(k, tags, &facts, self.band_width))
            .collect();
        let (counts, pair_start) = match start {
            StartKind::Chess960(sp) if sp < 960 => {
                stats.counted += 1;
                match stats.tables.sp_counts(&key, sp) {
                    Some(counts) => (counts, (sp, None)),
                    None => return,
                }
            }
            StartKind::DoubleChess960 { white, black } => {
                stats.counted_pairs += 1;
                let counts = stats.tables.by_pair.entry((key, white, black)).or_default();
                (counts, (white, Some(black)))
            }
            _ => return,
        };
        counts.add(winner, facts.ratings);
        counts.add_evals(&evals);
        stats.results_corrected += u64::from(corrected);
        if self.pairs {
            let name = |n: &[u8]| {
                tag_str(tags, n)
                    .map(|v| v.trim().to_string())
                    .unwrap_or_default()
            };
            stats.pair_games.push(PairGame {
                start: pair_start,
                white: name(b"White"),
                black: name(b"Black"),
                winner,
            });
        }
    }
}

/// Counts the games of one chunk, read by the library's loop (tags only with
/// `--headers-only`).
fn process(bytes: &[u8], origin: Origin, judge: &Judge<'_>, headers_only: bool) -> ChunkStats {
    let mut observer = StatsObserver {
        judge,
        headers_only,
        evals: GameEvals::default(),
        stats: ChunkStats {
            tables: Tables::new(judge.keys.to_vec()),
            ..ChunkStats::default()
        },
    };
    let opts = ValidateOptions {
        missing_variant: judge.missing_variant,
        max_game_bytes: judge.max_game_bytes,
        ..ValidateOptions::default()
    };
    let mode = if headers_only {
        ReadMode::TagsOnly
    } else {
        ReadMode::Replay
    };
    observe_chunk(bytes, origin, &opts, mode, false, &mut observer);
    observer.stats
}

/// Writes a table of cells (with its header even when it has no row): the key columns
/// first, then the row's.
fn write_cells(
    mut sink: Sink,
    keys: &[ByKey],
    cells: impl Iterator<Item = Cell>,
    pairs: bool,
    format: TableFormat,
    mut seen: impl FnMut(&Cell),
) -> Result<Sink> {
    match format {
        TableFormat::Csv | TableFormat::Jsonl | TableFormat::Parquet => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(&mut sink);
            let mut header: Vec<String> = keys.iter().map(|k| k.column().to_string()).collect();
            header.extend(table::csv_header(pairs));
            w.write_record(&header)?;
            for cell in cells {
                let labels: Vec<String> = cell.key.iter().map(KeyValue::label).collect();
                for row in &cell.rows {
                    for label in &labels {
                        w.write_field(label)?;
                    }
                    w.serialize(row)?;
                }
                seen(&cell);
            }
            w.flush()?;
        }
        TableFormat::Json => {
            // Rows as serde_json writes a pretty array, the key fields first in each.
            let mut first = true;
            sink.write_all(b"[")?;
            for cell in cells {
                let mut prefix = String::new();
                for (k, v) in keys.iter().zip(&cell.key) {
                    let value = serde_json::to_string(&v.label())?;
                    prefix.push_str(&format!("\n  \"{}\": {value},", k.column()));
                }
                for row in &cell.rows {
                    let text = serde_json::to_string_pretty(row)?;
                    let body = text.strip_prefix('{').unwrap_or(&text);
                    let object = format!("{{{prefix}{body}").replace('\n', "\n  ");
                    sink.write_all(if first { &b"\n  "[..] } else { &b",\n  "[..] })?;
                    sink.write_all(object.as_bytes())?;
                    first = false;
                }
                seen(&cell);
            }
            sink.write_all(if first { &b"]\n"[..] } else { &b"\n]\n"[..] })?;
        }
    }
    Ok(sink)
}

/// The report of one cell's significance.
fn cell_report(keys: &[ByKey], cell: &Cell) -> CellReport {
    let a = &cell.analysis;
    CellReport {
        key: keys
            .iter()
            .zip(&cell.key)
            .map(|(k, v)| (k.column(), v.label()))
            .collect(),
        games: a.pooled.games,
        pooled_white_score: a.pooled.score,
        homogeneity: a.homogeneity,
        significant_sps: cell
            .rows
            .iter()
            .filter(|r| {
                r.q_value
                    .is_some_and(|q| q < crate::stats::significance::ALPHA)
            })
            .map(|r| r.sp)
            .collect(),
        significant_pairs: Vec::new(),
        verdict: a.verdict.text.clone(),
    }
}

/// The report of one Double Chess960 cell: its pairs' tests, named as pairs.
fn dfrc_cell_report(keys: &[ByKey], cell: &Cell) -> CellReport {
    let a = &cell.analysis;
    let pair = |i: usize| cell.rows.get(i).map(|r| (r.sp, r.black_sp.unwrap_or(r.sp)));
    let name = |i: usize| pair(i).map_or(format!("row {i}"), |(w, b)| format!("pair {w}/{b}"));
    let verdict =
        crate::stats::significance::verdict_naming(a.homogeneity.as_ref(), &a.tests, &name);
    CellReport {
        significant_sps: Vec::new(),
        significant_pairs: (0..cell.rows.len())
            .filter(|&i| {
                a.tests
                    .get(i)
                    .and_then(|t| t.q)
                    .is_some_and(|q| q < crate::stats::significance::ALPHA)
            })
            .filter_map(pair)
            .collect(),
        verdict: verdict.text,
        ..cell_report(keys, cell)
    }
}

/// Writes the `--pairs` table.
fn write_pairs(mut sink: Sink, pairer: &Pairer, format: TableFormat) -> Result<Sink> {
    let rows = pairer.rows();
    match format {
        TableFormat::Csv | TableFormat::Jsonl | TableFormat::Parquet => {
            let mut w = csv::Writer::from_writer(&mut sink);
            for row in &rows {
                w.serialize(row)?;
            }
            w.flush()?;
        }
        TableFormat::Json => {
            serde_json::to_writer_pretty(&mut sink, &rows)?;
            sink.write_all(b"\n")?;
        }
    }
    Ok(sink)
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
/// header is not one of ours, whose `--by` keys differ from the first file's (or from
/// `keys`, when given), a row that cannot be (counts that do not add up, an SP out of range,
/// a key value that is none) or a sum past the counters' range is an error naming the file
/// and row.
pub fn merge_tables(paths: &[PathBuf], keys: &[ByKey]) -> Result<Merged> {
    let mut merged = Merged {
        tables: Tables::new(keys.to_vec()),
        sp: false,
        double_chess960: false,
    };
    let headers = [
        (TableKind::Sp, table::csv_header(false)),
        (TableKind::DoubleChess960, table::csv_header(true)),
    ];
    let mut first_keys: Option<Vec<ByKey>> = (!keys.is_empty()).then(|| keys.to_vec());
    for path in paths {
        let mut reader = csv::Reader::from_path(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let header = reader
            .headers()
            .with_context(|| format!("cannot read {}", path.display()))?
            .clone();
        let file_keys: Vec<ByKey> = header.iter().map_while(ByKey::from_column).collect();
        let rest: Vec<String> = header
            .iter()
            .skip(file_keys.len())
            .map(str::to_string)
            .collect();
        let Some(&(kind, _)) = headers.iter().find(|(_, h)| *h == rest) else {
            bail!(
                "{}: not a table written by pgn960 stats (its header is {:?})",
                path.display(),
                header.iter().collect::<Vec<_>>().join(",")
            );
        };
        let names = |k: &[ByKey]| {
            let names: Vec<&str> = k.iter().map(|k| k.column()).collect();
            if names.is_empty() {
                "no --by keys".to_string()
            } else {
                format!("--by keys {}", names.join(","))
            }
        };
        match &first_keys {
            Some(expected) if *expected != file_keys => bail!(
                "{}: a table with {}, not {}: tables merge only with tables of the same keys",
                path.display(),
                names(&file_keys),
                names(expected)
            ),
            Some(_) => {}
            None => first_keys = Some(file_keys.clone()),
        }
        merged.tables.keys = file_keys.clone();
        match kind {
            TableKind::Sp => merged.sp = true,
            TableKind::DoubleChess960 => merged.double_chess960 = true,
        }
        for (i, record) in reader.records().enumerate() {
            let at = || format!("{}: row {}", path.display(), i + 2);
            let record = record.with_context(|| format!("{}: not a CSV row", at()))?;
            let row: Row = record
                .deserialize(Some(&header))
                .with_context(|| format!("{}: not a pgn960 stats row", at()))?;
            let key = file_keys
                .iter()
                .zip(record.iter())
                .map(|(&k, text)| KeyValue::parse(k, text))
                .collect::<Result<Key, String>>()
                .map_err(|why| anyhow::anyhow!("{}: {why}", at()))?;
            let counts = row.counts();
            counts
                .check()
                .map_err(|why| anyhow::anyhow!("{}: {why}", at()))?;
            let target = match row.black_sp {
                Some(black) if black < 960 && row.sp < 960 => merged
                    .tables
                    .by_pair
                    .entry((key, row.sp, black))
                    .or_default(),
                None if row.sp < 960 => match merged.tables.sp_counts(&key, row.sp) {
                    Some(counts) => counts,
                    None => bail!("{}: cannot count SP {}", at(), row.sp),
                },
                None => bail!("{}: SP {} is out of range", at(), row.sp),
                Some(black) => bail!("{}: SP pair {}/{black} is out of range", at(), row.sp),
            };
            target
                .checked_merge(&counts)
                .with_context(|| format!("{}: the sums overflow", at()))?;
        }
    }
    // An all-zero row adds nothing: drop the cells it made, so that the merge of tables
    // equals the table of the games (whose cells exist only with games).
    for cell in merged.tables.by_sp.values_mut() {
        cell.retain(|_, c| c.games > 0);
    }
    merged.tables.by_sp.retain(|_, cell| !cell.is_empty());
    merged.tables.by_pair.retain(|_, c| c.games > 0);
    Ok(merged)
}

/// The outputs of a stats run, planned, with their formats.
struct StatsOutputs {
    plan: OutputPlan,
    sp: (OutputId, TableFormat),
    dfrc: Option<(OutputId, TableFormat)>,
    pairs: Option<(OutputId, TableFormat)>,
    report: Option<OutputId>,
    chart: Option<OutputId>,
}

impl StatsOutputs {
    /// Plans every output: each table's format by the one rule (its extension, else
    /// `--format`, else csv), the chart an SVG file.
    fn new(args: &StatsArgs, quiet: bool) -> Result<StatsOutputs> {
        let mut plan = OutputPlan::new(&args.inputs, quiet);
        let given = args.table.format;
        let sp_format = TableFormat::choose(
            "stats",
            &args.table.output,
            given,
            &FORMATS,
            Some(TableFormat::Csv),
        )?;
        let mut table = |role, path: &Path| -> Result<(OutputId, TableFormat)> {
            let format = TableFormat::choose("stats", path, given, &FORMATS, Some(sp_format))?;
            Ok((plan.add(role, path, format.name()), format))
        };
        let sp = table("-o", &args.table.output)?;
        let dfrc = dfrc_path(args)
            .map(|p| table("--dfrc-table", p))
            .transpose()?;
        let pairs = args
            .pairs
            .as_ref()
            .map(|p| table("--pairs", p))
            .transpose()?;
        let report = args
            .report
            .as_ref()
            .map(|p| plan.add("--report", p, "json"));
        let chart = args.chart.as_ref().map(|p| plan.add("--chart", p, "svg"));
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
        plan.check()?;
        Ok(StatsOutputs {
            plan,
            sp,
            dfrc,
            pairs,
            report,
            chart,
        })
    }
}

/// The Double Chess960 table's path: `--dfrc-table`, or the old `--dfrc` with a warning.
fn dfrc_path(args: &StatsArgs) -> Option<&PathBuf> {
    if args.dfrc_old.is_some() {
        eprintln!("pgn960: stats --dfrc is now --dfrc-table (filter's --dfrc selects games); --dfrc still works for now");
    }
    args.dfrc_table.as_ref().or(args.dfrc_old.as_ref())
}

/// Counts every game of the inputs into tables (and the pairs into `pairer`).
fn count_games(
    args: &StatsArgs,
    globals: Globals,
    summary: &mut StatsSummary,
    pairer: &mut Pairer,
) -> Result<Tables> {
    let filters = args.filters.clone();
    let judge = Judge {
        filters: &filters,
        include_classical: args.include_classical,
        missing_variant: globals.variant,
        keys: &args.by,
        band_width: args.band_width,
        pairs: args.pairs.is_some(),
        max_game_bytes: globals.max_game_bytes,
    };
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut tables = Tables::new(args.by.clone());
    let mut excluded: BTreeMap<Excluded, u64> = BTreeMap::new();
    driver.run(
        |bytes, origin| process(bytes, origin, &judge, args.headers_only),
        |_, chunk, _| {
            tables.merge(chunk.tables);
            summary.games_read += chunk.read;
            summary.counted += chunk.counted;
            summary.counted_double_chess960 += chunk.counted_pairs;
            summary.results_corrected += chunk.results_corrected;
            for (k, v) in chunk.excluded {
                *excluded.entry(k).or_default() += v;
            }
            for game in chunk.pair_games {
                pairer.push(game);
            }
            Ok(())
        },
    )?;
    driver.finish();
    pairer.finish();
    summary.excluded = excluded.into_iter().map(|(k, v)| (k.name(), v)).collect();
    Ok(tables)
}

/// Runs `pgn960 stats`.
pub fn run(args: &StatsArgs, globals: Globals) -> Result<StatsSummary> {
    let started = std::time::Instant::now();
    let mut summary = StatsSummary::default();
    let mut outputs = StatsOutputs::new(args, globals.quiet)?;
    let mut pairer = Pairer::default();
    let (tables, write_sp, write_dfrc) = if args.merge {
        let merged = merge_tables(&args.inputs, &args.by)?;
        if merged.double_chess960 && outputs.dfrc.is_none() {
            bail!(
                "Double Chess960 tables were given: name the merged table with --dfrc-table FILE"
            );
        }
        (
            merged.tables,
            merged.sp || !merged.double_chess960,
            merged.double_chess960,
        )
    } else {
        let tables = count_games(args, globals, &mut summary, &mut pairer)?;
        (tables, true, outputs.dfrc.is_some())
    };
    summary.by = tables.keys.iter().map(|k| k.column()).collect();
    // Every output is finished before any is renamed into place.
    let plan = &mut outputs.plan;
    let keys = &tables.keys;
    if write_sp {
        let cells = tables.sp_keys().into_iter().map(|k| tables.sp_cell(&k));
        let (id, format) = outputs.sp;
        let mut reports = Vec::new();
        let sink = write_cells(plan.create(id)?, keys, cells, false, format, |cell| {
            reports.push(cell_report(keys, cell))
        })?;
        plan.finish(sink)?;
        summary.significance = reports;
    }
    if let (Some((id, format)), true) = (outputs.dfrc, write_dfrc) {
        let cells = tables.pair_cells().into_iter();
        let mut dfrc_reports = Vec::new();
        let sink = write_cells(plan.create(id)?, keys, cells, true, format, |cell| {
            dfrc_reports.push(dfrc_cell_report(keys, cell))
        })?;
        plan.finish(sink)?;
        summary.dfrc_significance = dfrc_reports;
    }
    if let Some((id, format)) = outputs.pairs {
        plan.finish(write_pairs(plan.create(id)?, &pairer, format)?)?;
        summary.pairs = pairs_report(&pairer);
    }
    summary.seconds = started.elapsed().as_secs_f64();
    if let Some(id) = outputs.report {
        let mut sink = plan.create(id)?;
        crate::archive::write_json(&mut sink, &summary)?;
        plan.finish(sink)?;
    }
    if let Some(id) = outputs.chart {
        let svg = crate::stats::chart::draw(&tables, args.chart_min_games)?;
        let mut sink = plan.create(id)?;
        sink.write_all(svg.as_bytes())?;
        plan.finish(sink)?;
    }
    outputs.plan.commit()?;
    if !args.merge {
        outputs.plan.summary(&summary_text(args, &summary));
    }
    Ok(summary)
}

/// The pairs' part of the report.
fn pairs_report(pairer: &Pairer) -> Option<PairsReport> {
    let total = pairer.rows().pop()?;
    Some(PairsReport {
        player_a: pairer.players.as_ref().map(|p| p.0.clone()),
        player_b: pairer.players.as_ref().map(|p| p.1.clone()),
        pairs: total.pairs,
        unpaired_games: pairer.unpaired_games,
        other_pairs: pairer.other_pairs,
        total,
    })
}

/// The summary of a run over games: the counts, why games were not counted (and, when
/// none was, that nothing was), the pairs and the verdicts.
fn summary_text(args: &StatsArgs, summary: &StatsSummary) -> String {
    let dfrc = match args.dfrc_table.as_ref().or(args.dfrc_old.as_ref()) {
        Some(path) => format!("in {}", path.display()),
        None => "their table: --dfrc-table FILE".to_string(),
    };
    let mut text = format!(
        "games read: {}, counted: {} in the SP table + {} Double Chess960 games ({dfrc})",
        summary.games_read, summary.counted, summary.counted_double_chess960
    );
    for (k, v) in &summary.excluded {
        text.push_str(&format!(", {k}: {v}"));
    }
    if !args.headers_only {
        text.push_str(&format!(
            "; results corrected by the final position: {}",
            summary.results_corrected
        ));
    }
    text.push('\n');
    if summary.counted + summary.counted_double_chess960 == 0 {
        text.push_str(&nothing_counted(summary));
    }
    if let Some(p) = &summary.pairs {
        text.push_str(&format!(
            "pairs: {} ({} vs {}), score {}, Elo {} [{}, {}]; unpaired games: {}, pairs of other players: {}\n",
            p.pairs,
            p.player_a.as_deref().unwrap_or("-"),
            p.player_b.as_deref().unwrap_or("-"),
            p.total.score.map_or("-".into(), |s| format!("{s:.4}")),
            p.total.elo.map_or("-".into(), |e| format!("{e:.1}")),
            p.total.elo_lo.map_or("-".into(), |e| format!("{e:.1}")),
            p.total.elo_hi.map_or("-".into(), |e| format!("{e:.1}")),
            p.unpaired_games,
            p.other_pairs
        ));
    }
    if summary.significance.len() == 1 {
        text.push_str(&format!("{}\n", summary.significance[0].verdict));
    } else if !summary.significance.is_empty() {
        let differ = summary
            .significance
            .iter()
            .filter(|c| {
                c.homogeneity.as_ref().is_some_and(|h| h.p < 0.05) || !c.significant_sps.is_empty()
            })
            .count();
        text.push_str(&format!(
            "{} cells; in {differ} of them some SP differs beyond chance (the verdicts are in --report)\n",
            summary.significance.len()
        ));
    }
    text
}

/// Why no game was counted, in one line: the reason most games were left out for.
pub fn nothing_counted(summary: &StatsSummary) -> String {
    match summary.excluded.iter().max_by_key(|(_, &n)| n) {
        Some((why, n)) => format!(
            "nothing was counted: of {} games read, {n} were left out as {why} (the counts above say why each game was)\n",
            summary.games_read
        ),
        None => "nothing was counted: no game was read\n".to_string(),
    }
}
