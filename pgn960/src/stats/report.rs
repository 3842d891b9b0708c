//! The significance of each cell and the engine-match pairs, as the JSON report of
//! `pgn960 stats` gives them.

use super::by::ByKey;
use super::pairs::{PairRow, Pairer};
use super::significance::{verdict_naming, Homogeneity, ALPHA};
use super::table::SpCell;
use serde::Serialize;

/// The significance of one cell's table, for the JSON report.
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
    /// The engine whose view every match takes (`--engine`), if one was named.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Player A of the first match (the only one in a file of two players).
    pub player_a: Option<String>,
    /// Its player B.
    pub player_b: Option<String>,
    /// Pairs in all matches.
    pub pairs: u64,
    /// Counted games that found no partner.
    pub unpaired_games: u64,
    /// With `--engine`, pairs between other players (in no pentanomial).
    pub other_pairs: u64,
    /// The total row of the first match (an empty row without pairs).
    pub total: PairRow,
    /// Every match's total row, in the order of their first pair.
    pub matches: Vec<PairRow>,
}

/// The report of one cell of an SP table.
pub fn cell_report(keys: &[ByKey], cell: &SpCell) -> CellReport {
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
            .filter(|r| r.q_value.is_some_and(|q| q < ALPHA))
            .map(|r| r.sp)
            .collect(),
        significant_pairs: Vec::new(),
        verdict: a.verdict.text.clone(),
    }
}

/// The report of one Double Chess960 cell: its pairs' tests, named as pairs.
pub fn dfrc_cell_report(keys: &[ByKey], cell: &SpCell) -> CellReport {
    let a = &cell.analysis;
    let pair = |i: usize| cell.rows.get(i).map(|r| (r.sp, r.black_sp.unwrap_or(r.sp)));
    let name = |i: usize| pair(i).map_or(format!("row {i}"), |(w, b)| format!("pair {w}/{b}"));
    let verdict = verdict_naming(a.homogeneity.as_ref(), &a.tests, &name);
    CellReport {
        significant_sps: Vec::new(),
        significant_pairs: (0..cell.rows.len())
            .filter(|&i| a.tests.get(i).and_then(|t| t.q).is_some_and(|q| q < ALPHA))
            .filter_map(pair)
            .collect(),
        verdict: verdict.text,
        ..cell_report(keys, cell)
    }
}

/// The pairs' part of the report.
pub fn pairs_report(pairer: &Pairer) -> Option<PairsReport> {
    let matches: Vec<PairRow> = pairer
        .rows()
        .into_iter()
        .filter(|r| r.sp == "total" && r.pairs > 0)
        .collect();
    let first = pairer.matches.first();
    let total = match matches.first() {
        Some(row) => row.clone(),
        None => pairer.rows().pop()?,
    };
    Some(PairsReport {
        engine: pairer.engine.clone(),
        player_a: first.map(|m| m.player_a.clone()),
        player_b: first.map(|m| m.player_b.clone()),
        pairs: pairer.pairs(),
        unpaired_games: pairer.unpaired_games,
        other_pairs: pairer.other_pairs,
        total,
        matches,
    })
}
