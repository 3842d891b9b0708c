//! Honest significance for per-SP tables: does any start position's white score differ
//! from the pool beyond chance?
//!
//! Everything here takes one table (or one cut of a table: a time control, a rating band,
//! the Double Chess960 pairs) as a slice of [`Wdl`] rows, or several tables over the same
//! rows as strata, and returns plain data. The null hypothesis throughout is the
//! permutation null: the table's results fell on its games at random.
//!
//! - [`sp_tests`] / [`stratified_sp_tests`]: per row, a two-sided test of white's score
//!   against the pool — exact (multivariate hypergeometric, [`exact`]) unless every expected
//!   count is at least [`exact::MIN_EXPECTED`], then normal — with its p-value and a
//!   Benjamini–Hochberg q-value ([`bh_q_values`]);
//! - [`homogeneity`] / [`stratified_homogeneity`]: Pearson's statistic of the K×3 W/D/L
//!   table, with the chi-square law under Cochran's rule, else a seeded permutation p-value;
//! - [`verdict`]: one sentence saying whether anything differs beyond chance;
//! - [`Funnel`]: the band white's score fills with a given probability when no SP differs,
//!   from the same law as the p-values;
//! - [`analyse`] / [`analyse_within`]: all of the above at once, for one table or within
//!   strata (with a caveat when strata undo the table's "Yes").
//!
//! The special functions ([`normal_sf`], [`normal_quantile`], [`chi2_sf`]) come from `statrs`.
//! Why these tests, and their calibration on simulated archives: `docs/stats.md`.
//!
//! Tested against scipy/statsmodels by `batch/tests/it/significance.rs` with
//! `scripts/significance_oracle.py`; calibrated by `batch/tests/it/calibration.rs`.

use super::exact;
use super::table::SpCounts;
use serde::Serialize;
use statrs::function::{erf, gamma};
use std::collections::HashMap;

/// The significance level of [`verdict`] (for the homogeneity p-value and the q-values).
pub const ALPHA: f64 = 0.05;

/// Wins, draws and losses of one row, from white's side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// White wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
}

impl Wdl {
    /// A row from its three counts.
    pub fn new(white_wins: u64, draws: u64, black_wins: u64) -> Wdl {
        Wdl {
            white_wins,
            draws,
            black_wins,
        }
    }

    /// Games in the row (saturating at `u64::MAX`).
    pub fn games(&self) -> u64 {
        self.white_wins
            .saturating_add(self.draws)
            .saturating_add(self.black_wins)
    }

    /// White's score (wins + draws/2) per game; `None` without games.
    pub fn score(&self) -> Option<f64> {
        let n = self.n();
        (n > 0.0).then(|| (self.white_wins as f64 + 0.5 * self.draws as f64) / n)
    }

    /// The counts as floats: W, D, L.
    fn f(&self) -> [f64; 3] {
        [
            self.white_wins as f64,
            self.draws as f64,
            self.black_wins as f64,
        ]
    }

    /// White's half points 2W + D as a float.
    fn half_points(&self) -> f64 {
        2.0 * self.white_wins as f64 + self.draws as f64
    }

    /// Games as a float (no overflow).
    fn n(&self) -> f64 {
        self.f().iter().sum()
    }
}

impl From<&SpCounts> for Wdl {
    fn from(c: &SpCounts) -> Wdl {
        Wdl::new(c.white_wins, c.draws, c.black_wins)
    }
}

impl From<SpCounts> for Wdl {
    fn from(c: SpCounts) -> Wdl {
        Wdl::from(&c)
    }
}

/// The upper tail P(Z > z) of the standard normal distribution.
pub fn normal_sf(z: f64) -> f64 {
    let half = 0.5 * normal_two_sided_p(z);
    if z >= 0.0 {
        half
    } else {
        1.0 - half
    }
}

/// The two-sided p-value P(|Z| ≥ |z|) = erfc(|z|/√2) of a standard normal statistic.
///
/// Computed as P(χ²₁ > z²) = Q(½, z²/2) with statrs's incomplete gamma (about 1e-15
/// relative to scipy), since statrs 0.18's `erfc` is off by up to 1e-10 relative from
/// argument 0.5 on; below that, where its `erfc` is exact to rounding, `erfc` is used.
/// Underflows to 0 beyond |z| ≈ 37.
pub fn normal_two_sided_p(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    if x.is_nan() || x < 0.5 {
        erf::erfc(x)
    } else {
        chi2_sf(z * z, 1).unwrap_or(f64::NAN)
    }
}

/// The quantile Φ⁻¹(p) of the standard normal distribution (±∞ at 0 and 1, NaN outside).
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) {
        return f64::NAN;
    }
    -std::f64::consts::SQRT_2 * erf::erfc_inv(2.0 * p)
}

/// The z of a two-sided interval holding probability `level` (1.959964 for 0.95); `None`
/// unless 0 < level < 1.
pub fn two_sided_z(level: f64) -> Option<f64> {
    (level > 0.0 && level < 1.0).then(|| normal_quantile(0.5 + 0.5 * level))
}

/// The chi-square survival function P(X > x) with `df` degrees of freedom: the regularized
/// upper incomplete gamma Q(df/2, x/2). `None` for `df` = 0 (no test) or a NaN `x`; 1 for
/// x ≤ 0. Values below about 1e-308 come out as 0.
pub fn chi2_sf(x: f64, df: u64) -> Option<f64> {
    if df == 0 || x.is_nan() {
        return None;
    }
    if x <= 0.0 {
        return Some(1.0);
    }
    if x.is_infinite() {
        return Some(0.0);
    }
    gamma::checked_gamma_ur(df as f64 / 2.0, x / 2.0).ok()
}

/// The pooled W/D/L of a table: the null hypothesis every row is tested against.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pooled {
    /// Games in all rows (saturating).
    pub games: u64,
    /// White's pooled score (wins + draws/2 over all games); `None` without games.
    pub score: Option<f64>,
    /// Standard deviation of one game's score under the pooled W/D/L trinomial:
    /// √(pW + pD/4 − score²); 0 when every game had the same result or there are none.
    pub sd: f64,
}

/// Pools the rows of a table.
pub fn pooled(rows: &[Wdl]) -> Pooled {
    let mut total = [0.0f64; 3];
    let mut games = 0u64;
    for r in rows {
        for (t, x) in total.iter_mut().zip(r.f()) {
            *t += x;
        }
        games = games.saturating_add(r.games());
    }
    let n: f64 = total.iter().sum();
    if n == 0.0 {
        return Pooled {
            games,
            score: None,
            sd: 0.0,
        };
    }
    let mean = (total[0] + 0.5 * total[1]) / n;
    // Centred sum (terms >= 0, no cancellation); exactly 0 when one outcome holds all games.
    let one_outcome = total.iter().filter(|&&t| t > 0.0).count() == 1;
    let var = if one_outcome {
        0.0
    } else {
        [1.0, 0.5, 0.0]
            .iter()
            .zip(total)
            .map(|(x, t)| t * (x - mean) * (x - mean))
            .sum::<f64>()
            / n
    };
    Pooled {
        games,
        score: Some(mean),
        sd: var.sqrt(),
    }
}

/// How a row's p-value was computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Method {
    /// The exact law of the row's half points under the permutation null
    /// ([`exact::half_point_pmf`]), convolved over strata.
    Exact,
    /// The normal approximation (every expected count at least [`exact::MIN_EXPECTED`]).
    Normal,
}

/// The test of one row against the pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SpTest {
    /// Games in the row.
    pub games: u64,
    /// White's score in the row; `None` without games.
    pub score: Option<f64>,
    /// The z statistic (positive: white scores above the pool); `None` when not tested.
    pub z: Option<f64>,
    /// Two-sided p-value; `None` when not tested (no games, or no other games to compare).
    pub p: Option<f64>,
    /// Benjamini–Hochberg q-value over the tested rows of the table; `None` when not tested.
    pub q: Option<f64>,
    /// How `p` was computed; `None` when not tested.
    pub method: Option<Method>,
}

/// Per row, a two-sided test of white's score against the pooled score of all rows, with
/// p- and Benjamini–Hochberg q-values (rows in, tests out, same order): the table as one
/// stratum of [`stratified_sp_tests`].
pub fn sp_tests(rows: &[Wdl]) -> Vec<SpTest> {
    stratified_sp_tests(&[rows.to_vec()])
}

/// One row's games in one stratum, and the stratum's totals.
struct Slice {
    row: Wdl,
    totals: [u64; 3],
}

impl Slice {
    fn stratum_games(&self) -> u64 {
        self.totals.iter().fold(0u64, |a, &t| a.saturating_add(t))
    }
    /// Half points expected under the null, and their variance (finite-population factor
    /// (N − n)/N, as the z-test of one table always had).
    fn moments(&self) -> (f64, f64) {
        let (n, big_n) = (self.row.n(), self.stratum_games() as f64);
        let [w, d, l] = self.totals.map(|t| t as f64);
        let mean_score = (w + 0.5 * d) / big_n;
        let var_score = (w * (1.0 - mean_score).powi(2)
            + d * (0.5 - mean_score).powi(2)
            + l * mean_score.powi(2))
            / big_n;
        let one_outcome = self.totals.iter().filter(|&&t| t > 0).count() == 1;
        let var = if one_outcome { 0.0 } else { var_score };
        (
            n * (2.0 * w + d) / big_n,
            4.0 * var * n * (big_n - n) / big_n,
        )
    }
}

/// Per row, a two-sided test of white's score against the pool, within strata: each
/// stratum (an event, a speed) is a table over the same rows, and the null hypothesis is
/// that within each stratum the stratum's results fell on its games at random (the
/// permutation null; its multiset of results fixed). The statistic is the row's half points
/// 2W + D summed over strata, against their expectation Σ n_s·H_s/N_s: a
/// Cochran–Mantel–Haenszel-style sum (Mantel & Haenszel 1959; Agresti, *Categorical Data
/// Analysis*, 3rd ed., §6.4), here with the exact conditional law.
///
/// The p-value is P(|H − E H| ≥ |h − E H|) under the null:
/// - **normal** when in every stratum where the row has games each outcome that occurs is
///   expected at least [`exact::MIN_EXPECTED`] times in the row and in the rest
///   ([`exact::normal_holds`]): z = (h − E h)/√V with V = Σ 4·n_s·σ_s²·(N_s − n_s)/N_s
///   (σ_s² the per-game variance of the stratum's score), p = 2·P(Z > |z|);
/// - **exact** otherwise: the law of the row's half points in each stratum is multivariate
///   hypergeometric (n_s results drawn from the stratum's W/D/L), the strata's laws are
///   convolved, and the p-value summed from it — no Monte Carlo error, and valid at any
///   size (an SP with one game, a draw-heavy engine event).
///
/// `z` is reported either way. Not tested (`None`): rows without games, and rows holding
/// every game of each stratum they are in (nothing to compare with). When every game of a
/// stratum had one result, the stratum adds nothing: a table of draws gives z = 0, p = 1.
/// q-values: Benjamini–Hochberg over the tested rows.
pub fn stratified_sp_tests(strata: &[Vec<Wdl>]) -> Vec<SpTest> {
    let rows = strata.iter().map(Vec::len).max().unwrap_or(0);
    let totals: Vec<[u64; 3]> = strata.iter().map(|s| column_totals(s)).collect();
    let mut cache: LawCache = HashMap::new();
    let mut tests: Vec<SpTest> = (0..rows)
        .map(|i| {
            let slices: Vec<(usize, Slice)> = strata
                .iter()
                .enumerate()
                .filter_map(|(s, rows)| {
                    let row = rows.get(i).copied().filter(|r| r.games() > 0)?;
                    Some((
                        s,
                        Slice {
                            row,
                            totals: totals[s],
                        },
                    ))
                })
                .collect();
            row_test(&slices, &mut cache)
        })
        .collect();
    let p: Vec<Option<f64>> = tests.iter().map(|t| t.p).collect();
    for (t, q) in tests.iter_mut().zip(bh_q_values(&p)) {
        t.q = q;
    }
    tests
}

/// The exact laws of half points computed so far, by (stratum, games in the row):
/// (first h, probabilities), `None` where none exists.
type LawCache = HashMap<(usize, u64), Option<(u64, Vec<f64>)>>;

/// The W/D/L totals of a table.
fn column_totals(rows: &[Wdl]) -> [u64; 3] {
    rows.iter().fold([0u64; 3], |t, r| {
        [
            t[0].saturating_add(r.white_wins),
            t[1].saturating_add(r.draws),
            t[2].saturating_add(r.black_wins),
        ]
    })
}

/// The test of one row from its slices (stratum index, games there).
fn row_test(slices: &[(usize, Slice)], cache: &mut LawCache) -> SpTest {
    let row = slices.iter().fold(Wdl::default(), |a, (_, s)| {
        Wdl::new(
            a.white_wins.saturating_add(s.row.white_wins),
            a.draws.saturating_add(s.row.draws),
            a.black_wins.saturating_add(s.row.black_wins),
        )
    });
    let mut test = SpTest {
        games: row.games(),
        score: row.score(),
        z: None,
        p: None,
        q: None,
        method: None,
    };
    if !slices
        .iter()
        .any(|(_, s)| s.row.games() < s.stratum_games())
    {
        return test;
    }
    let (mut mean, mut var, mut diff) = (0.0, 0.0, 0.0);
    for (_, s) in slices {
        let (m, v) = s.moments();
        let big_n = s.stratum_games() as f64;
        let big_h = 2.0 * s.totals[0] as f64 + s.totals[1] as f64;
        // h − n·H/N as (h·N − H·n)/N: exact while the products stay below 2^53.
        diff += (s.row.half_points() * big_n - big_h * s.row.n()) / big_n;
        mean += m;
        var += v;
    }
    let z = if var > 0.0 { diff / var.sqrt() } else { 0.0 };
    test.z = Some(z);
    let normal = slices
        .iter()
        .all(|(_, s)| exact::normal_holds(s.row.games(), s.totals));
    if normal && var > 0.0 {
        test.p = Some(normal_two_sided_p(z));
        test.method = Some(Method::Normal);
        return test;
    }
    test.method = Some(Method::Exact);
    if var == 0.0 {
        // Every stratum's games had one result: the law is a point mass at the observation.
        test.p = Some(1.0);
        return test;
    }
    let mut law = (0u64, vec![1.0]);
    for (s, slice) in slices {
        let pmf = cache
            .entry((*s, slice.row.games()))
            .or_insert_with(|| exact::half_point_pmf(slice.row.games(), slice.totals));
        match pmf {
            Some(pmf) => law = exact::convolve(&law, pmf),
            None => return test,
        }
    }
    let observed = row.white_wins.saturating_mul(2).saturating_add(row.draws);
    test.p = Some(exact::two_sided_p(law.0, &law.1, mean, observed));
    test
}

/// Benjamini–Hochberg q-values (false discovery rate adjusted p-values) of the present
/// p-values, over those only: with m present and p₍ₖ₎ the k-th smallest,
/// q₍ₖ₎ = min over j ≥ k of m·p₍ⱼ₎/j, capped at 1 (monotone in p). `None` (and NaN) stay
/// `None`.
pub fn bh_q_values(p: &[Option<f64>]) -> Vec<Option<f64>> {
    let mut present: Vec<(usize, f64)> = p
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.filter(|p| !p.is_nan()).map(|p| (i, p)))
        .collect();
    present.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let m = present.len() as f64;
    let mut q = vec![None; p.len()];
    let mut running = 1.0f64;
    for (rank, &(i, p)) in present.iter().enumerate().rev() {
        running = running.min(p * m / (rank + 1) as f64);
        q[i] = Some(running);
    }
    q
}

/// The seed of the permutation tests: fixed, so the same table gives the same bytes.
pub const PERMUTATION_SEED: u64 = 960;

/// The test of homogeneity of the K×3 W/D/L table (within strata, when there are several).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Homogeneity {
    /// Pearson's statistic Σ (observed − expected)² / expected, summed over strata.
    pub chi2: f64,
    /// Degrees of freedom Σ (rows − 1)·(outcomes − 1) over strata.
    pub df: u64,
    /// The p-value: P(χ²(df) > chi2), or the permutation p-value (see `method`).
    pub p: f64,
    /// Rows with games (the rows of the test; in any stratum).
    pub rows: usize,
    /// Outcomes (W, D, L) that occur at all (the columns of the test).
    pub outcomes: usize,
    /// The smallest expected count; the chi-square approximation wants about 5 or more.
    pub min_expected: f64,
    /// Cells with an expected count below 5.
    pub cells_below_5: usize,
    /// `"chi-square"` (the asymptotic law) or `"permutation"` (Monte Carlo, seeded).
    pub method: &'static str,
    /// The number of permutations run, with `method` = permutation (at most 999; fewer when
    /// stopped early, which happens only when p is far above 5%).
    pub permutations: Option<u64>,
    /// The Monte Carlo standard error √(p(1 − p)/B) of a permutation p-value from B
    /// permutations run (p kept within [1/(B+1), 1 − 1/(B+1)], so a p of 1 does not claim
    /// 0).
    pub monte_carlo_se: Option<f64>,
    /// Strata that contribute to the test (1 for one table).
    pub strata: usize,
}

/// One stratum's share of the homogeneity test: its kept rows and its expected counts.
struct StratumChi2 {
    rows: Vec<[u64; 3]>,
    kept_rows: usize,
    outcomes: usize,
    min_expected: f64,
    cells: usize,
    cells_below_5: usize,
}

/// A stratum's rows with games and outcomes that occur, or `None` when it has nothing to
/// test (fewer than 2 of either).
fn stratum_chi2(rows: &[Wdl]) -> Option<StratumChi2> {
    let totals = column_totals(rows);
    let cols: Vec<usize> = (0..3).filter(|&c| totals[c] > 0).collect();
    let kept: Vec<[u64; 3]> = rows
        .iter()
        .filter(|r| r.games() > 0)
        .map(|r| [r.white_wins, r.draws, r.black_wins])
        .collect();
    if kept.len() < 2 || cols.len() < 2 {
        return None;
    }
    let n: f64 = totals.iter().map(|&t| t as f64).sum();
    let (mut min_expected, mut cells_below_5) = (f64::INFINITY, 0);
    for r in &kept {
        let row: f64 = r.iter().map(|&x| x as f64).sum();
        for &c in &cols {
            let e = row * totals[c] as f64 / n;
            min_expected = min_expected.min(e);
            cells_below_5 += usize::from(e < 5.0);
        }
    }
    Some(StratumChi2 {
        kept_rows: kept.len(),
        outcomes: cols.len(),
        cells: kept.len() * cols.len(),
        rows: kept,
        min_expected,
        cells_below_5,
    })
}

/// Pearson's chi-square test that all rows share one W/D/L distribution: the table as one
/// stratum of [`stratified_homogeneity`].
pub fn homogeneity(rows: &[Wdl]) -> Option<Homogeneity> {
    stratified_homogeneity(&[rows.to_vec()])
}

/// Pearson's chi-square test that within each stratum all rows share one W/D/L
/// distribution (no continuity correction), over the rows with games and the outcomes that
/// occur in each stratum (as `scipy.stats.chi2_contingency` requires); the strata's
/// statistics and degrees of freedom add up. `None` when no stratum has 2 rows and 2
/// outcomes (df = 0: nothing to test).
///
/// Which law gives the p-value: the chi-square law when every stratum meets Cochran's rule
/// (no expected count below 1, at most 20% below 5: Cochran 1954, *Biometrics* 10:417;
/// Agresti §3.2.4); otherwise the permutation law, by Monte Carlo
/// ([`exact::permutation_chi2_p`]: random tables with each stratum's margins, at most
/// [`exact::permutations_for`] permutations, stopped early once
/// [`exact::STOP_AFTER_AS_LARGE`] reach the observed statistic, seed [`PERMUTATION_SEED`]),
/// reported with the number of permutations run and the Monte Carlo standard error.
/// Beyond [`exact::PERMUTATION_MAX_GAMES`] (2⁵⁰) games the chi-square law is used
/// whatever the expected counts, and `method` says so. Per-SP tables are sparse (a few games an SP is common), where the chi-square law can be
/// far off either way; the permutation p-value is valid at any size.
pub fn stratified_homogeneity(strata: &[Vec<Wdl>]) -> Option<Homogeneity> {
    let parts: Vec<StratumChi2> = strata.iter().filter_map(|s| stratum_chi2(s)).collect();
    if parts.is_empty() {
        return None;
    }
    let df: u64 = parts
        .iter()
        .map(|s| (s.kept_rows as u64 - 1) * (s.outcomes as u64 - 1))
        .sum();
    let cochran = parts
        .iter()
        .all(|s| s.min_expected >= 1.0 && s.cells_below_5 * 5 <= s.cells);
    let tables: Vec<Vec<[u64; 3]>> = parts.iter().map(|s| s.rows.clone()).collect();
    let games = tables
        .iter()
        .flatten()
        .flatten()
        .fold(0u64, |a, &x| a.saturating_add(x));
    let (chi2, p, permutations) = if cochran || games > exact::PERMUTATION_MAX_GAMES {
        let chi2: f64 = tables.iter().map(|t| exact::pearson_chi2(t)).sum();
        (chi2, chi2_sf(chi2, df)?, None)
    } else {
        let rows = tables.iter().map(|t| t.len() as u64).sum();
        let b = exact::permutations_for(rows);
        let t = exact::permutation_chi2_p(&tables, b, PERMUTATION_SEED);
        (t.statistic, t.p, Some(t.permutations))
    };
    let all = column_totals(&strata.iter().flatten().copied().collect::<Vec<_>>());
    let rows = (0..strata.iter().map(Vec::len).max().unwrap_or(0))
        .filter(|&i| {
            strata
                .iter()
                .any(|s| s.get(i).is_some_and(|r| r.games() > 0))
        })
        .count();
    Some(Homogeneity {
        chi2,
        df,
        p,
        rows,
        outcomes: all.iter().filter(|&&t| t > 0).count(),
        min_expected: parts
            .iter()
            .map(|s| s.min_expected)
            .fold(f64::INFINITY, f64::min),
        cells_below_5: parts.iter().map(|s| s.cells_below_5).sum(),
        method: if permutations.is_some() {
            "permutation"
        } else {
            "chi-square"
        },
        permutations,
        monte_carlo_se: permutations.map(|b| {
            let floor = 1.0 / (b + 1) as f64;
            let p = p.clamp(floor, 1.0 - floor);
            (p * (1.0 - p) / b as f64).sqrt()
        }),
        strata: parts.len(),
    })
}

/// Whether the table shows any SP differing beyond chance, and the sentence saying so.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SignificanceVerdict {
    /// True when the homogeneity p-value or the smallest q-value is below [`ALPHA`].
    pub differs: bool,
    /// Rows with q < [`ALPHA`].
    pub significant: usize,
    /// The row (index into the table) with the smallest q-value, and that q.
    pub lowest_q: Option<(usize, f64)>,
    /// One sentence for a reader, naming rows as SP numbers (row index = SP, as in
    /// `SpTables::by_sp`); build your own from the fields for other tables.
    pub text: String,
    /// With strata ([`analyse_within`]): the caveat (also at the end of `text`) when the
    /// table taken as one says "Yes" but nothing differs within strata.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// A p- or q-value for a sentence: three decimals, or two significant digits when small.
fn fmt_p(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// The homogeneity test in words: "chi-square 47.6 on 48 df, p = 0.488", or with
/// "permutation p = 0.61 (999 permutations, Monte Carlo standard error 0.015)".
fn homogeneity_text(h: &Homogeneity) -> String {
    let head = format!("chi-square {:.1} on {} df", h.chi2, h.df);
    match (h.permutations, h.monte_carlo_se) {
        (Some(b), Some(se)) => format!(
            "{head}, permutation p = {} ({b} permutations, Monte Carlo standard error {se:.3})",
            fmt_p(h.p)
        ),
        _ => format!("{head}, p = {}", fmt_p(h.p)),
    }
}

/// "per-row tests: 25 exact, 3 normal".
fn methods_text(tests: &[SpTest]) -> String {
    let count = |m| tests.iter().filter(|t| t.method == Some(m)).count();
    format!(
        "per-row tests: {} exact, {} normal",
        count(Method::Exact),
        count(Method::Normal)
    )
}

/// The verdict of a table from its homogeneity test and its per-SP tests, both at
/// [`ALPHA`] = 0.05: something differs beyond chance if the homogeneity test rejects or any
/// SP has q < 0.05. The rates at which it says "Yes" when nothing differs, measured on
/// simulated archives, are in `docs/stats.md` (calibration).
pub fn verdict(homogeneity: Option<&Homogeneity>, tests: &[SpTest]) -> SignificanceVerdict {
    verdict_naming(homogeneity, tests, &|i| format!("SP {i}"))
}

/// [`verdict`] for a table whose rows are named by `name` (row index → "SP 12", or
/// "pair 12/345" for a Double Chess960 table).
pub fn verdict_naming(
    homogeneity: Option<&Homogeneity>,
    tests: &[SpTest],
    name: &dyn Fn(usize) -> String,
) -> SignificanceVerdict {
    let lowest_q = tests
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.q.map(|q| (i, q)))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    let significant = tests
        .iter()
        .filter(|t| t.q.is_some_and(|q| q < ALPHA))
        .count();
    let h_rejects = homogeneity.is_some_and(|h| h.p < ALPHA);
    let h_text = homogeneity.map(homogeneity_text);
    let q_text = lowest_q.map(|(i, q)| {
        format!(
            "lowest q = {} at {}; {}",
            fmt_p(q),
            name(i),
            methods_text(tests)
        )
    });
    let others = match significant {
        0 | 1 => String::new(),
        k => format!(" and {} others", k - 1),
    };
    let text = match (h_rejects, significant > 0) {
        (true, true) => format!(
            "Yes: start positions differ beyond chance: the W/D/L rates are not homogeneous \
             ({}), and white's score at {}{others} differs from the pooled score at a 5% false \
             discovery rate ({}).",
            h_text.unwrap_or_default(),
            lowest_q.map_or(String::new(), |(i, _)| name(i)),
            q_text.unwrap_or_default()
        ),
        (true, false) => format!(
            "Yes, taken together: the W/D/L rates differ across start positions beyond chance \
             ({}), though no single SP's white score differs from the pooled score at a 5% \
             false discovery rate ({}).",
            h_text.unwrap_or_default(),
            q_text.unwrap_or_else(|| "no SP tested".into())
        ),
        (false, true) => format!(
            "Yes: white's score at {}{others} differs from the pooled score beyond chance at \
             a 5% false discovery rate ({}), though the W/D/L rates taken together do not \
             ({}).",
            lowest_q.map_or(String::new(), |(i, _)| name(i)),
            q_text.unwrap_or_default(),
            h_text.unwrap_or_else(|| "no homogeneity test".into())
        ),
        (false, false) if lowest_q.is_none() && homogeneity.is_none() => {
            "No test possible: the table needs games in at least two start positions.".into()
        }
        (false, false) => format!(
            "No: nothing here shows any start position differing beyond chance ({}; {}).",
            h_text.unwrap_or_else(|| "homogeneity not testable: every game had the same \
                                      result"
                .into()),
            q_text.unwrap_or_else(|| "no SP tested".into())
        ),
    };
    SignificanceVerdict {
        differs: h_rejects || significant > 0,
        significant,
        lowest_q,
        text,
        caveat: None,
    }
}

/// The funnel of chance: the band white's score over n games falls in with probability
/// `level` when no SP differs from the pool, for drawing across n on a chart.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Funnel {
    /// The pooled score μ (the funnel's axis).
    pub mean: f64,
    /// The pooled per-game standard deviation σ.
    pub sd: f64,
    /// Games in the table N.
    pub total_games: f64,
    /// The two-sided normal quantile z for `level`.
    pub z: f64,
    /// The probability the band holds.
    pub level: f64,
    /// The table's W/D/L totals (the null law the band comes from).
    pub totals: [u64; 3],
}

impl Funnel {
    /// The funnel of a table at probability `level` (e.g. 0.95); `None` without games or
    /// unless 0 < level < 1. For a multiple-testing-aware band, pass 1 − 0.05/m.
    pub fn new(rows: &[Wdl], level: f64) -> Option<Funnel> {
        let pool = pooled(rows);
        Some(Funnel {
            mean: pool.score?,
            sd: pool.sd,
            total_games: rows.iter().map(Wdl::n).sum(),
            z: two_sided_z(level)?,
            level,
            totals: column_totals(rows),
        })
    }

    /// The band (low, high) for a row of `n` games, from the same null law as the row's
    /// p-value in [`sp_tests`], so a row lies outside the band exactly when its p-value is
    /// below 1 − level: where the normal approximation holds ([`exact::normal_holds`]),
    /// μ ± z·σ·√(1/n − 1/N), clipped to [0, 1]; otherwise the scores h/2n whose exact
    /// p-value is at least 1 − level (a band of whole half points). `None` for n = 0; for
    /// n ≥ N the band closes on μ. At 95%, at most about 1 SP in 20 lies outside by chance.
    pub fn band(&self, n: u64) -> Option<(f64, f64)> {
        if n == 0 {
            return None;
        }
        let games = self.totals.iter().sum::<u64>();
        if n >= games {
            return Some((self.mean, self.mean));
        }
        if exact::normal_holds(n, self.totals) || self.sd == 0.0 {
            let (n, n_total) = (n as f64, self.total_games);
            let half = self.z * self.sd * ((n_total - n).max(0.0) / (n * n_total)).sqrt();
            return Some((
                (self.mean - half).clamp(0.0, 1.0),
                (self.mean + half).clamp(0.0, 1.0),
            ));
        }
        let (first, pmf) = exact::half_point_pmf(n, self.totals)?;
        let mean = 2.0 * n as f64 * self.mean;
        let inside: Vec<u64> = (0..pmf.len() as u64)
            .filter(|&i| pmf[i as usize] > 0.0)
            .map(|i| first + i)
            .filter(|&h| exact::two_sided_p(first, &pmf, mean, h) >= 1.0 - self.level)
            .collect();
        let score = |h: u64| h as f64 / (2 * n) as f64;
        Some((score(*inside.first()?), score(*inside.last()?)))
    }
}

/// Everything about one table: the pool, the per-SP tests, homogeneity and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// The pooled W/D/L.
    pub pooled: Pooled,
    /// One test per row, in row order.
    pub tests: Vec<SpTest>,
    /// The test of homogeneity of the W/D/L table; `None` when not testable.
    pub homogeneity: Option<Homogeneity>,
    /// The one-sentence answer.
    pub verdict: SignificanceVerdict,
}

/// Analyses one table (rows = SPs, or any cut of a table).
pub fn analyse(rows: &[Wdl]) -> Analysis {
    let tests = sp_tests(rows);
    let homogeneity = homogeneity(rows);
    let verdict = verdict(homogeneity.as_ref(), &tests);
    Analysis {
        pooled: pooled(rows),
        tests,
        homogeneity,
        verdict,
    }
}

/// Analyses a table cut into strata (each stratum a table over the same rows: an event, a
/// speed), naming the strata `by` ("event", "time control") in the sentence: the per-SP
/// tests and the homogeneity test within strata ([`stratified_sp_tests`],
/// [`stratified_homogeneity`]), the pool and the verdict's fields from them. The sentence
/// says how many strata the test ran within, and carries a caveat when the table taken as
/// one says "Yes" but nothing differs within strata (the difference then comes from mixing
/// strata with different results, each with its own SPs). With fewer than 2 strata with
/// games this is [`analyse`] of the one table, and the sentence says so.
pub fn analyse_within(strata: &[Vec<Wdl>], by: &str) -> Analysis {
    let rows = strata.iter().map(Vec::len).max().unwrap_or(0);
    let whole: Vec<Wdl> = (0..rows)
        .map(|i| {
            strata
                .iter()
                .filter_map(|s| s.get(i))
                .fold(Wdl::default(), |a, r| {
                    Wdl::new(
                        a.white_wins.saturating_add(r.white_wins),
                        a.draws.saturating_add(r.draws),
                        a.black_wins.saturating_add(r.black_wins),
                    )
                })
        })
        .collect();
    let with_games: Vec<Vec<Wdl>> = strata
        .iter()
        .filter(|s| s.iter().any(|r| r.games() > 0))
        .cloned()
        .collect();
    let one_table = analyse(&whole);
    if with_games.len() < 2 {
        let mut a = one_table;
        a.verdict.text = format!(
            "{} (Not stratified: the games share one {by}.)",
            a.verdict.text
        );
        return a;
    }
    let tests = stratified_sp_tests(&with_games);
    let homogeneity = stratified_homogeneity(&with_games);
    let mut verdict = verdict(homogeneity.as_ref(), &tests);
    verdict.text = format!(
        "{} (Tested within {} strata by {by}: an SP is compared with the other SPs of the same \
         {by} only.)",
        verdict.text,
        with_games.len()
    );
    if one_table.verdict.differs && !verdict.differs {
        let caveat = format!(
            "Caveat: taken as one table, without strata, the answer would be yes ({}), but \
             within each {by} nothing differs: that difference comes from mixing {by}s with \
             different results, not from the start positions.",
            one_table
                .homogeneity
                .as_ref()
                .filter(|h| h.p < ALPHA)
                .map_or_else(
                    || {
                        one_table.verdict.lowest_q.map_or(String::new(), |(i, q)| {
                            format!("q = {} at SP {i}", fmt_p(q))
                        })
                    },
                    homogeneity_text
                )
        );
        verdict.text.push(' ');
        verdict.text.push_str(&caveat);
        verdict.caveat = Some(caveat);
    }
    Analysis {
        pooled: pooled(&whole),
        tests,
        homogeneity,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn special_functions_known_values() {
        // Φ(1.959964) = 0.975; χ²(1) and χ²(2) 5% critical values; χ²(2) sf = e^(−x/2).
        assert!(close(normal_sf(1.959_963_984_540_054), 0.025, 1e-13));
        // Tails and both branches of the two-sided p (values from scipy.stats.norm).
        assert!(close(
            normal_two_sided_p(5.0),
            5.733_031_437_583_866e-7,
            1e-13
        ));
        assert!(close(
            normal_two_sided_p(-10.0),
            1.523_970_604_832_094e-23,
            1e-13
        ));
        assert!(close(
            normal_two_sided_p(0.3),
            0.764_177_155_622_094_8,
            1e-14
        ));
        assert!(close(normal_sf(-1.0), 0.841_344_746_068_542_9, 1e-14));
        assert!(close(normal_quantile(0.975), 1.959_963_984_540_054, 1e-13));
        assert!(close(
            two_sided_z(0.95).unwrap(),
            1.959_963_984_540_054,
            1e-13
        ));
        assert_eq!(two_sided_z(1.0), None);
        assert!(close(
            chi2_sf(3.841_458_820_694_124, 1).unwrap(),
            0.05,
            1e-12
        ));
        assert!(close(chi2_sf(7.0, 2).unwrap(), (-3.5f64).exp(), 1e-13));
        assert!(close(
            chi2_sf(40.0, 4).unwrap(),
            21.0 * (-20.0f64).exp(),
            1e-12
        ));
        assert_eq!(chi2_sf(0.0, 3), Some(1.0));
        assert_eq!(chi2_sf(1.0, 0), None);
        assert!(close(
            normal_two_sided_p(-1.0),
            0.317_310_507_862_914_1,
            1e-13
        ));
    }

    #[test]
    fn two_rows_by_hand() {
        // 3-0-1 against 1-0-3: N = 8, μ = ½, σ² = ½ − ¼, z = ¼ / (½·√(1/4 − 1/8)) = √2.
        // Expected counts 2 < 10: exact. A row's wins are hypergeometric (8 games, 4 wins,
        // 4 drawn): P(k) = C(4,k)·C(4,4−k)/70 = 1, 16, 36, 16, 1 (/70); 3 wins is 1 from
        // the mean 2, so p = P(|k − 2| ≥ 1) = 34/70. Pearson χ² = z² = 2 on 1 df; all 4
        // cells expected below 5: permutation p, whose exact value is also 34/70.
        let rows = [Wdl::new(3, 0, 1), Wdl::new(1, 0, 3), Wdl::default()];
        let pool = pooled(&rows);
        assert_eq!(pool.games, 8);
        assert_eq!(pool.score, Some(0.5));
        assert!(close(pool.sd, 0.5, 1e-15));
        let t = sp_tests(&rows);
        assert!(close(t[0].z.unwrap(), std::f64::consts::SQRT_2, 1e-14));
        assert!(close(t[1].z.unwrap(), -std::f64::consts::SQRT_2, 1e-14));
        assert!(close(t[0].p.unwrap(), 34.0 / 70.0, 1e-13));
        assert!(close(t[1].q.unwrap(), 34.0 / 70.0, 1e-13));
        assert_eq!(t[0].method, Some(Method::Exact));
        assert_eq!(
            (t[2].z, t[2].p, t[2].q, t[2].score, t[2].method),
            (None, None, None, None, None)
        );
        let h = homogeneity(&rows).unwrap();
        assert_eq!((h.df, h.rows, h.outcomes, h.cells_below_5), (1, 2, 2, 4));
        assert_eq!((h.method, h.strata), ("permutation", 1));
        // p near ½: stopped early, after about 2·20 permutations.
        assert!(h.permutations.is_some_and(|b| b < 999), "{h:?}");
        assert!(close(h.chi2, 2.0, 1e-14));
        let se = h.monte_carlo_se.unwrap();
        assert!((h.p - 34.0 / 70.0).abs() < 4.0 * se, "{} ± {se}", h.p);
        assert!(close(h.min_expected, 2.0, 1e-15));
        let v = verdict(Some(&h), &t);
        assert!(!v.differs);
        assert_eq!(v.lowest_q.map(|l| l.0), Some(0));
        assert!(v.text.starts_with("No: nothing here"), "{}", v.text);
        assert!(
            v.text.contains("per-row tests: 2 exact, 0 normal"),
            "{}",
            v.text
        );
    }

    #[test]
    fn benjamini_hochberg_by_hand() {
        // m = 4: 0.01·4/1 = 0.04, 0.03·4/2 = 0.06, 0.04·4/3 = 0.0533, 0.2·4/4 = 0.2, then
        // the running minimum from the top.
        let q = bh_q_values(&[Some(0.01), Some(0.04), Some(0.03), Some(0.2), None]);
        let want = [0.04, 0.04 * 4.0 / 3.0, 0.04 * 4.0 / 3.0, 0.2];
        for (q, w) in q.iter().zip(want) {
            assert!(close(q.unwrap(), w, 1e-15), "{q:?} {w}");
        }
        assert_eq!(q[4], None);
        assert_eq!(bh_q_values(&[Some(f64::NAN), None]), vec![None, None]);
        let q = bh_q_values(&[Some(0.9), Some(0.8)]);
        assert_eq!(q, vec![Some(0.9), Some(0.9)]);
        assert!(bh_q_values(&[]).is_empty());
    }

    #[test]
    fn edge_cases() {
        // No games at all.
        let a = analyse(&[Wdl::default(); 3]);
        assert_eq!(a.pooled.score, None);
        assert!(a.tests.iter().all(|t| t.p.is_none()));
        assert_eq!(a.homogeneity, None);
        assert!(!a.verdict.differs);
        assert!(a.verdict.text.starts_with("No test possible"));
        assert_eq!(Funnel::new(&[Wdl::default()], 0.95), None);
        // All games in one SP: nothing to compare with.
        let a = analyse(&[Wdl::new(5, 2, 1), Wdl::default()]);
        assert_eq!(a.tests[0].p, None);
        assert_eq!(a.homogeneity, None);
        // All draws: σ = 0, every SP scores the pool's ½, p = 1; no homogeneity test.
        let a = analyse(&[Wdl::new(0, 4, 0), Wdl::new(0, 1, 0)]);
        assert_eq!(a.pooled.sd, 0.0);
        assert_eq!(
            (a.tests[0].z, a.tests[0].p, a.tests[1].q),
            (Some(0.0), Some(1.0), Some(1.0))
        );
        assert_eq!(a.homogeneity, None);
        assert!(!a.verdict.differs);
        assert!(
            a.verdict.text.contains("every game had the same result"),
            "{}",
            a.verdict.text
        );
        // One game in an SP is tested against the pooled σ.
        let t = sp_tests(&[Wdl::new(1, 0, 0), Wdl::new(10, 10, 10)]);
        assert!(t[0].p.is_some_and(|p| p > 0.0 && p < 1.0));
        // Counts beyond u64 in total do not overflow (the totals saturate, so such rows may
        // go untested, but nothing panics and every p present is a probability).
        let big = Wdl::new(u64::MAX, u64::MAX, 1);
        assert_eq!(big.games(), u64::MAX);
        let t = sp_tests(&[big, big, Wdl::new(1, 1, 1)]);
        assert!(t
            .iter()
            .all(|t| t.p.is_none_or(|p| (0.0..=1.0).contains(&p))));
        assert!(homogeneity(&[big, big]).is_some());
    }

    #[test]
    fn strong_outlier_is_found() {
        // 99 identical SPs and one far off: the per-SP test finds it while the omnibus
        // chi-square, spreading one SP's deviation over 198 df, does not; the verdict says so.
        let mut rows = vec![Wdl::new(40, 20, 40); 100];
        rows[7] = Wdl::new(80, 10, 10);
        let a = analyse(&rows);
        assert!(a.verdict.differs);
        assert_eq!(a.verdict.significant, 1);
        assert_eq!(a.verdict.lowest_q.map(|l| l.0), Some(7));
        assert!(a.tests[7].z.is_some_and(|z| z > 5.0));
        assert!(a.homogeneity.is_some_and(|h| h.p > 0.9));
        assert!(
            a.verdict
                .text
                .starts_with("Yes: white's score at SP 7 differs"),
            "{}",
            a.verdict.text
        );
        assert!(a.verdict.text.contains("SP 7"), "{}", a.verdict.text);
    }

    #[test]
    fn funnel_by_hand() {
        // A big table (normal at n = 400): μ = ½, σ = ½, N = 8000: band(400) =
        // ½ ± 1.96·½·√(1/400 − 1/8000).
        let big = [Wdl::new(3000, 0, 1000), Wdl::new(1000, 0, 3000)];
        let f = Funnel::new(&big, 0.95).unwrap();
        let half = 1.959_963_984_540_054 * 0.5 * (1.0f64 / 400.0 - 1.0 / 8000.0).sqrt();
        let (lo, hi) = f.band(400).unwrap();
        assert!(close(lo, 0.5 - half, 1e-14) && close(hi, 0.5 + half, 1e-14));
        // The small table (exact): 4 games of 8 (4 W, 4 L): wins k has p = 1 at 2, 34/70
        // at 1 and 3, 2/70 at 0 and 4, so the 95% band is 1..3 wins: scores ¼..¾.
        let f = Funnel::new(&[Wdl::new(3, 0, 1), Wdl::new(1, 0, 3)], 0.95).unwrap();
        assert_eq!(f.band(4), Some((0.25, 0.75)));
        assert_eq!(f.band(1), Some((0.0, 1.0)));
        assert_eq!(f.band(8), Some((0.5, 0.5)));
        assert_eq!(f.band(0), None);
        assert_eq!(Funnel::new(&[Wdl::new(1, 0, 1)], 1.5), None);
        // Exactly the rows whose p-value is below 5% lie outside.
        let rows: Vec<Wdl> = (0..30).map(|i| Wdl::new(i % 4, 2, (i + 1) % 3)).collect();
        let f = Funnel::new(&rows, 0.95).unwrap();
        for (r, t) in rows.iter().zip(sp_tests(&rows)) {
            let (lo, hi) = f.band(r.games()).unwrap();
            let s = r.score().unwrap();
            let outside = s < lo - 1e-12 || s > hi + 1e-12;
            assert_eq!(outside, t.p.unwrap() < 0.05, "{r:?} {lo} {hi} {t:?}");
        }
    }

    #[test]
    fn strata_hide_what_mixing_shows() {
        // Two events: one all white wins at SPs 0..9, the other all draws at SPs 10..19.
        // As one table the SPs differ wildly; within each event nothing differs.
        let mut a = vec![Wdl::default(); 20];
        let mut b = vec![Wdl::default(); 20];
        for i in 0..10 {
            a[i] = Wdl::new(3, 0, 0);
            b[i + 10] = Wdl::new(0, 3, 0);
        }
        let whole: Vec<Wdl> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| Wdl::new(x.white_wins, y.draws, 0))
            .collect();
        assert!(analyse(&whole).verdict.differs);
        let within = analyse_within(&[a, b], "event");
        assert!(!within.verdict.differs, "{}", within.verdict.text);
        assert!(
            within.verdict.text.starts_with("No"),
            "{}",
            within.verdict.text
        );
        assert!(
            within.verdict.text.contains("Caveat"),
            "{}",
            within.verdict.text
        );
        assert!(within
            .verdict
            .caveat
            .as_ref()
            .is_some_and(|c| within.verdict.text.ends_with(c.as_str())));
        assert!(within.verdict.text.contains("within 2 strata by event"));
        let one = analyse_within(std::slice::from_ref(&whole), "event");
        assert!(
            one.verdict.text.contains("Not stratified"),
            "{}",
            one.verdict.text
        );
    }
}
