//! Start positions grouped by a feature of their back rank (the king's file, the bishops'
//! files, the queen's file, the knights' files, an SP and its mirror image), and the draw
//! rate per SP: each tested with the code that tests the SP table ([`analyse`],
//! [`analyse_within`] within the same strata), rows being groups instead of SPs.
//!
//! ```
//! use pgn960::stats::groups::{mirror_sp, Feature};
//!
//! // RNBQKBNR read from h to a is RNBKQBNR.
//! let mirror = mirror_sp(518).unwrap();
//! assert_eq!((mirror, pgn960::stats::table::back_rank(mirror).as_str()), (534, "RNBKQBNR"));
//! assert_eq!(Feature::KingFile.value(518).unwrap().1, "e");
//! ```

use super::by::{ByKey, Key};
use super::significance::{
    analyse, analyse_within, stratified_homogeneity, Analysis, Funnel, Homogeneity, Wdl,
};
use super::table::{strata_noun, SpCounts, SpTables};
use super::write::TextFormat;
use chess960_core::BackRank;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::{self, Write};

/// A feature of a back rank that start positions are grouped by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Feature {
    /// The king's file (b to g).
    KingFile,
    /// The files of the two bishops: the dark-square one (a, c, e, g), then the
    /// light-square one (b, d, f, h) — white's squares (a1 is dark).
    Bishops,
    /// The queen's file.
    QueenFile,
    /// The files of the two knights.
    Knights,
    /// An SP and its mirror image (the back rank read from h to a), pooled.
    Mirror,
}

impl Feature {
    /// Every feature, in the order the page shows them.
    pub const ALL: [Feature; 5] = [
        Feature::KingFile,
        Feature::Bishops,
        Feature::QueenFile,
        Feature::Knights,
        Feature::Mirror,
    ];

    /// The feature's name on the command line and in the page's data (`king-file`).
    pub fn name(self) -> &'static str {
        match self {
            Feature::KingFile => "king-file",
            Feature::Bishops => "bishops",
            Feature::QueenFile => "queen-file",
            Feature::Knights => "knights",
            Feature::Mirror => "mirror",
        }
    }

    /// What the feature's values say, for a reader.
    pub fn title(self) -> &'static str {
        match self {
            Feature::KingFile => "the king's file",
            Feature::Bishops => "the bishops' files (dark-square bishop, light-square bishop)",
            Feature::QueenFile => "the queen's file",
            Feature::Knights => "the knights' files",
            Feature::Mirror => "mirror-image pairs (an SP and its back rank read from h to a)",
        }
    }

    /// The group of `sp` under this feature: a sort key and its label (`e` for the king on
    /// e1; `c, f` for bishops on c1 and f1; `518 / 534` for a mirror pair); `None` out of
    /// range.
    pub fn value(self, sp: u16) -> Option<(u32, String)> {
        let rank = BackRank::from_sp(sp).ok()?.to_string().into_bytes();
        let files = |piece: u8| -> Vec<usize> {
            rank.iter()
                .enumerate()
                .filter(|&(_, &p)| p == piece)
                .map(|(f, _)| f)
                .collect()
        };
        let letter = |f: usize| char::from(b'a' + f as u8).to_string();
        let pair = |a: usize, b: usize| {
            (
                a as u32 * 8 + b as u32,
                format!("{}, {}", letter(a), letter(b)),
            )
        };
        match self {
            Feature::KingFile => files(b'K').first().map(|&f| (f as u32, letter(f))),
            Feature::QueenFile => files(b'Q').first().map(|&f| (f as u32, letter(f))),
            Feature::Knights => match files(b'N')[..] {
                [a, b] => Some(pair(a, b)),
                _ => None,
            },
            Feature::Bishops => match files(b'B')[..] {
                // a1 is dark: even files (a, c, e, g) are the dark squares of rank 1.
                [a, b] if a % 2 == 0 => Some(pair(a, b)),
                [a, b] => Some(pair(b, a)),
                _ => None,
            },
            Feature::Mirror => {
                let other = mirror_sp(sp)?;
                let (lo, hi) = (sp.min(other), sp.max(other));
                Some((u32::from(lo), format!("{lo} / {hi}")))
            }
        }
    }
}

/// The SP whose back rank is that of `sp` read from h to a (518 RNBQKBNR ↔ RNBKQBNR);
/// `None` out of range. No SP is its own mirror (the king would stand on two files).
pub fn mirror_sp(sp: u16) -> Option<u16> {
    let BackRank(mut roles) = BackRank::from_sp(sp).ok()?;
    roles.reverse();
    BackRank(roles).sp().ok()
}

/// One group of start positions: its SPs, counts, scores and tests against the pool of
/// the groups.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRow {
    /// The group's label ([`Feature::value`]).
    pub group: String,
    /// Its SPs, ascending.
    pub sps: Vec<u16>,
    /// Games.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// White's score per game.
    pub white_score: Option<f64>,
    /// Low end of the 95% Wilson interval of white's score.
    pub white_score_lo: Option<f64>,
    /// High end.
    pub white_score_hi: Option<f64>,
    /// Draws per game.
    pub draw_rate: Option<f64>,
    /// Low end of the 95% Wilson interval of the draw rate.
    pub draw_rate_lo: Option<f64>,
    /// High end.
    pub draw_rate_hi: Option<f64>,
    /// p-value of white's score against the pool of all groups (as an SP's in `stats`).
    pub p_value: Option<f64>,
    /// Benjamini–Hochberg q-value over the groups.
    pub q_value: Option<f64>,
    /// q-value of the draw rate against the pooled draw rate ([`draw_analysis`]'s test).
    pub draw_q_value: Option<f64>,
}

/// The table of one feature's groups, with the tests of `stats` across them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupTable {
    /// The feature.
    pub feature: Feature,
    /// [`Feature::title`].
    pub title: String,
    /// The groups, in the feature's order (files a to h; mirror pairs by their lower SP).
    pub rows: Vec<GroupRow>,
    /// The homogeneity test of the groups' W/D/L table (within the strata, as the SP
    /// table's); `None` when not testable.
    pub homogeneity: Option<Homogeneity>,
    /// The same test of the draws: whether the groups share one draw rate.
    pub draw_homogeneity: Option<Homogeneity>,
    /// With [`Feature::Mirror`]: the homogeneity test within each pair (each pair, within
    /// each stratum, a table of its two SPs): whether an SP and its mirror image share one
    /// W/D/L distribution.
    pub within_pairs: Option<Homogeneity>,
}

/// Rounds to 6 decimals, as the SP table's columns.
fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// The 95% Wilson interval of the draw rate of `c`.
pub fn draw_rate_interval(c: &SpCounts) -> Option<(f64, f64)> {
    let draws_as_wins = SpCounts {
        games: c.games,
        white_wins: c.draws,
        black_wins: c.games.saturating_sub(c.draws),
        ..SpCounts::default()
    };
    draws_as_wins.wilson_interval()
}

/// A W/D/L row recast for testing draw rates: draws as "wins", every decisive game as a
/// "loss", so that the score tests of [`analyse`] test the draw rate.
fn draws_row(w: &Wdl) -> Wdl {
    Wdl::new(w.draws, 0, w.white_wins.saturating_add(w.black_wins))
}

/// The analysis of `rows` within `strata` (each a table over the same rows), as
/// `SpTables::sp_cell` analyses an SP table: one table without strata.
fn analysed(rows: &[Wdl], strata: &[Vec<Wdl>], noun: Option<&str>) -> Analysis {
    match noun {
        Some(by) if !strata.is_empty() => analyse_within(strata, by),
        _ => analyse(rows),
    }
}

/// The draw rate per SP of one cell of `tables` against the pooled draw rate: the tests of
/// the SP table run on draws and decisive games (p- and q-values per SP, homogeneity of
/// the draw rates, within the same strata), and the 95% funnel of chance of the draw rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DrawAnalysis {
    /// The pooled draw rate.
    pub pooled_rate: Option<f64>,
    /// The tests, one per SP (`score` is the draw rate).
    pub analysis: Analysis,
    /// The funnel of chance of the draw rate (its `band(n)`).
    pub funnel: Option<Funnel>,
}

/// The draw-rate analysis of the SP table of `key` in `tables`.
pub fn draw_analysis(tables: &SpTables, key: &Key) -> DrawAnalysis {
    let rows: Vec<Wdl> = tables
        .sp_counts_of(key)
        .iter()
        .map(|c| draws_row(&Wdl::from(c)))
        .collect();
    let strata: Vec<Vec<Wdl>> = tables
        .strata_of(key)
        .iter()
        .map(|s| s.iter().map(draws_row).collect())
        .collect();
    let noun = tables.strata.map(strata_noun);
    let analysis = analysed(&rows, &strata, noun.as_deref());
    DrawAnalysis {
        pooled_rate: analysis.pooled.score,
        funnel: Funnel::new(&rows, 0.95),
        analysis,
    }
}

/// The groups of `feature`: per group (sort key, label), its SPs.
fn members(feature: Feature) -> BTreeMap<(u32, String), Vec<u16>> {
    let mut groups: BTreeMap<(u32, String), Vec<u16>> = BTreeMap::new();
    for sp in 0..960u16 {
        if let Some(value) = feature.value(sp) {
            groups.entry(value).or_default().push(sp);
        }
    }
    groups
}

/// Sums the rows of each group.
fn grouped(rows: &[Wdl], groups: &[Vec<u16>]) -> Vec<Wdl> {
    groups
        .iter()
        .map(|sps| {
            sps.iter()
                .filter_map(|&sp| rows.get(usize::from(sp)))
                .fold(Wdl::default(), |a, r| {
                    Wdl::new(
                        a.white_wins.saturating_add(r.white_wins),
                        a.draws.saturating_add(r.draws),
                        a.black_wins.saturating_add(r.black_wins),
                    )
                })
        })
        .collect()
}

/// The table of `feature`'s groups for the SP table of `key` in `tables`: each group's
/// sums, and the tests the SP table gets (per-group p/q against the pool, homogeneity),
/// within the same strata.
pub fn group_table(feature: Feature, tables: &SpTables, key: &Key) -> GroupTable {
    let counts = tables.sp_counts_of(key);
    let by_sp: Vec<Wdl> = counts.iter().map(Wdl::from).collect();
    let strata = tables.strata_of(key);
    let noun = tables.strata.map(strata_noun);
    let (labels, groups): (Vec<String>, Vec<Vec<u16>>) = members(feature)
        .into_iter()
        .map(|((_, label), sps)| (label, sps))
        .unzip();
    let rows = grouped(&by_sp, &groups);
    let grouped_strata: Vec<Vec<Wdl>> = strata.iter().map(|s| grouped(s, &groups)).collect();
    let score = analysed(&rows, &grouped_strata, noun.as_deref());
    let draw_rows: Vec<Wdl> = rows.iter().map(draws_row).collect();
    let draw_strata: Vec<Vec<Wdl>> = grouped_strata
        .iter()
        .map(|s| s.iter().map(draws_row).collect())
        .collect();
    let draws = analysed(&draw_rows, &draw_strata, noun.as_deref());
    let table_rows = labels
        .into_iter()
        .zip(groups.iter())
        .enumerate()
        .map(|(i, (label, sps))| {
            let mut c = SpCounts::default();
            for &sp in sps {
                if let Some(x) = counts.get(usize::from(sp)) {
                    c.merge(x);
                }
            }
            group_row(label, sps.clone(), &c, &score, &draws, i)
        })
        .collect();
    let within_pairs = (feature == Feature::Mirror).then(|| {
        let sources: Vec<&[Wdl]> = if strata.is_empty() {
            vec![by_sp.as_slice()]
        } else {
            strata.iter().map(Vec::as_slice).collect()
        };
        let mut pairs: Vec<Vec<Wdl>> = Vec::new();
        for source in sources {
            for sps in &groups {
                let rows = sps.iter().filter_map(|&sp| source.get(usize::from(sp)));
                pairs.push(rows.copied().collect());
            }
        }
        stratified_homogeneity(&pairs)
    });
    GroupTable {
        feature,
        title: feature.title().to_string(),
        rows: table_rows,
        homogeneity: score.homogeneity,
        draw_homogeneity: draws.homogeneity,
        within_pairs: within_pairs.flatten(),
    }
}

/// One group's row from its counts and the tests of its table (row `i`).
fn group_row(
    group: String,
    sps: Vec<u16>,
    c: &SpCounts,
    score: &Analysis,
    draws: &Analysis,
    i: usize,
) -> GroupRow {
    let interval = c.wilson_interval();
    let draw = draw_rate_interval(c);
    let test = score.tests.get(i);
    GroupRow {
        group,
        sps,
        games: c.games,
        white_wins: c.white_wins,
        draws: c.draws,
        black_wins: c.black_wins,
        white_score: c.white_score().map(round6),
        white_score_lo: interval.map(|i| round6(i.0)),
        white_score_hi: interval.map(|i| round6(i.1)),
        draw_rate: (c.games > 0).then(|| round6(c.draws as f64 / c.games as f64)),
        draw_rate_lo: draw.map(|i| round6(i.0)),
        draw_rate_hi: draw.map(|i| round6(i.1)),
        p_value: test.and_then(|t| t.p),
        q_value: test.and_then(|t| t.q),
        draw_q_value: draws.tests.get(i).and_then(|t| t.q),
    }
}

/// The tables of every feature ([`Feature::ALL`]) for the SP table of `key`.
pub fn group_tables(tables: &SpTables, key: &Key) -> Vec<GroupTable> {
    Feature::ALL
        .iter()
        .map(|&f| group_table(f, tables, key))
        .collect()
}

/// One row of the groups table as `pgn960 stats --groups` writes it (after the `--by`
/// key columns).
#[derive(Debug, Serialize)]
struct GroupLine<'a> {
    feature: &'static str,
    group: &'a str,
    /// The group's SPs, separated by spaces.
    sps: String,
    games: u64,
    white_wins: u64,
    draws: u64,
    black_wins: u64,
    white_score: Option<f64>,
    white_score_lo: Option<f64>,
    white_score_hi: Option<f64>,
    draw_rate: Option<f64>,
    draw_rate_lo: Option<f64>,
    draw_rate_hi: Option<f64>,
    p_value: Option<f64>,
    q_value: Option<f64>,
    draw_q_value: Option<f64>,
    /// The feature's homogeneity p-value (the same on each of its rows).
    homogeneity_p: Option<f64>,
    /// The feature's homogeneity p-value of the draw rates.
    draw_homogeneity_p: Option<f64>,
}

/// The columns of [`GroupLine`], in order.
pub const GROUP_COLUMNS: [&str; 18] = [
    "feature",
    "group",
    "sps",
    "games",
    "white_wins",
    "draws",
    "black_wins",
    "white_score",
    "white_score_lo",
    "white_score_hi",
    "draw_rate",
    "draw_rate_lo",
    "draw_rate_hi",
    "p_value",
    "q_value",
    "draw_q_value",
    "homogeneity_p",
    "draw_homogeneity_p",
];

fn lines(table: &GroupTable) -> impl Iterator<Item = GroupLine<'_>> {
    table.rows.iter().map(move |r| GroupLine {
        feature: table.feature.name(),
        group: &r.group,
        sps: r
            .sps
            .iter()
            .map(u16::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        games: r.games,
        white_wins: r.white_wins,
        draws: r.draws,
        black_wins: r.black_wins,
        white_score: r.white_score,
        white_score_lo: r.white_score_lo,
        white_score_hi: r.white_score_hi,
        draw_rate: r.draw_rate,
        draw_rate_lo: r.draw_rate_lo,
        draw_rate_hi: r.draw_rate_hi,
        p_value: r.p_value,
        q_value: r.q_value,
        draw_q_value: r.draw_q_value,
        homogeneity_p: table.homogeneity.map(|h| h.p),
        draw_homogeneity_p: table.draw_homogeneity.map(|h| h.p),
    })
}

/// Writes the groups of every feature for every cell of `tables` (its `--by` key columns
/// first): one row per (cell, feature, group), as CSV or a JSON array of rows.
pub fn write_groups(out: &mut impl Write, tables: &SpTables, format: TextFormat) -> io::Result<()> {
    let cells: Vec<(Key, Vec<GroupTable>)> = tables
        .sp_keys()
        .into_iter()
        .map(|key| {
            let groups = group_tables(tables, &key);
            (key, groups)
        })
        .collect();
    write_group_cells(out, &tables.keys, &cells, format)
}

/// Writes group tables computed earlier, per cell of the `keys` ([`write_groups`]'s rows).
pub fn write_group_cells(
    out: &mut impl Write,
    keys: &[ByKey],
    cells: &[(Key, Vec<GroupTable>)],
    format: TextFormat,
) -> io::Result<()> {
    let key_columns: Vec<&str> = keys.iter().map(|k| k.column()).collect();
    match format {
        TextFormat::Csv => {
            let mut w = csv::WriterBuilder::new()
                .has_headers(false)
                .from_writer(out);
            w.write_record(key_columns.iter().chain(GROUP_COLUMNS.iter()))?;
            for (key, groups) in cells {
                for line in groups.iter().flat_map(lines) {
                    for value in key {
                        w.write_field(value.label())?;
                    }
                    w.serialize(line)?;
                }
            }
            w.flush()
        }
        TextFormat::Json => {
            let mut rows = Vec::new();
            for (key, groups) in cells {
                for line in groups.iter().flat_map(lines) {
                    let mut row = serde_json::Map::new();
                    for (column, value) in key_columns.iter().zip(key) {
                        row.insert(column.to_string(), value.label().into());
                    }
                    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(&line) {
                        row.extend(fields);
                    }
                    rows.push(serde_json::Value::Object(row));
                }
            }
            serde_json::to_writer_pretty(&mut *out, &rows)?;
            out.write_all(b"\n")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::table::{back_rank, Winner};

    #[test]
    fn mirror_reverses_the_back_rank_and_pairs_every_sp() {
        for sp in 0..960u16 {
            let m = mirror_sp(sp).unwrap();
            assert_ne!(m, sp, "no SP is its own mirror");
            assert_eq!(mirror_sp(m), Some(sp));
            let reversed: String = back_rank(sp).chars().rev().collect();
            assert_eq!(back_rank(m), reversed);
        }
        assert_eq!(mirror_sp(960), None);
    }

    #[test]
    fn features_partition_the_960() {
        let sizes = |f: Feature| members(f).values().map(Vec::len).collect::<Vec<_>>();
        // King on b..g: 6 files; the bishops' 16 file pairs of 60 SPs each; 8 queen files of
        // 120; 28 knight pairs; 480 mirror pairs of 2.
        assert_eq!(sizes(Feature::KingFile).len(), 6);
        assert_eq!(sizes(Feature::Bishops), vec![60; 16]);
        assert_eq!(sizes(Feature::QueenFile), vec![120; 8]);
        assert_eq!(sizes(Feature::Knights).len(), 28);
        assert_eq!(sizes(Feature::Mirror), vec![2; 480]);
        for f in Feature::ALL {
            assert_eq!(sizes(f).iter().sum::<usize>(), 960);
        }
        assert_eq!(Feature::Bishops.value(518).unwrap().1, "c, f");
        assert_eq!(Feature::Bishops.value(0).unwrap().1, "a, b");
        assert_eq!(Feature::Knights.value(518).unwrap().1, "b, g");
        assert_eq!(Feature::QueenFile.value(518).unwrap().1, "d");
    }

    #[test]
    fn group_rows_sum_their_sps_and_are_tested_as_the_sp_table() {
        let mut tables = SpTables::new(Vec::new());
        let mut add = |sp: u16, winner: Winner, n: u32| {
            for _ in 0..n {
                if let Some(c) = tables.sp_counts(&[], sp) {
                    c.add(winner, None);
                }
            }
        };
        add(518, Winner::White, 30);
        add(mirror_sp(518).unwrap(), Winner::Draw, 30);
        add(0, Winner::Black, 10);
        let table = group_table(Feature::Mirror, &tables, &Vec::new());
        let row = table.rows.iter().find(|r| r.sps.contains(&518)).unwrap();
        assert_eq!((row.games, row.white_wins, row.draws), (60, 30, 30));
        assert_eq!(row.white_score, Some(0.75));
        assert_eq!(row.draw_rate, Some(0.5));
        assert!(table.homogeneity.is_some());
        // An SP and its mirror differ here (all wins against all draws).
        assert!(table.within_pairs.unwrap().p < 0.05);
        let king = group_table(Feature::KingFile, &tables, &Vec::new());
        let wdl: Vec<Wdl> = king
            .rows
            .iter()
            .map(|r| Wdl::new(r.white_wins, r.draws, r.black_wins))
            .collect();
        assert_eq!(king.homogeneity, analyse(&wdl).homogeneity);
        let draws = draw_analysis(&tables, &Vec::new());
        assert_eq!(draws.pooled_rate, Some(30.0 / 70.0));
        assert!(draws.analysis.tests[518].q.unwrap() < 0.05);
    }

    #[test]
    fn the_groups_table_has_its_header_and_one_row_per_group() {
        let mut tables = SpTables::new(Vec::new());
        if let Some(c) = tables.sp_counts(&[], 518) {
            c.add(Winner::Draw, None);
        }
        let mut out = Vec::new();
        write_groups(&mut out, &tables, TextFormat::Csv).unwrap();
        let text = String::from_utf8(out).unwrap();
        let mut rows = text.lines();
        assert_eq!(rows.next().unwrap(), GROUP_COLUMNS.join(","));
        assert_eq!(rows.clone().count(), 6 + 16 + 8 + 28 + 480);
        let mirror = rows.find(|r| r.starts_with("mirror,518 / 534,")).unwrap();
        assert!(
            mirror.starts_with("mirror,518 / 534,518 534,1,0,1,0,0.5,"),
            "{mirror}"
        );
        let mut json = Vec::new();
        write_groups(&mut json, &tables, TextFormat::Json).unwrap();
        let rows: Vec<serde_json::Value> = serde_json::from_slice(&json).unwrap();
        assert_eq!(rows.len(), 538);
        let keys: Vec<&String> = rows[0].as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), GROUP_COLUMNS.len());
    }
}
