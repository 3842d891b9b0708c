//! Per-start-position result tables: accumulating games, deriving scores, intervals and
//! significance, cut by the keys of `--by`, writing and merging CSV exactly.

use super::by::{ByKey, Key, KeyValue};
use super::significance::{analyse, analyse_within, Analysis, Wdl};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The highest rating a merged table may average (no one is rated near it): an Elo sum
/// beyond `rated_games` × this is refused as corrupt.
pub const MAX_ELO: u64 = 5000;

/// z for a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The counts of one row; everything else in a row is derived from these, so tables from
/// separate runs add up exactly.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpCounts {
    /// Games counted.
    pub games: u64,
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Games where both players have a rating.
    pub rated_games: u64,
    /// Sum of white ratings over rated games.
    pub white_elo_sum: u64,
    /// Sum of black ratings over rated games.
    pub black_elo_sum: u64,
    /// White's points over rated games, in half points (a draw is 1).
    pub rated_white_half_points: u64,
    /// Sum over rated games of white's expected score from the rating difference, in
    /// millionths of a point (integers, so merging is exact).
    pub expected_micropoints: u64,
    /// Games with at least one `[%eval]` on the main line.
    pub eval_games: u64,
    /// Games with an evaluation after ply 10.
    pub eval_ply10_games: u64,
    /// Sum of those evaluations, in centipawns from white's view (mates as ±1000).
    pub eval_ply10_centipawns: i64,
    /// Games with an evaluation after ply 20.
    pub eval_ply20_games: u64,
    /// Sum of those evaluations, in centipawns.
    pub eval_ply20_centipawns: i64,
}

/// The evaluations of one game's main line that the table keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GameEvals {
    /// Whether the main line has any `[%eval]`.
    pub any: bool,
    /// The evaluation after ply 10, in centipawns from white's view, capped at ±1000.
    pub ply10: Option<i64>,
    /// The evaluation after ply 20.
    pub ply20: Option<i64>,
}

/// The cap of an evaluation, in centipawns: a mate counts as 10 pawns for the side that
/// mates, and any evaluation beyond ±10 pawns as ±10.
pub const EVAL_CAP_CENTIPAWNS: i64 = 1000;

/// Who won a counted game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    /// 1-0.
    White,
    /// 1/2-1/2.
    Draw,
    /// 0-1.
    Black,
}

/// White's expected score against black by the Elo formula.
pub fn expected_score(white_elo: u32, black_elo: u32) -> f64 {
    1.0 / (1.0 + 10f64.powf((f64::from(black_elo) - f64::from(white_elo)) / 400.0))
}

/// White's expected score against black ([`expected_score`]) in millionths of a point,
/// rounded: what [`SpCounts::add`] adds to `expected_micropoints` for a rated game.
pub fn expected_micropoints(white_elo: u32, black_elo: u32) -> u64 {
    (expected_score(white_elo, black_elo) * 1e6).round() as u64
}

impl SpCounts {
    /// Adds one game.
    pub fn add(&mut self, winner: Winner, ratings: Option<(u32, u32)>) {
        self.add_rated(
            winner,
            ratings.map(|(w, b)| (w, b, expected_micropoints(w, b))),
        );
    }

    /// [`SpCounts::add`] with a rated game's expectation already computed: (white's
    /// rating, black's, [`expected_micropoints`]), for a game added to several rows.
    pub fn add_rated(&mut self, winner: Winner, rated: Option<(u32, u32, u64)>) {
        self.games += 1;
        let half_points = match winner {
            Winner::White => {
                self.white_wins += 1;
                2
            }
            Winner::Draw => {
                self.draws += 1;
                1
            }
            Winner::Black => {
                self.black_wins += 1;
                0
            }
        };
        if let Some((w, b, expected)) = rated {
            self.rated_games += 1;
            self.white_elo_sum += u64::from(w);
            self.black_elo_sum += u64::from(b);
            self.rated_white_half_points += half_points;
            self.expected_micropoints += expected;
        }
    }

    /// Adds one game's evaluations.
    pub fn add_evals(&mut self, evals: &GameEvals) {
        if evals.any {
            self.eval_games += 1;
        }
        if let Some(cp) = evals.ply10 {
            self.eval_ply10_games += 1;
            self.eval_ply10_centipawns += cp;
        }
        if let Some(cp) = evals.ply20 {
            self.eval_ply20_games += 1;
            self.eval_ply20_centipawns += cp;
        }
    }

    /// Adds another row's counts.
    pub fn merge(&mut self, other: &SpCounts) {
        self.games += other.games;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.rated_games += other.rated_games;
        self.white_elo_sum += other.white_elo_sum;
        self.black_elo_sum += other.black_elo_sum;
        self.rated_white_half_points += other.rated_white_half_points;
        self.expected_micropoints += other.expected_micropoints;
        self.eval_games += other.eval_games;
        self.eval_ply10_games += other.eval_ply10_games;
        self.eval_ply10_centipawns += other.eval_ply10_centipawns;
        self.eval_ply20_games += other.eval_ply20_games;
        self.eval_ply20_centipawns += other.eval_ply20_centipawns;
    }

    /// Adds another row's counts, or fails (changing nothing) if a sum would overflow.
    pub fn checked_merge(&mut self, other: &SpCounts) -> Option<()> {
        let sum = |a: u64, b: u64| a.checked_add(b);
        let merged = SpCounts {
            games: sum(self.games, other.games)?,
            white_wins: sum(self.white_wins, other.white_wins)?,
            draws: sum(self.draws, other.draws)?,
            black_wins: sum(self.black_wins, other.black_wins)?,
            rated_games: sum(self.rated_games, other.rated_games)?,
            white_elo_sum: sum(self.white_elo_sum, other.white_elo_sum)?,
            black_elo_sum: sum(self.black_elo_sum, other.black_elo_sum)?,
            rated_white_half_points: sum(
                self.rated_white_half_points,
                other.rated_white_half_points,
            )?,
            expected_micropoints: sum(self.expected_micropoints, other.expected_micropoints)?,
            eval_games: sum(self.eval_games, other.eval_games)?,
            eval_ply10_games: sum(self.eval_ply10_games, other.eval_ply10_games)?,
            eval_ply10_centipawns: self
                .eval_ply10_centipawns
                .checked_add(other.eval_ply10_centipawns)?,
            eval_ply20_games: sum(self.eval_ply20_games, other.eval_ply20_games)?,
            eval_ply20_centipawns: self
                .eval_ply20_centipawns
                .checked_add(other.eval_ply20_centipawns)?,
        };
        *self = merged;
        Some(())
    }

    /// Whether the counts could come from games: wins, draws and losses add up to the games,
    /// rated games are at most the games, their points and expectations at most theirs.
    pub fn check(&self) -> Result<(), String> {
        let decided = self
            .white_wins
            .checked_add(self.draws)
            .and_then(|s| s.checked_add(self.black_wins));
        if decided != Some(self.games) {
            return Err(format!(
                "white_wins + draws + black_wins ({} + {} + {}) is not games ({})",
                self.white_wins, self.draws, self.black_wins, self.games
            ));
        }
        if self.rated_games > self.games {
            return Err(format!(
                "rated_games ({}) is more than games ({})",
                self.rated_games, self.games
            ));
        }
        let elo_most = self.rated_games.saturating_mul(MAX_ELO);
        if self.white_elo_sum > elo_most || self.black_elo_sum > elo_most {
            return Err(format!(
                "white_elo_sum ({}) or black_elo_sum ({}) is more than {MAX_ELO} a rated game \
                 ({} rated games)",
                self.white_elo_sum, self.black_elo_sum, self.rated_games
            ));
        }
        let most = self.rated_games.saturating_mul(2);
        if self.rated_white_half_points > most
            || self.expected_micropoints > self.rated_games.saturating_mul(1_000_000)
        {
            return Err("more points than rated games can score".into());
        }
        if self.eval_games > self.games
            || self.eval_ply10_games > self.eval_games
            || self.eval_ply20_games > self.eval_games
        {
            return Err(format!(
                "eval_games ({}) is more than games ({}), or fewer than eval_ply10_games ({}) \
                 or eval_ply20_games ({})",
                self.eval_games, self.games, self.eval_ply10_games, self.eval_ply20_games
            ));
        }
        let cap = |n: u64| i128::from(n) * i128::from(EVAL_CAP_CENTIPAWNS);
        if i128::from(self.eval_ply10_centipawns).abs() > cap(self.eval_ply10_games)
            || i128::from(self.eval_ply20_centipawns).abs() > cap(self.eval_ply20_games)
        {
            return Err("an evaluation sum is beyond ±10 pawns a game".into());
        }
        Ok(())
    }

    /// White's score (wins + draws/2) per game.
    pub fn white_score(&self) -> Option<f64> {
        (self.games > 0)
            .then(|| (self.white_wins as f64 + self.draws as f64 / 2.0) / self.games as f64)
    }

    /// The 95% Wilson score interval of white's score.
    pub fn wilson_interval(&self) -> Option<(f64, f64)> {
        let p = self.white_score()?;
        let n = self.games as f64;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Some(((centre - half).max(0.0), (centre + half).min(1.0)))
    }
}

/// One row of the per-SP table, as written to CSV/JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SpRow {
    /// Start position number (for Double Chess960 tables, white's).
    pub sp: u16,
    /// Black's SP, only in Double Chess960 tables (the column is left out of SP tables).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black_sp: Option<u16>,
    /// White's back rank, e.g. `RNBQKBNR`.
    pub start: String,
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
    /// Draws per game.
    pub draw_rate: Option<f64>,
    /// Lower bound of the 95% Wilson interval of white's score.
    pub white_score_lo: Option<f64>,
    /// Upper bound of the 95% Wilson interval of white's score.
    pub white_score_hi: Option<f64>,
    /// Mean white rating over rated games.
    pub mean_white_elo: Option<f64>,
    /// Mean black rating over rated games.
    pub mean_black_elo: Option<f64>,
    /// White's expected score over rated games, from the rating differences.
    pub expected_white_score: Option<f64>,
    /// White's score minus its expected score, over rated games.
    pub white_excess: Option<f64>,
    /// Two-sided p-value of white's score against the pooled score of the row's table
    /// (its `--by` cell); recomputed, not read, by `--merge`.
    #[serde(default)]
    pub p_value: Option<f64>,
    /// Benjamini–Hochberg q-value of `p_value` over the rows of the same table.
    #[serde(default)]
    pub q_value: Option<f64>,
    /// Games with at least one `[%eval]` on the main line.
    pub eval_games: u64,
    /// Mean evaluation after ply 10, in pawns from white's view (mates as ±10).
    pub mean_eval_ply10: Option<f64>,
    /// Mean evaluation after ply 20.
    pub mean_eval_ply20: Option<f64>,
    /// Games where both players have a rating.
    pub rated_games: u64,
    /// Sum of white ratings over rated games.
    pub white_elo_sum: u64,
    /// Sum of black ratings over rated games.
    pub black_elo_sum: u64,
    /// White's half points over rated games.
    pub rated_white_half_points: u64,
    /// Expected score sum over rated games, in millionths.
    pub expected_micropoints: u64,
    /// Games with an evaluation after ply 10.
    pub eval_ply10_games: u64,
    /// Sum of the evaluations after ply 10, in centipawns.
    pub eval_ply10_centipawns: i64,
    /// Games with an evaluation after ply 20.
    pub eval_ply20_games: u64,
    /// Sum of the evaluations after ply 20, in centipawns.
    pub eval_ply20_centipawns: i64,
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

impl SpRow {
    /// The row for `counts`.
    pub fn new(sp: u16, black_sp: Option<u16>, start: String, c: &SpCounts) -> SpRow {
        let rated = c.rated_games as f64;
        let per_rated = |x: u64| (c.rated_games > 0).then(|| round6(x as f64 / rated));
        let expected = per_rated(c.expected_micropoints).map(|e| round6(e / 1e6));
        let rated_score = per_rated(c.rated_white_half_points).map(|s| s / 2.0);
        let interval = c.wilson_interval();
        let mean_eval = |n: u64, cp: i64| (n > 0).then(|| round6(cp as f64 / n as f64 / 100.0));
        SpRow {
            sp,
            black_sp,
            start,
            games: c.games,
            white_wins: c.white_wins,
            draws: c.draws,
            black_wins: c.black_wins,
            white_score: c.white_score().map(round6),
            draw_rate: (c.games > 0).then(|| round6(c.draws as f64 / c.games as f64)),
            white_score_lo: interval.map(|i| round6(i.0)),
            white_score_hi: interval.map(|i| round6(i.1)),
            mean_white_elo: per_rated(c.white_elo_sum),
            mean_black_elo: per_rated(c.black_elo_sum),
            expected_white_score: expected,
            white_excess: rated_score.zip(expected).map(|(s, e)| round6(s - e)),
            p_value: None,
            q_value: None,
            eval_games: c.eval_games,
            mean_eval_ply10: mean_eval(c.eval_ply10_games, c.eval_ply10_centipawns),
            mean_eval_ply20: mean_eval(c.eval_ply20_games, c.eval_ply20_centipawns),
            rated_games: c.rated_games,
            white_elo_sum: c.white_elo_sum,
            black_elo_sum: c.black_elo_sum,
            rated_white_half_points: c.rated_white_half_points,
            expected_micropoints: c.expected_micropoints,
            eval_ply10_games: c.eval_ply10_games,
            eval_ply10_centipawns: c.eval_ply10_centipawns,
            eval_ply20_games: c.eval_ply20_games,
            eval_ply20_centipawns: c.eval_ply20_centipawns,
        }
    }

    /// The counts this row was made from.
    pub fn counts(&self) -> SpCounts {
        SpCounts {
            games: self.games,
            white_wins: self.white_wins,
            draws: self.draws,
            black_wins: self.black_wins,
            rated_games: self.rated_games,
            white_elo_sum: self.white_elo_sum,
            black_elo_sum: self.black_elo_sum,
            rated_white_half_points: self.rated_white_half_points,
            expected_micropoints: self.expected_micropoints,
            eval_games: self.eval_games,
            eval_ply10_games: self.eval_ply10_games,
            eval_ply10_centipawns: self.eval_ply10_centipawns,
            eval_ply20_games: self.eval_ply20_games,
            eval_ply20_centipawns: self.eval_ply20_centipawns,
        }
    }
}

/// The CSV header of an SP table, or of a Double Chess960 table (`pairs`, with `black_sp`).
pub fn csv_header(pairs: bool) -> Vec<String> {
    let row = SpRow::new(0, pairs.then_some(0), String::new(), &SpCounts::default());
    let mut writer = csv::Writer::from_writer(Vec::new());
    let text = writer
        .serialize(&row)
        .ok()
        .and_then(|()| writer.into_inner().ok())
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    text.lines()
        .next()
        .unwrap_or_default()
        .split(',')
        .map(str::to_string)
        .collect()
}

/// Counts per `--by` cell: for each SP, and for each Double Chess960 pair, only those with
/// games (a cell's 960 rows are filled in when written), so memory grows with the cells
/// present, not with the keys' possible values.
#[derive(Debug, Clone, Default)]
pub struct SpTables {
    /// The `--by` keys, in order (empty: one table).
    pub keys: Vec<ByKey>,
    /// Per cell, by SP.
    pub by_sp: BTreeMap<Key, BTreeMap<u16, SpCounts>>,
    /// Keyed by (cell, white SP, black SP).
    pub by_pair: BTreeMap<(Key, u16, u16), SpCounts>,
    /// The key the SP tables' significance tests are stratified by (`--strata`): each SP
    /// is compared with the other SPs of its stratum only ([`analyse_within`]). `None`:
    /// one table.
    pub strata: Option<ByKey>,
    /// With `strata`: per cell, per stratum value, the W/D/L of each SP.
    pub by_stratum: BTreeMap<Key, BTreeMap<KeyValue, BTreeMap<u16, Wdl>>>,
}

/// One table of a `--by` cell: its key values, rows (with p- and q-values) and analysis.
#[derive(Debug, Clone)]
pub struct SpCell {
    /// The values of the `--by` keys (empty without `--by`).
    pub key: Key,
    /// The rows: 960 for SP tables, the pairs present for Double Chess960.
    pub rows: Vec<SpRow>,
    /// The significance tests of the rows against the cell's pool.
    pub analysis: Analysis,
}

impl SpTables {
    /// Empty tables cut by `keys`.
    pub fn new(keys: Vec<ByKey>) -> SpTables {
        SpTables {
            keys,
            ..SpTables::default()
        }
    }

    /// Counts for (`key`, `sp`), created empty (the key is copied only for a new cell);
    /// always `Some`.
    pub fn sp_counts(&mut self, key: &[KeyValue], sp: u16) -> Option<&mut SpCounts> {
        if !self.by_sp.contains_key(key) {
            self.by_sp.insert(key.to_vec(), BTreeMap::new());
        }
        self.by_sp
            .get_mut(key)
            .map(|cell| cell.entry(sp).or_default())
    }

    /// Adds another table (from another chunk, file or run).
    pub fn merge(&mut self, other: SpTables) {
        self.strata = self.strata.or(other.strata);
        for (key, cell) in other.by_sp {
            let mine = self.by_sp.entry(key).or_default();
            for (sp, counts) in cell {
                mine.entry(sp).or_default().merge(&counts);
            }
        }
        for (key, counts) in other.by_pair {
            self.by_pair.entry(key).or_default().merge(&counts);
        }
        for (key, strata) in other.by_stratum {
            let mine = self.by_stratum.entry(key).or_default();
            for (value, rows) in strata {
                let stratum = mine.entry(value).or_default();
                for (sp, wdl) in rows {
                    let row = stratum.entry(sp).or_default();
                    *row = Wdl::new(
                        row.white_wins.saturating_add(wdl.white_wins),
                        row.draws.saturating_add(wdl.draws),
                        row.black_wins.saturating_add(wdl.black_wins),
                    );
                }
            }
        }
    }

    /// Notes a counted game of `sp` in its stratum (with [`SpTables::strata`]).
    pub fn add_to_stratum(&mut self, key: &[KeyValue], value: KeyValue, sp: u16, winner: Winner) {
        if !self.by_stratum.contains_key(key) {
            self.by_stratum.insert(key.to_vec(), BTreeMap::new());
        }
        let Some(cell) = self.by_stratum.get_mut(key) else {
            return;
        };
        let row = cell.entry(value).or_default().entry(sp).or_default();
        match winner {
            Winner::White => row.white_wins += 1,
            Winner::Draw => row.draws += 1,
            Winner::Black => row.black_wins += 1,
        }
    }

    /// The strata of one cell as tables of 960 rows (none without [`SpTables::strata`]).
    pub(crate) fn strata_of(&self, key: &Key) -> Vec<Vec<Wdl>> {
        self.by_stratum
            .get(key)
            .into_iter()
            .flat_map(|strata| strata.values())
            .map(|rows| {
                let mut table = vec![Wdl::default(); 960];
                for (&sp, wdl) in rows {
                    if let Some(slot) = table.get_mut(usize::from(sp)) {
                        *slot = *wdl;
                    }
                }
                table
            })
            .collect()
    }

    /// The cells of the SP table in row order; without `--by` keys, the one table, even
    /// without games.
    pub fn sp_keys(&self) -> Vec<Key> {
        let mut keys: Vec<Key> = self.by_sp.keys().cloned().collect();
        if self.keys.is_empty() && keys.is_empty() {
            keys.push(Vec::new());
        }
        keys
    }

    /// The 960 counts of one cell.
    pub fn sp_counts_of(&self, key: &Key) -> Vec<SpCounts> {
        let mut counts = vec![SpCounts::default(); 960];
        for (sp, c) in self.by_sp.get(key).into_iter().flatten() {
            if let Some(slot) = counts.get_mut(usize::from(*sp)) {
                *slot = *c;
            }
        }
        counts
    }

    /// The 960 counts of all cells added up.
    pub fn pooled_sp_counts(&self) -> Vec<SpCounts> {
        let mut counts = vec![SpCounts::default(); 960];
        for (sp, c) in self.by_sp.values().flatten() {
            if let Some(slot) = counts.get_mut(usize::from(*sp)) {
                slot.merge(c);
            }
        }
        counts
    }

    /// The SP table of one cell: 960 rows, SP order, empty SPs included, tested within the
    /// cell (and within its strata, with [`SpTables::strata`]).
    pub fn sp_cell(&self, key: &Key) -> SpCell {
        let counts = self.sp_counts_of(key);
        let rows = counts
            .iter()
            .enumerate()
            .map(|(sp, c)| SpRow::new(sp as u16, None, back_rank(sp as u16), c))
            .collect();
        match self.strata {
            Some(by) => {
                let analysis = analyse_within(&self.strata_of(key), &strata_noun(by));
                with_analysis(key.clone(), rows, analysis)
            }
            None => cell(key.clone(), &counts, rows),
        }
    }

    /// The SP tables of every cell, in row order ([`SpTables::sp_keys`], [`SpTables::sp_cell`]).
    pub fn sp_cells(&self) -> impl Iterator<Item = SpCell> + '_ {
        self.sp_keys().into_iter().map(|k| self.sp_cell(&k))
    }

    /// The Double Chess960 tables, one per cell, rows ordered by (white SP, black SP).
    pub fn pair_cells(&self) -> Vec<SpCell> {
        let mut cells = Vec::new();
        let mut current: Option<(Key, Vec<SpCounts>, Vec<SpRow>)> = None;
        for ((key, w, b), c) in &self.by_pair {
            if current.as_ref().is_some_and(|(k, ..)| k != key) {
                if let Some((k, counts, rows)) = current.take() {
                    cells.push(cell(k, &counts, rows));
                }
            }
            let (_, counts, rows) =
                current.get_or_insert_with(|| (key.clone(), Vec::new(), Vec::new()));
            counts.push(*c);
            rows.push(SpRow::new(*w, Some(*b), back_rank(*w), c));
        }
        if let Some((k, counts, rows)) = current {
            cells.push(cell(k, &counts, rows));
        }
        cells
    }
}

/// A cell with its p- and q-values filled in.
fn cell(key: Key, counts: &[SpCounts], rows: Vec<SpRow>) -> SpCell {
    let wdl: Vec<Wdl> = counts.iter().map(Wdl::from).collect();
    with_analysis(key, rows, analyse(&wdl))
}

/// How a stratifying key is named in a sentence: "event", "time control".
pub fn strata_noun(by: ByKey) -> String {
    by.column().replace('_', " ")
}

/// A cell from its rows and their analysis, the p- and q-values filled in.
fn with_analysis(key: Key, mut rows: Vec<SpRow>, analysis: Analysis) -> SpCell {
    for (row, test) in rows.iter_mut().zip(&analysis.tests) {
        row.p_value = test.p;
        row.q_value = test.q;
    }
    SpCell {
        key,
        rows,
        analysis,
    }
}

/// The back rank of `sp` as text (empty if out of range).
pub fn back_rank(sp: u16) -> String {
    chess960_core::BackRank::from_sp(sp)
        .map(|r| r.to_string())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_known_values() {
        // 6 points out of 10 games: Wilson 95% interval (0.3127, 0.8318).
        let mut c = SpCounts::default();
        for _ in 0..6 {
            c.add(Winner::White, None);
        }
        for _ in 0..4 {
            c.add(Winner::Black, None);
        }
        let (lo, hi) = c.wilson_interval().unwrap();
        assert!((lo - 0.3127).abs() < 1e-4, "{lo}");
        assert!((hi - 0.8318).abs() < 1e-4, "{hi}");
        assert_eq!(SpCounts::default().wilson_interval(), None);
    }

    #[test]
    fn expected_score_is_symmetric() {
        assert!((expected_score(1500, 1500) - 0.5).abs() < 1e-12);
        assert!((expected_score(1900, 1500) - 0.909_090).abs() < 1e-5);
        assert!((expected_score(1900, 1500) + expected_score(1500, 1900) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn merging_halves_equals_the_whole() {
        let games = [
            (Winner::White, Some((1500, 1600))),
            (Winner::Draw, None),
            (Winner::Black, Some((2000, 1800))),
            (Winner::White, Some((2100, 2100))),
        ];
        let mut whole = SpCounts::default();
        let (mut a, mut b) = (SpCounts::default(), SpCounts::default());
        for (i, (w, r)) in games.iter().enumerate() {
            whole.add(*w, *r);
            if i % 2 == 0 {
                a.add(*w, *r)
            } else {
                b.add(*w, *r)
            }
        }
        a.merge(&b);
        assert_eq!(a, whole);
        let row = SpRow::new(518, None, back_rank(518), &whole);
        assert_eq!(row.counts(), whole);
        assert_eq!(row.start, "RNBQKBNR");
        assert_eq!(row.white_score, Some(0.625));
    }
}
