//! `pgn960 stats`: per-start-position results (SP 0..959), Double Chess960 pairs apart,
//! cut by `--by` keys, with significance per cell, evaluations, engine-match pairs,
//! filters, exact merging of tables from separate runs, CSV or JSON.

use crate::args::{TableFormat, TableOutput};
use crate::driver::{Driver, Globals};
use crate::output::{is_special, OutputId, OutputPlan};
use anyhow::{bail, Context, Result};
use pgn960::select::Filters;
use pgn960::stats::by::ByKey;
use pgn960::stats::groups::write_groups;
use pgn960::stats::pairs::Pairer;
use pgn960::stats::table::SpTables;
use pgn960::stats::{
    cell_report, count_chunk, dfrc_cell_report, merge_csv, pairs_report, why_nothing_counted,
    write_pairs, write_strata, write_table, CellReport, LeftOut, PairsReport, StatsCounts,
    StatsOptions, NO_RESULT_IN_TAGS, TRY_HEADERS_ONLY,
};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The formats of stats tables.
const FORMATS: [TableFormat; 2] = [TableFormat::Csv, TableFormat::Json];

/// Arguments of `pgn960 stats`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = format!("Examples:\n  pgn960 stats lichess_db_chess960_2024-*.pgn.zst -o stats.csv\n  pgn960 stats games.pgn --headers-only --min-elo 2000 --time-control blitz,rapid\n  pgn960 stats games.pgn --by time-control,rating-band -o cuts.csv --report r.json\n  pgn960 stats match.pgn --pairs pairs.csv\n  pgn960 stats --merge jan.csv feb.csv -o q1.csv\n  pgn960 stats jan.pgn -o jan.csv --strata-table jan.strata.csv\n  pgn960 stats --merge jan.csv jan.strata.csv feb.csv feb.strata.csv -o q1.csv\n\n\
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
    /// rating-band, event, white, black. Long format: the key columns first, then one row
    /// per SP with games in each combination of key values present. A name longer than 200
    /// bytes is cut, marked "…[truncated]", and the summary says how many games had one.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "KEY")]
    pub by: Vec<ByKey>,
    /// Test the SPs within strata: an SP is compared with the other SPs of the same event
    /// (or speed) only, and the verdict says so — with a caveat when the table taken as one
    /// would say "Yes" but no stratum does (mixing events with different draw rates, each
    /// with its own SPs, makes SPs look different). `none`: one table. Tables merged with
    /// --merge are tested within the strata of their strata tables (--strata-table), else
    /// as one table.
    #[arg(long, value_enum, value_name = "KEY", default_value = "event")]
    pub strata: StrataKey,
    /// Write the strata table to this CSV file: per --by cell, stratum and SP, the W/D/L
    /// the significance tests compare SPs within. Give it to --merge beside the SP table
    /// (each part's two files): the merge is then the table of the whole, p- and q-values
    /// included.
    #[arg(long, value_name = "FILE.csv")]
    pub strata_table: Option<PathBuf>,
    /// With --by rating-band: the width of a band of the mean rating of both players.
    #[arg(long, value_name = "N", default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..))]
    pub band_width: u32,
    /// Find engine-match game pairs (same start position, same players with colours swapped,
    /// within 1024 games) and write their pentanomials, score and Elo with its 95% interval
    /// per start position and in total, for each pairing of two players (a match of its
    /// own, from the view of its first pair's White; a league file gives one per pairing).
    #[arg(long, value_name = "FILE")]
    pub pairs: Option<PathBuf>,
    /// With --pairs: every match from this engine's view (its White or Black tag); pairs
    /// of other players are counted apart ("pairs without ENGINE").
    #[arg(long, value_name = "NAME", requires = "pairs")]
    pub engine: Option<String>,
    /// Merge tables (CSV files from earlier runs) instead of reading games: SP tables into
    /// -o, Double Chess960 tables (recognised by their header) into --dfrc-table, strata
    /// tables (--strata-table; recognised by their header) into the SP table's tests and
    /// --strata-table. Tables with --by keys merge with tables of the same keys only.
    #[arg(
        long,
        conflicts_with_all = [
            "include_classical", "headers_only", "min_elo", "max_elo_diff", "min_plies",
            "speeds", "since", "until", "pairs", "engine", "strata",
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
    /// Write the SPs grouped by features of their back rank (king's file, bishops', queen's
    /// and knights' files, mirror-image pairs): per cell, feature and group its W/D/L,
    /// score and draw rate with intervals, q-values and the feature's homogeneity tests.
    #[arg(long, value_name = "FILE")]
    pub groups: Option<PathBuf>,
    /// Which games are counted.
    #[command(flatten)]
    pub filters: Filters,
    /// Threads, quiet, progress, variant, game size limit.
    #[command(flatten)]
    pub read: crate::args::ReadOptions,
}

/// What the significance tests of `stats` and `report` are stratified by (`--strata`).
pub use pgn960::stats::StrataKey;

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
    /// Counted games with a --by name cut at 200 bytes ("…[truncated]").
    pub keys_truncated: u64,
    /// Games not counted, by reason.
    pub excluded: BTreeMap<&'static str, u64>,
    /// The invalid games among them, by rejection reason (`no-moves`, `illegal-move`, ...).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub invalid_by_reason: BTreeMap<&'static str, u64>,
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

/// Reads tables written by `pgn960 stats` (CSV files) and adds them up exactly
/// ([`merge_csv`]).
pub fn merge_tables(paths: &[PathBuf], keys: &[ByKey]) -> Result<pgn960::stats::MergedTables> {
    let mut files = Vec::new();
    for path in paths {
        let file =
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        files.push((path.display().to_string(), std::io::BufReader::new(file)));
    }
    Ok(merge_csv(files, keys)?)
}

/// The outputs of a stats run, planned, with their formats.
struct StatsOutputs {
    plan: OutputPlan,
    sp: (OutputId, TableFormat),
    dfrc: Option<(OutputId, TableFormat)>,
    pairs: Option<(OutputId, TableFormat)>,
    groups: Option<(OutputId, TableFormat)>,
    report: Option<OutputId>,
    chart: Option<OutputId>,
    strata: Option<OutputId>,
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
        let groups = args
            .groups
            .as_ref()
            .map(|p| table("--groups", p))
            .transpose()?;
        let report = args
            .report
            .as_ref()
            .map(|p| plan.add("--report", p, "json"));
        let chart = args.chart.as_ref().map(|p| plan.add("--chart", p, "svg"));
        let strata = match &args.strata_table {
            Some(path) => {
                let csv = Some(TableFormat::Csv);
                TableFormat::choose("stats --strata-table", path, None, &[TableFormat::Csv], csv)?;
                Some(plan.add("--strata-table", path, "csv"))
            }
            None => None,
        };
        if args.strata_table.is_some() && !args.merge && args.strata == StrataKey::None {
            bail!("--strata none keeps no strata: there is no --strata-table to write");
        }
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
            groups,
            report,
            chart,
            strata,
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

/// The library's options of a run over games.
fn stats_options(args: &StatsArgs, globals: Globals) -> StatsOptions {
    StatsOptions {
        filters: args.filters.clone(),
        include_classical: args.include_classical,
        headers_only: args.headers_only,
        by: args.by.clone(),
        band_width: args.band_width,
        strata: args.strata.by_key(),
        pairs: args.pairs.is_some(),
        missing_variant: globals.variant,
        max_game_bytes: globals.max_game_bytes,
        assume_sp: globals.assume_sp,
        threads: globals.threads,
        stop: None,
        range: None,
    }
}

/// Counts every game of the inputs into tables (and the pairs into `pairer`).
fn count_games(
    args: &StatsArgs,
    globals: Globals,
    summary: &mut StatsSummary,
    pairer: &mut Pairer,
) -> Result<SpTables> {
    let options = stats_options(args, globals);
    let mut driver = Driver::new(&args.inputs, globals)?;
    let mut counts = StatsCounts::new(args.by.clone());
    counts.tables.strata = options.strata;
    driver.run(
        |bytes, origin| count_chunk(bytes, origin, &options),
        |_, mut chunk, _| {
            for game in std::mem::take(&mut chunk.pair_games) {
                pairer.push(game);
            }
            counts.merge(chunk);
            Ok(())
        },
    )?;
    driver.finish();
    pairer.finish();
    summary.games_read = counts.games_read;
    summary.counted = counts.counted;
    summary.counted_double_chess960 = counts.counted_double_chess960;
    summary.results_corrected = counts.results_corrected;
    summary.keys_truncated = counts.keys_truncated;
    summary.excluded = counts.excluded_by_name();
    summary.invalid_by_reason = counts.invalid_by_name();
    Ok(counts.tables)
}

/// The tables given to `--merge`, added up, and whether to write the SP table and the
/// Double Chess960 table (each, when such tables were given).
fn merged_tables(args: &StatsArgs, outputs: &StatsOutputs) -> Result<(SpTables, bool, bool)> {
    let merged = merge_tables(&args.inputs, &args.by)?;
    if merged.double_chess960 && outputs.dfrc.is_none() {
        bail!("Double Chess960 tables were given: name the merged table with --dfrc-table FILE");
    }
    if outputs.strata.is_some() && !merged.strata {
        bail!("no strata table was given to merge: there is no --strata-table to write");
    }
    let write_sp = merged.sp || !merged.double_chess960;
    Ok((merged.tables, write_sp, merged.double_chess960))
}

/// Runs `pgn960 stats`.
pub fn run(args: &StatsArgs, globals: Globals) -> Result<StatsSummary> {
    let started = std::time::Instant::now();
    let mut summary = StatsSummary::default();
    let mut outputs = StatsOutputs::new(args, globals.quiet)?;
    let mut pairer = Pairer::new(args.engine.as_ref().map(|e| e.trim().to_string()));
    let (tables, write_sp, write_dfrc) = if args.merge {
        merged_tables(args, &outputs)?
    } else {
        let tables = count_games(args, globals, &mut summary, &mut pairer)?;
        (tables, true, outputs.dfrc.is_some())
    };
    summary.by = tables.keys.iter().map(|k| k.column()).collect();
    // Every output is finished before any is renamed into place.
    let plan = &mut outputs.plan;
    let keys = &tables.keys;
    if write_sp {
        let (id, format) = outputs.sp;
        let mut reports = Vec::new();
        let mut sink = plan.create(id)?;
        write_table(
            &mut sink,
            keys,
            tables.sp_cells(),
            false,
            format.text(),
            |cell| reports.push(cell_report(keys, cell)),
        )?;
        plan.finish(sink)?;
        summary.significance = reports;
    }
    // The Double Chess960 cells are tested whenever they have games, written when asked.
    let pair_cells = if write_dfrc || !tables.by_pair.is_empty() {
        tables.pair_cells()
    } else {
        Vec::new()
    };
    summary.dfrc_significance = pair_cells
        .iter()
        .map(|cell| dfrc_cell_report(keys, cell))
        .collect();
    if let (Some((id, format)), true) = (outputs.dfrc, write_dfrc) {
        let mut sink = plan.create(id)?;
        write_table(&mut sink, keys, pair_cells, true, format.text(), |_| {})?;
        plan.finish(sink)?;
    }
    if let Some((id, format)) = outputs.groups {
        let mut sink = plan.create(id)?;
        write_groups(&mut sink, &tables, format.text())?;
        plan.finish(sink)?;
    }
    if let Some(id) = outputs.strata {
        let mut sink = plan.create(id)?;
        write_strata(&mut sink, &tables)?;
        plan.finish(sink)?;
    }
    if let Some((id, format)) = outputs.pairs {
        let mut sink = plan.create(id)?;
        write_pairs(&mut sink, &pairer, format.text())?;
        plan.finish(sink)?;
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
    if summary.keys_truncated > 0 {
        text.push_str(&format!(
            "--by names longer than 200 bytes cut and marked \"…[truncated]\" in {} games\n",
            summary.keys_truncated
        ));
    }
    if summary.counted + summary.counted_double_chess960 == 0 {
        text.push_str(&nothing_counted(summary, args.headers_only));
    }
    if let Some(p) = &summary.pairs {
        text.push_str(&pairs_text(p, args.pairs.as_deref()));
    }
    text.push_str(&verdicts_text(&summary.significance, "", "SP"));
    text.push_str(&verdicts_text(
        &summary.dfrc_significance,
        "Double Chess960 (white SP, black SP) pairs: ",
        "pair",
    ));
    text
}

/// The verdict of a table of one cell, or how many of its cells show something; `lead`
/// begins the line, `row` names a row ("SP", "pair").
fn verdicts_text(cells: &[CellReport], lead: &str, row: &str) -> String {
    match cells {
        [] => String::new(),
        [one] => format!("{lead}{}\n", one.verdict),
        many => {
            let differ = many
                .iter()
                .filter(|c| {
                    c.homogeneity.as_ref().is_some_and(|h| h.p < 0.05)
                        || !c.significant_sps.is_empty()
                        || !c.significant_pairs.is_empty()
                })
                .count();
            format!(
                "{lead}{} cells; in {differ} of them some {row} differs beyond chance (the verdicts are in --report)\n",
                many.len()
            )
        }
    }
}

/// The pairs' lines of the summary: each match (at most [`MATCHES_LISTED`]), the games
/// without a partner, and with `--engine` the pairs without it.
fn pairs_text(p: &PairsReport, file: Option<&Path>) -> String {
    let number = |x: Option<f64>, digits: usize| x.map_or("-".into(), |v| format!("{v:.digits$}"));
    let line = |m: &pgn960::stats::pairs::PairRow| {
        format!(
            "{} ({} vs {}), score {}, Elo {} [{}, {}]",
            m.pairs,
            m.player_a,
            m.player_b,
            number(m.score, 4),
            number(m.elo, 1),
            number(m.elo_lo, 1),
            number(m.elo_hi, 1)
        )
    };
    let mut unpaired = format!("unpaired games: {}", p.unpaired_games);
    if let Some(engine) = &p.engine {
        unpaired.push_str(&format!(", pairs without {engine}: {}", p.other_pairs));
    }
    match p.matches.as_slice() {
        [] => format!("pairs: 0; {unpaired}\n"),
        [one] => format!("pairs: {}; {unpaired}\n", line(one)),
        many => {
            let file = file.map_or(String::new(), |f| {
                format!(" (each with its rows in {})", f.display())
            });
            let mut t = format!(
                "pairs: {} in {} matches{file}; {unpaired}\n",
                p.pairs,
                many.len()
            );
            for m in many.iter().take(MATCHES_LISTED) {
                t.push_str(&format!("  {}\n", line(m)));
            }
            if many.len() > MATCHES_LISTED {
                t.push_str(&format!("  … and {} more\n", many.len() - MATCHES_LISTED));
            }
            t
        }
    }
}

/// How many matches the summary lists (the --pairs table has them all).
const MATCHES_LISTED: usize = 10;

/// Why no game was counted, in one line ([`why_nothing_counted`]): the reason most games
/// were left out for, and what to do (games of tags only: try `--headers-only`).
pub fn nothing_counted(summary: &StatsSummary, headers_only: bool) -> String {
    let left = LeftOut {
        games_read: summary.games_read,
        excluded: &summary.excluded,
        invalid: &summary.invalid_by_reason,
        no_moves_hint: if headers_only {
            NO_RESULT_IN_TAGS
        } else {
            TRY_HEADERS_ONLY
        },
    };
    format!("{}\n", why_nothing_counted(&left))
}
