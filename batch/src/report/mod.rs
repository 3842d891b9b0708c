//! The page of `pgn960 report`: its data model (plain serde structs, filled from one pass
//! over the games or from tables written earlier by `stats` and `tree`) and the one
//! self-contained HTML file it is rendered into ([`html`]).
//!
//! Everything derived (scores, intervals, p- and q-values, the funnel) comes from
//! [`pgn960::stats::table`] and [`pgn960::stats::significance`]; the page's script only
//! draws and sorts what the data block holds.

pub mod filter;
pub mod html;
pub mod rows;
pub mod tables;

use pgn960::select::Speed;
use pgn960::stats::by::ByKey;
use pgn960::stats::by::KeyValue;
use pgn960::stats::groups::{
    draw_analysis, draw_rate_interval, group_tables, write_group_cells, GroupTable,
};
use pgn960::stats::significance::{pooled, sp_tests, Funnel, Homogeneity, Wdl, ALPHA};
use pgn960::stats::table::{SpCounts, SpRow, SpTables};
use pgn960::stats::{write_table, TextFormat};
use rustc_hash::FxHashMap;
use serde::Serialize;
use std::collections::BTreeMap;

/// Everything the page shows; serialised into its JSON data block.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Page {
    /// The page title.
    pub title: String,
    /// The pgn960 version that wrote it.
    pub version: String,
    /// Where the numbers come from and what was read.
    pub summary: PageSummary,
    /// The significance of the whole table.
    pub overview: Overview,
    /// The 95% funnel of chance: (games, low, high) for a range of game counts.
    pub funnel: Vec<(u64, f64, f64)>,
    /// The 960 start positions, SP order.
    pub sps: Vec<PageSpRow>,
    /// Cuts of the table (time control, rating band, or any key column of a stats table).
    pub cuts: Vec<PageCut>,
    /// The opening tree, when one was counted or given.
    pub tree: Option<TreeSection>,
    /// Double Chess960 pairs with games.
    pub pairs: Vec<PagePairRow>,
    /// The SP table as `pgn960 stats` writes it (CSV, byte for byte): the page's download.
    pub csv: String,
    /// The Double Chess960 table as `pgn960 stats --dfrc-table` writes it (CSV).
    pub dfrc_csv: String,
    /// The SPs grouped by features of their back rank, tested as the SP table
    /// ([`pgn960::stats::groups`]).
    pub groups: Vec<GroupTable>,
    /// The groups as `pgn960 stats --groups` writes them (CSV): the page's download.
    pub groups_csv: String,
    /// The draw rate per SP against the pooled draw rate.
    pub draws: DrawSection,
    /// Per SP with games: the first games counted, for its panel.
    pub games: BTreeMap<u16, GameList>,
    /// The counts the page's own filters recompute the table from; `None`: no filters
    /// (built from tables, or past the limit of [`filter::CELL_LIMIT`]).
    pub filter: Option<filter::FilterCells>,
    /// The selection flags the page was made with (for the command lines it suggests).
    pub selection: Vec<String>,
}

/// The draw rates: the pool, the homogeneity test of the 960 draw rates and their funnel
/// ([`pgn960::stats::groups::draw_analysis`]); per SP, its interval and q-value are in
/// [`PageSpRow`].
#[derive(Debug, Clone, Default, Serialize)]
pub struct DrawSection {
    /// The pooled draw rate.
    pub pooled_rate: Option<f64>,
    /// Whether the SPs share one draw rate (the test of the SP table, on draws).
    pub homogeneity: Option<Homogeneity>,
    /// SPs whose draw rate differs from the pool with q < 0.05.
    pub significant: usize,
    /// The 95% funnel of chance of the draw rate: (games, low, high).
    pub funnel: Vec<(u64, f64, f64)>,
}

/// The first games of an SP (in reading order) and how many it has in all.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GameList {
    /// Up to [`GAMES_LISTED`] games.
    pub first: Vec<GameLine>,
    /// Games of the SP in all.
    pub total: u64,
}

/// One game of an SP's list: (white, black, event, date, result, site, plies); the site is
/// kept only when it is an http(s) URL.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct GameLine(
    pub String,
    pub String,
    pub String,
    pub String,
    pub String,
    pub String,
    pub u32,
);

/// Games listed per SP in its panel.
pub const GAMES_LISTED: usize = 10;

impl GameList {
    /// Notes one more game, kept when fewer than [`GAMES_LISTED`] are.
    pub fn add(&mut self, line: impl FnOnce() -> GameLine) {
        self.total += 1;
        if self.first.len() < GAMES_LISTED {
            self.first.push(line());
        }
    }

    /// Adds the list of a later chunk.
    pub fn merge(&mut self, other: GameList) {
        self.total += other.total;
        let room = GAMES_LISTED.saturating_sub(self.first.len());
        self.first.extend(other.first.into_iter().take(room));
    }
}

/// What was read: the archive summary.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageSummary {
    /// The inputs (PGN files, or the tables the page was built from).
    pub inputs: Vec<String>,
    /// Whether the page was built from tables (`--from-stats`), not games.
    pub from_tables: bool,
    /// The counts of reading and validating the games (absent when built from tables).
    pub archive: Option<crate::archive::ArchiveSummary>,
    /// Games counted in the SP table.
    pub counted: u64,
    /// Games counted in the Double Chess960 table.
    pub counted_double_chess960: u64,
    /// Valid games not counted, by reason (unfinished, classical, filtered out, ...).
    pub excluded: BTreeMap<String, u64>,
    /// The earliest date of a counted game (`YYYY.MM.DD`).
    pub first_date: Option<String>,
    /// The latest date of a counted game.
    pub last_date: Option<String>,
    /// Counted games by speed (empty name: no readable TimeControl).
    pub speeds: BTreeMap<String, u64>,
    /// The most frequent Event tags of counted games, with their games.
    pub top_events: Vec<(String, u64)>,
    /// The players with the most counted games (as white or black).
    pub top_players: Vec<(String, u64)>,
    /// Games whose event or players were not tallied because more distinct names than
    /// [`NAME_CAP`] had been seen (0 when every name was).
    pub names_untallied: u64,
}

/// Distinct event and player names tallied at most (memory stays bounded); later new
/// names are counted in [`PageSummary::names_untallied`].
pub const NAME_CAP: usize = 20_000;

/// The whole table's pool and homogeneity test and the one-sentence verdict.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Overview {
    /// Games in the SP table.
    pub games: u64,
    /// White's pooled score.
    pub pooled_score: Option<f64>,
    /// The homogeneity test of the 960×3 W/D/L table (chi-square law or permutation).
    pub homogeneity: Option<Homogeneity>,
    /// SPs with q < 0.05.
    pub significant: usize,
    /// The verdict sentence of [`pgn960::stats::significance::verdict`].
    pub verdict: String,
    /// The q-value threshold SPs are named at.
    pub alpha: f64,
    /// With strata: the caveat when the table taken as one would say "Yes" but no stratum
    /// does (also at the end of `verdict`), shown apart on the banner.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// One start position's row.
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageSpRow {
    /// SP number.
    pub sp: u16,
    /// White's back rank (`RNBQKBNR`).
    pub start: String,
    /// Games.
    pub games: u64,
    /// White wins.
    pub w: u64,
    /// Draws.
    pub d: u64,
    /// Black wins.
    pub l: u64,
    /// White's score.
    pub score: Option<f64>,
    /// Low end of the 95% Wilson interval.
    pub lo: Option<f64>,
    /// High end.
    pub hi: Option<f64>,
    /// Draws per game.
    pub draw_rate: Option<f64>,
    /// Low end of the 95% Wilson interval of the draw rate.
    pub draw_lo: Option<f64>,
    /// High end.
    pub draw_hi: Option<f64>,
    /// q-value of the draw rate against the pooled draw rate.
    pub draw_q: Option<f64>,
    /// p-value of the test against the pool.
    pub p: Option<f64>,
    /// Benjamini–Hochberg q-value.
    pub q: Option<f64>,
    /// White's score minus its Elo-expected score (rated games).
    pub excess: Option<f64>,
    /// Mean rating of both players (rated games).
    pub elo: Option<f64>,
    /// Games with an engine evaluation (`[%eval]`).
    pub eval_games: u64,
    /// Mean evaluation after ply 10, in pawns from white's view (as `stats` writes it).
    pub eval10: Option<f64>,
    /// Mean evaluation after ply 20.
    pub eval20: Option<f64>,
}

impl PageSpRow {
    fn new(row: &SpRow, p: Option<f64>, q: Option<f64>, draw_q: Option<f64>) -> PageSpRow {
        let draw = draw_rate_interval(&row.counts());
        PageSpRow {
            sp: row.sp,
            start: row.start.clone(),
            games: row.games,
            w: row.white_wins,
            d: row.draws,
            l: row.black_wins,
            score: row.white_score,
            lo: row.white_score_lo,
            hi: row.white_score_hi,
            draw_rate: row.draw_rate,
            draw_lo: draw.map(|d| round6(d.0)),
            draw_hi: draw.map(|d| round6(d.1)),
            draw_q,
            p,
            q,
            excess: row.white_excess,
            elo: row
                .mean_white_elo
                .zip(row.mean_black_elo)
                .map(|(w, b)| ((w + b) / 2.0).round()),
            eval_games: row.eval_games,
            eval10: row.mean_eval_ply10,
            eval20: row.mean_eval_ply20,
        }
    }
}

/// A cut of the table by one key (a column of `stats --by`).
#[derive(Debug, Clone, Default, Serialize)]
pub struct PageCut {
    /// The key's column name (`time_control`, `rating_band`, ...).
    pub key: String,
    /// The values present, in table order.
    pub values: Vec<CutValue>,
}

/// One value of a cut: its pooled score and its SPs with games.
#[derive(Debug, Clone, Default, Serialize)]
pub struct CutValue {
    /// The value as its column writes it (empty: unknown).
    pub value: String,
    /// Games in this cell.
    pub games: u64,
    /// White's pooled score in this cell.
    pub score: Option<f64>,
    /// The SPs with games: (sp, W, D, L, score, low, high, q within the cell).
    pub rows: Vec<CutRow>,
}

/// One SP of a cut value: (sp, W, D, L, score, low, high, q within the cell).
#[derive(Debug, Clone, Default, Serialize)]
pub struct CutRow(
    pub u16,
    pub u64,
    pub u64,
    pub u64,
    pub Option<f64>,
    pub Option<f64>,
    pub Option<f64>,
    pub Option<f64>,
);

/// The sort key of a cut value ([`CutCells`]): the order of `stats --by` rows (unknown
/// first, speeds fastest first, dates and bands ascending, names in byte order, which the
/// label then gives).
pub fn value_rank(value: &KeyValue) -> u64 {
    match value {
        KeyValue::Speed(Some(s)) => Speed::ALL
            .iter()
            .position(|x| x == s)
            .map_or(1, |i| i as u64 + 1),
        KeyValue::Month(Some((y, m))) => u64::from(*y) * 100 + u64::from(*m) + 1,
        KeyValue::Year(Some(y)) => u64::from(*y) + 1,
        KeyValue::Band(Some((lo, _))) => u64::from(*lo) + 1,
        KeyValue::Text(Some(_)) => 1,
        _ => 0,
    }
}

/// The cells of one cut key: per value (its sort key and label), per SP with games.
pub type CutCells = BTreeMap<(u64, String), BTreeMap<u16, SpCounts>>;

/// The opening tree shown per SP.
#[derive(Debug, Clone, Default, Serialize)]
pub struct TreeSection {
    /// Plies shown.
    pub depth: u32,
    /// Moves with fewer games are left out.
    pub min_games: u64,
    /// When the tree had to be pruned to stay within its node budget: the games below
    /// which nodes were dropped (the nodes shown stay exact).
    pub pruned_below: Option<u64>,
    /// Per SP with games: its first moves.
    pub roots: BTreeMap<u16, Vec<TreeNode>>,
}

/// One move of the tree: (SAN, UCI, games, W, D, L, the moves after it).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TreeNode(
    pub String,
    pub String,
    pub u64,
    pub u64,
    pub u64,
    pub u64,
    pub Vec<TreeNode>,
);

/// A Double Chess960 pair: (white SP, black SP, games, W, D, L, score).
#[derive(Debug, Clone, Default, Serialize)]
pub struct PagePairRow(
    pub u16,
    pub u16,
    pub u64,
    pub u64,
    pub u64,
    pub u64,
    pub Option<f64>,
);

/// The counts a page is made from, however they were obtained.
#[derive(Debug, Clone)]
pub struct Tally {
    /// Per SP (index = SP), 960 entries.
    pub overall: Vec<SpCounts>,
    /// Double Chess960 pairs.
    pub pairs: BTreeMap<(u16, u16), SpCounts>,
    /// Per cut key (in page order): per value (in table order, with its sort key): per SP.
    pub cuts: Vec<(String, CutCells)>,
    /// The key the overall verdict is stratified by (`--strata`); `None`: one table.
    pub strata: Option<ByKey>,
    /// With `strata`: per stratum value, the W/D/L of its SPs.
    pub by_stratum: BTreeMap<KeyValue, BTreeMap<u16, Wdl>>,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            overall: vec![SpCounts::default(); 960],
            ..Tally::empty()
        }
    }
}

impl Tally {
    /// A tally without its rows per SP (`overall` empty): a default tally's other fields.
    fn empty() -> Tally {
        Tally {
            overall: Vec::new(),
            pairs: BTreeMap::new(),
            cuts: Vec::new(),
            strata: None,
            by_stratum: BTreeMap::new(),
        }
    }
}

impl Tally {
    /// Adds another tally with the same cut keys (from another chunk), leaving `other`
    /// empty (as [`Tally::default`], its rows per SP keeping their memory).
    pub fn merge(&mut self, other: &mut Tally) {
        for (mine, theirs) in self.overall.iter_mut().zip(&mut other.overall) {
            mine.merge(theirs);
            *theirs = SpCounts::default();
        }
        let overall = std::mem::take(&mut other.overall);
        let other = std::mem::replace(
            other,
            Tally {
                overall,
                ..Tally::empty()
            },
        );
        for (key, c) in other.pairs {
            self.pairs.entry(key).or_default().merge(&c);
        }
        self.strata = self.strata.or(other.strata);
        for (value, rows) in other.by_stratum {
            let mine = self.by_stratum.entry(value).or_default();
            for (sp, wdl) in rows {
                let row = mine.entry(sp).or_default();
                *row = Wdl::new(
                    row.white_wins + wdl.white_wins,
                    row.draws + wdl.draws,
                    row.black_wins + wdl.black_wins,
                );
            }
        }
        for (key, values) in other.cuts {
            let Some((_, mine)) = self.cuts.iter_mut().find(|(k, _)| *k == key) else {
                self.cuts.push((key, values));
                continue;
            };
            merge_cells(mine, values);
        }
    }
}

/// Adds the cells `values` to `mine`.
fn merge_cells(mine: &mut CutCells, values: CutCells) {
    for (value, by_sp) in values {
        let cell = mine.entry(value).or_default();
        for (sp, c) in by_sp {
            cell.entry(sp).or_default().merge(&c);
        }
    }
}

impl Tally {
    /// The tally as the library's tables without `--by` keys: the one SP table (tested
    /// within the strata, as `pgn960 stats` tests it) and the Double Chess960 table.
    pub fn sp_tables(&self) -> SpTables {
        let mut tables = SpTables::new(Vec::new());
        tables.strata = self.strata;
        for (sp, c) in self.overall.iter().enumerate() {
            if c.games > 0 {
                if let Some(slot) = tables.sp_counts(&[], sp as u16) {
                    *slot = *c;
                }
            }
        }
        for (&(w, b), c) in &self.pairs {
            tables.by_pair.insert((Vec::new(), w, b), *c);
        }
        if self.strata.is_some() {
            tables
                .by_stratum
                .insert(Vec::new(), self.by_stratum.clone());
        }
        tables
    }
}

/// A table of `tables` as `pgn960 stats` writes it in CSV (`pairs`: the Double Chess960
/// table).
fn stats_csv(tables: &SpTables, pairs: bool) -> String {
    let mut out = Vec::new();
    let written = if pairs {
        write_table(
            &mut out,
            &[],
            tables.pair_cells(),
            true,
            TextFormat::Csv,
            |_| {},
        )
    } else {
        let cell = tables.sp_cell(&Vec::new());
        write_table(&mut out, &[], [cell], false, TextFormat::Csv, |_| {})
    };
    match written {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(_) => String::new(),
    }
}

/// The groups of the page's one table as `pgn960 stats --groups` writes them in CSV.
fn groups_csv(groups: &[GroupTable]) -> String {
    let mut out = Vec::new();
    let cells = [(Vec::new(), groups.to_vec())];
    match write_group_cells(&mut out, &[], &cells, TextFormat::Csv) {
        Ok(()) => String::from_utf8_lossy(&out).into_owned(),
        Err(_) => String::new(),
    }
}

/// Rounds to 6 decimals, as the columns of `stats`.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Games per point of the funnel's outline.
const FUNNEL_POINTS: usize = 80;

impl Page {
    /// The page of `tally`, with `summary` and `tree` as given; the title names the inputs.
    pub fn build(tally: &Tally, summary: PageSummary, tree: Option<TreeSection>) -> Page {
        let tables = tally.sp_tables();
        let cell = tables.sp_cell(&Vec::new());
        let analysis = cell.analysis;
        let wdl: Vec<Wdl> = tally.overall.iter().map(Wdl::from).collect();
        let draws = draw_analysis(&tables, &Vec::new());
        let sps = cell
            .rows
            .iter()
            .zip(&analysis.tests)
            .zip(&draws.analysis.tests)
            .map(|((r, t), d)| PageSpRow::new(r, t.p, t.q, d.q))
            .collect();
        let games: u64 = tally.overall.iter().map(|c| c.games).sum();
        let most = tally.overall.iter().map(|c| c.games).max();
        let funnel = funnel_outline(Funnel::new(&wdl, 0.95), most);
        let cuts = tally
            .cuts
            .iter()
            .map(|(key, values)| PageCut {
                key: key.clone(),
                values: values
                    .iter()
                    .map(|((_, value), by_sp)| cut_value(value, by_sp))
                    .collect(),
            })
            .collect();
        let groups = group_tables(&tables, &Vec::new());
        Page {
            title: default_title(&summary.inputs),
            version: env!("CARGO_PKG_VERSION").to_string(),
            summary,
            overview: Overview {
                games,
                pooled_score: analysis.pooled.score,
                homogeneity: analysis.homogeneity,
                significant: analysis.verdict.significant,
                verdict: analysis.verdict.text,
                caveat: analysis.verdict.caveat,
                alpha: ALPHA,
            },
            funnel,
            sps,
            cuts,
            tree,
            pairs: pair_rows(tally),
            csv: stats_csv(&tables, false),
            dfrc_csv: stats_csv(&tables, true),
            groups_csv: groups_csv(&groups),
            groups,
            draws: DrawSection {
                pooled_rate: draws.pooled_rate,
                homogeneity: draws.analysis.homogeneity,
                significant: draws.analysis.verdict.significant,
                funnel: funnel_outline(draws.funnel, most),
            },
            games: BTreeMap::new(),
            filter: None,
            selection: Vec::new(),
        }
    }
}

/// The Double Chess960 pairs with games, in (white SP, black SP) order.
fn pair_rows(tally: &Tally) -> Vec<PagePairRow> {
    tally
        .pairs
        .iter()
        .filter(|(_, c)| c.games > 0)
        .map(|(&(w, b), c)| {
            PagePairRow(
                w,
                b,
                c.games,
                c.white_wins,
                c.draws,
                c.black_wins,
                c.white_score(),
            )
        })
        .collect()
}

/// The title naming the inputs.
fn default_title(inputs: &[String]) -> String {
    match inputs {
        [one] => format!("Chess960 start positions: {}", short_name(one)),
        [first, rest @ ..] => {
            let first = short_name(first);
            format!("Chess960 start positions: {first} and {} more", rest.len())
        }
        [] => "Chess960 start positions".to_string(),
    }
}

/// An input's name for the title: its last component (a directory's own name for `.`).
fn short_name(input: &str) -> String {
    let path = std::path::Path::new(input);
    let name = |p: &std::path::Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    name(path)
        .or_else(|| path.canonicalize().ok().and_then(|p| name(&p)))
        .unwrap_or_else(|| input.to_string())
}

/// The outline of `funnel` at about [`FUNNEL_POINTS`] game counts from 1 to `max`,
/// spaced evenly on a square-root scale (the page's x axis).
fn funnel_outline(funnel: Option<Funnel>, max: Option<u64>) -> Vec<(u64, f64, f64)> {
    let (Some(funnel), Some(max)) = (funnel, max.filter(|&m| m > 0)) else {
        return Vec::new();
    };
    let mut ns: Vec<u64> = (0..=FUNNEL_POINTS)
        .map(|i| {
            let t = i as f64 / FUNNEL_POINTS as f64;
            let root = 1.0 + t * ((max as f64).sqrt() - 1.0);
            (root * root).round().max(1.0) as u64
        })
        .collect();
    ns.dedup();
    ns.into_iter()
        .filter_map(|n| funnel.band(n).map(|(lo, hi)| (n, lo, hi)))
        .collect()
}

/// One value of a cut: its SPs' rows and tests within the cell.
fn cut_value(value: &str, by_sp: &BTreeMap<u16, SpCounts>) -> CutValue {
    let mut all = vec![SpCounts::default(); 960];
    for (&sp, c) in by_sp {
        if let Some(slot) = all.get_mut(usize::from(sp)) {
            *slot = *c;
        }
    }
    let wdl: Vec<Wdl> = all.iter().map(Wdl::from).collect();
    // The page shows a cut's per-SP q-values, not its homogeneity test: only the per-SP
    // tests are run (the permutation test was most of `report`'s time).
    let tests = sp_tests(&wdl);
    let pool = pooled(&wdl);
    let rows = all
        .iter()
        .zip(&tests)
        .enumerate()
        .filter(|(_, (c, _))| c.games > 0)
        .map(|(sp, (c, t))| {
            let r = SpRow::new(sp as u16, None, String::new(), c);
            let (w, d, l) = (c.white_wins, c.draws, c.black_wins);
            CutRow(
                sp as u16,
                w,
                d,
                l,
                r.white_score,
                r.white_score_lo,
                r.white_score_hi,
                t.q,
            )
        })
        .collect();
    CutValue {
        value: value.to_string(),
        games: pool.games,
        score: pool.score,
        rows,
    }
}

/// Tallies names up to [`NAME_CAP`] distinct ones. Hashed, not sorted: three names per
/// game are looked up. Past the cap, which names are tallied does not depend on the hash:
/// [`NameTally::merge`] then adds names in byte order.
#[derive(Debug, Clone, Default)]
pub struct NameTally {
    /// Games per name.
    pub counts: FxHashMap<String, u64>,
    /// Games whose name arrived after the cap was reached.
    pub untallied: u64,
}

impl NameTally {
    /// Counts one game under `name`.
    pub fn add(&mut self, name: &str, games: u64) {
        if let Some(n) = self.counts.get_mut(name) {
            *n += games;
        } else if self.counts.len() < NAME_CAP {
            self.counts.insert(name.to_string(), games);
        } else {
            self.untallied += games;
        }
    }

    /// Adds another tally: in any order while both together stay within the cap (every
    /// name is tallied then), else in byte order. Leaves `other` empty, its hash map
    /// keeping its memory.
    pub fn merge(&mut self, other: &mut NameTally) {
        self.untallied += std::mem::take(&mut other.untallied);
        if self.counts.len() + other.counts.len() <= NAME_CAP {
            for (name, n) in other.counts.drain() {
                self.add_owned(name, n);
            }
            return;
        }
        let mut names: Vec<(String, u64)> = other.counts.drain().collect();
        names.sort_unstable();
        for (name, n) in names {
            self.add_owned(name, n);
        }
    }

    /// [`NameTally::add`] of a name already owned (a new name is moved in, not copied).
    fn add_owned(&mut self, name: String, games: u64) {
        if let Some(n) = self.counts.get_mut(&name) {
            *n += games;
        } else if self.counts.len() < NAME_CAP {
            self.counts.insert(name, games);
        } else {
            self.untallied += games;
        }
    }

    /// Adds the names of a chunk's log, as tallying them in a chunk's own tally (in
    /// reading order) and merging that would: directly while every name fits within the
    /// cap, else through such a tally.
    pub fn add_log(&mut self, log: &NameLog) {
        if self.counts.len() + log.len() <= NAME_CAP {
            for name in log.iter() {
                self.add(name, 1);
            }
            return;
        }
        let mut chunk = NameTally::default();
        for name in log.iter() {
            chunk.add(name, 1);
        }
        self.merge(&mut chunk);
    }

    /// The `k` most frequent names, most first (ties by name).
    pub fn top(&self, k: usize) -> Vec<(String, u64)> {
        let mut all: Vec<(&String, u64)> = self.counts.iter().map(|(n, c)| (n, *c)).collect();
        all.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        all.truncate(k);
        all.into_iter().map(|(n, c)| (n.clone(), c)).collect()
    }
}

/// The names of a chunk's counted games, one per game, in reading order, in one buffer:
/// no name is hashed or copied into a `String` of its own on the worker; the sink tallies
/// them ([`NameTally::add_log`]).
#[derive(Debug, Clone, Default)]
pub struct NameLog {
    text: String,
    ends: Vec<usize>,
}

impl NameLog {
    /// Logs one game's name.
    pub fn push(&mut self, name: &str) {
        self.text.push_str(name);
        self.ends.push(self.text.len());
    }

    /// The names logged.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no name is logged.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The names, in the order logged.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| self.text.get(start..end).unwrap_or(""))
    }

    /// Forgets every name, keeping the memory.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pgn960::stats::table::Winner;

    #[test]
    fn page_rows_come_from_the_stats_code() {
        let mut tally = Tally::default();
        for _ in 0..3 {
            tally.overall[518].add(Winner::White, Some((1500, 1500)));
        }
        tally.overall[0].add(Winner::Black, None);
        let page = Page::build(&tally, PageSummary::default(), None);
        assert_eq!(page.sps.len(), 960);
        let row = &page.sps[518];
        assert_eq!((row.start.as_str(), row.games, row.w), ("RNBQKBNR", 3, 3));
        assert_eq!(row.score, Some(1.0));
        assert_eq!(row.excess, Some(0.5));
        assert!(row.p.is_some() && row.q.is_some());
        assert_eq!(page.sps[1].p, None);
        assert_eq!(page.overview.games, 4);
        // The groups and draw rates come with the page, from the library.
        assert_eq!(page.groups.len(), 5);
        let king = &page.groups[0];
        assert_eq!(king.rows.iter().map(|r| r.games).sum::<u64>(), 4);
        assert_eq!(page.draws.pooled_rate, Some(0.0));
        assert_eq!((row.draw_lo, row.draw_q.is_some()), (Some(0.0), true));
        // The funnel closes on the pool as n grows and is widest at one game.
        let first = page.funnel.first().unwrap();
        assert_eq!(first.0, 1);
        assert!(page.funnel.iter().all(|&(_, lo, hi)| lo <= hi));
    }

    #[test]
    fn names_tallied_from_logs_are_the_names_of_merged_chunk_tallies() {
        let mut rng = crate::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |n: u64| rng.below(n);
        // Pools of names from fewer than the cap to more, so that runs cross the cap.
        for pool in [50, 5_000, 30_000] {
            let (mut by_logs, mut by_tallies) = (NameTally::default(), NameTally::default());
            let (mut log, mut chunk) = (NameLog::default(), NameTally::default());
            for game in 0..60_000 {
                let name = format!("n{}", next(pool));
                log.push(&name);
                chunk.add(&name, 1);
                if next(700) == 0 || game % 4_000 == 3_999 {
                    by_logs.add_log(&log);
                    by_tallies.merge(&mut chunk);
                    log.clear();
                    assert!(log.is_empty());
                }
            }
            by_logs.add_log(&log);
            by_tallies.merge(&mut chunk);
            assert_eq!(by_logs.counts, by_tallies.counts, "pool {pool}");
            assert_eq!(by_logs.untallied, by_tallies.untallied, "pool {pool}");
            assert_eq!(by_logs.counts.len() == NAME_CAP, pool > NAME_CAP as u64);
        }
        let mut log = NameLog::default();
        for name in ["", "é", "a b", ""] {
            log.push(name);
        }
        assert_eq!(log.iter().collect::<Vec<_>>(), ["", "é", "a b", ""]);
    }

    #[test]
    fn names_are_capped() {
        let mut t = NameTally::default();
        for i in 0..NAME_CAP + 5 {
            t.add(&format!("p{i}"), 1);
        }
        t.add("p0", 2);
        assert_eq!(t.untallied, 5);
        assert_eq!(t.top(1), vec![("p0".to_string(), 3)]);
    }
}
