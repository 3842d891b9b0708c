//! Honest significance for per-SP tables: does any start position's white score differ
//! from the pool beyond chance?
//!
//! Everything here takes one table (or one cut of a table: a time control, a rating band,
//! the Double Chess960 pairs) as a slice of [`Wdl`] rows and returns plain data:
//!
//! - [`sp_tests`]: per row, a two-sided z-test of white's score against the pooled score of
//!   the table, with its p-value and a Benjamini–Hochberg q-value ([`bh_q_values`]);
//! - [`homogeneity`]: Pearson's chi-square test of the K×3 W/D/L table;
//! - [`verdict`]: one sentence saying whether anything differs beyond chance;
//! - [`Funnel`]: the band white's score fills with a given probability when no SP differs;
//! - [`analyse`]: all of the above at once.
//!
//! The special functions ([`normal_sf`], [`normal_quantile`], [`chi2_sf`]) come from `statrs`.
//!
//! Tested against scipy/statsmodels by `batch/tests/significance.rs` with
//! `scripts/significance_oracle.py`.

use super::table::Counts;
use serde::Serialize;
use statrs::function::{erf, gamma};

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

impl From<&Counts> for Wdl {
    fn from(c: &Counts) -> Wdl {
        Wdl::new(c.white_wins, c.draws, c.black_wins)
    }
}

impl From<Counts> for Wdl {
    fn from(c: Counts) -> Wdl {
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
}

/// Per row, a two-sided z-test of white's score against the pooled score of all rows, with
/// p- and Benjamini–Hochberg q-values (rows in, tests out, same order).
///
/// The test: a game's score is 1, ½ or 0, so a row's mean score has variance σ²/n under the
/// null hypothesis that its games come from the pooled W/D/L trinomial, with
/// σ² = pW + pD/4 − μ² estimated from all games of the table ([`Pooled::sd`]). Using the
/// pooled σ rather than the row's own spread keeps the test defined and honest for rows
/// with one game or a single kind of result (whose own spread is 0), as in a score test.
/// The pooled score μ includes the tested row, so s − μ has variance σ²(1/n − 1/N), not
/// σ²/n; with that correction
///
///   z = (s − μ) / (σ·√(1/n − 1/N)),   p = 2·P(Z > |z|),
///
/// which equals the two-sample z-test of the row against all other rows with pooled
/// variance (for 960 SPs it differs from σ/√n by a factor √(1 − n/N) ≈ 1). A z-test on the
/// score, not a G-test on W/D/L, because the question is white's score: a row differing
/// only in draw rate is not flagged here (the [`homogeneity`] test sees that). It is a
/// normal approximation: rows with a handful of games get rough p-values (a 0/½/1 score is
/// discrete), on the cautious side: in simulated tables where nothing differs, 3.5% of SPs
/// with 0–8 games had p < 0.05, 5.0% with 20–80.
///
/// Edge cases: no games: `z`, `p`, `q` are `None` and the row is left out of the BH
/// correction. All games of the table in one row: `None` too (nothing to compare with).
/// σ = 0 (every game in the table the same result): every row's score equals the pool's,
/// z = 0, p = 1.
pub fn sp_tests(rows: &[Wdl]) -> Vec<SpTest> {
    let pool = pooled(rows);
    let total: f64 = rows.iter().map(Wdl::n).sum();
    let total_half_points: f64 = rows.iter().map(Wdl::half_points).sum();
    let mut tests: Vec<SpTest> = rows
        .iter()
        .map(|r| {
            let n = r.n();
            let z = (n > 0.0 && n < total).then(|| {
                if pool.sd == 0.0 {
                    return 0.0;
                }
                // s − μ = (h·N − H·n) / (2·n·N): exact while the products stay below 2^53.
                let diff = (r.half_points() * total - total_half_points * n) / (2.0 * n * total);
                diff / (pool.sd * ((total - n) / (n * total)).sqrt())
            });
            SpTest {
                games: r.games(),
                score: r.score(),
                z,
                p: z.map(normal_two_sided_p),
                q: None,
            }
        })
        .collect();
    let p: Vec<Option<f64>> = tests.iter().map(|t| t.p).collect();
    for (t, q) in tests.iter_mut().zip(bh_q_values(&p)) {
        t.q = q;
    }
    tests
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

/// Pearson's chi-square test of homogeneity of the K×3 W/D/L table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Homogeneity {
    /// Pearson's statistic Σ (observed − expected)² / expected.
    pub chi2: f64,
    /// Degrees of freedom (rows − 1)·(outcomes − 1).
    pub df: u64,
    /// P(χ²(df) > chi2).
    pub p: f64,
    /// Rows with games (the rows of the test).
    pub rows: usize,
    /// Outcomes (W, D, L) that occur at all (the columns of the test).
    pub outcomes: usize,
    /// The smallest expected count; the chi-square approximation wants about 5 or more.
    pub min_expected: f64,
    /// Cells with an expected count below 5.
    pub cells_below_5: usize,
}

/// Pearson's chi-square test that all rows share one W/D/L distribution (no continuity
/// correction), over the rows with games and the outcomes that occur (a zero row or column
/// has no expected counts and adds nothing but degrees of freedom, so it is dropped, as
/// `scipy.stats.chi2_contingency` requires). `None` when fewer than 2 rows or 2 outcomes
/// remain (df = 0: nothing to test).
///
/// Pearson rather than G because per-SP tables are sparse (a few games an SP is common) and
/// Pearson's statistic keeps close to its chi-square law with small expected counts where G
/// does not (Koehler & Larntz 1980, JASA 75:336). In a simulation of 960 SPs drawn from one
/// W/D/L law (scipy, 1000 tables each), Pearson rejected at the 5% level in 3.9% of tables
/// with 0–8 games an SP and 3.7% with 20–80; G in 91% and 13%. So on sparse tables this test
/// errs on the cautious side; [`Homogeneity::min_expected`] and
/// [`Homogeneity::cells_below_5`] say how far a table is from the usual rule of thumb (5).
pub fn homogeneity(rows: &[Wdl]) -> Option<Homogeneity> {
    let kept: Vec<[f64; 3]> = rows
        .iter()
        .map(Wdl::f)
        .filter(|r| r.iter().sum::<f64>() > 0.0)
        .collect();
    let mut col = [0.0f64; 3];
    for r in &kept {
        for (c, x) in col.iter_mut().zip(r) {
            *c += x;
        }
    }
    let cols: Vec<usize> = (0..3).filter(|&c| col[c] > 0.0).collect();
    if kept.len() < 2 || cols.len() < 2 {
        return None;
    }
    let n: f64 = col.iter().sum();
    let (mut chi2, mut min_expected, mut cells_below_5) = (0.0, f64::INFINITY, 0);
    for r in &kept {
        let row: f64 = r.iter().sum();
        for &c in &cols {
            let e = row * col[c] / n;
            chi2 += (r[c] - e) * (r[c] - e) / e;
            min_expected = min_expected.min(e);
            cells_below_5 += usize::from(e < 5.0);
        }
    }
    let df = (kept.len() as u64 - 1) * (cols.len() as u64 - 1);
    Some(Homogeneity {
        chi2,
        df,
        p: chi2_sf(chi2, df)?,
        rows: kept.len(),
        outcomes: cols.len(),
        min_expected,
        cells_below_5,
    })
}

/// Whether the table shows any SP differing beyond chance, and the sentence saying so.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// True when the homogeneity p-value or the smallest q-value is below [`ALPHA`].
    pub differs: bool,
    /// Rows with q < [`ALPHA`].
    pub significant: usize,
    /// The row (index into the table) with the smallest q-value, and that q.
    pub lowest_q: Option<(usize, f64)>,
    /// One sentence for a reader, naming rows as SP numbers (row index = SP, as in
    /// `Tables::by_sp`); build your own from the fields for other tables.
    pub text: String,
}

/// A p- or q-value for a sentence: three decimals, or two significant digits when small.
fn fmt_p(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}

/// The verdict of a table from its homogeneity test and its per-SP tests, both at
/// [`ALPHA`] = 0.05: something differs beyond chance if the homogeneity test rejects or any
/// SP has q < 0.05. Either of two tests can raise the alarm, so when nothing differs it
/// still says "Yes" a little more often than 5% (6% of simulated tables with 20–80 games an
/// SP, fewer on sparse tables, where both tests are cautious).
pub fn verdict(homogeneity: Option<&Homogeneity>, tests: &[SpTest]) -> Verdict {
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
    let h_text = homogeneity.map(|h| {
        format!(
            "chi-square {:.1} on {} df, p = {}",
            h.chi2,
            h.df,
            fmt_p(h.p)
        )
    });
    let q_text = lowest_q.map(|(i, q)| format!("lowest q = {} at SP {i}", fmt_p(q)));
    let others = match significant {
        0 | 1 => String::new(),
        k => format!(" and {} other SPs", k - 1),
    };
    let text = match (h_rejects, significant > 0) {
        (true, true) => format!(
            "Yes: start positions differ beyond chance: the W/D/L rates are not homogeneous \
             ({}), and white's score at {}{others} differs from the pooled score at a 5% false \
             discovery rate ({}).",
            h_text.unwrap_or_default(),
            lowest_q.map_or(String::new(), |(i, _)| format!("SP {i}")),
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
            lowest_q.map_or(String::new(), |(i, _)| format!("SP {i}")),
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
    Verdict {
        differs: h_rejects || significant > 0,
        significant,
        lowest_q,
        text,
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
        })
    }

    /// The band (low, high) for a row of `n` games: μ ± z·σ·√(1/n − 1/N), clipped to [0, 1];
    /// `None` for n = 0.
    ///
    /// The √(1/n − 1/N) (rather than 1/√n) matches [`sp_tests`], so a row lies outside the
    /// band exactly when its p-value is below 1 − level; for n ≪ N it is μ ± z·σ/√n. For
    /// n ≥ N the band closes on μ. At 95%, about 1 SP in 20 lies outside by chance alone.
    pub fn band(&self, n: u64) -> Option<(f64, f64)> {
        if n == 0 {
            return None;
        }
        let n = n as f64;
        let n_total = self.total_games;
        let half = self.z * self.sd * ((n_total - n).max(0.0) / (n * n_total)).sqrt();
        Some((
            (self.mean - half).clamp(0.0, 1.0),
            (self.mean + half).clamp(0.0, 1.0),
        ))
    }
}

/// Everything about one table: the pool, the per-SP tests, homogeneity and the verdict.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// The pooled W/D/L.
    pub pooled: Pooled,
    /// One test per row, in row order.
    pub tests: Vec<SpTest>,
    /// The chi-square test of the W/D/L table; `None` when not testable.
    pub homogeneity: Option<Homogeneity>,
    /// The one-sentence answer.
    pub verdict: Verdict,
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
        // 3-0-1 against 1-0-3: N = 8, μ = ½, σ² = ½ − ¼, z = ¼ / (½·√(1/4 − 1/8)) = √2,
        // p = erfc(1); Pearson χ² on the 2×2 W/L table = z² = 2 with 1 df, same p.
        let rows = [Wdl::new(3, 0, 1), Wdl::new(1, 0, 3), Wdl::default()];
        let pool = pooled(&rows);
        assert_eq!(pool.games, 8);
        assert_eq!(pool.score, Some(0.5));
        assert!(close(pool.sd, 0.5, 1e-15));
        let t = sp_tests(&rows);
        let erfc1 = 0.157_299_207_050_285_13;
        assert!(close(t[0].z.unwrap(), std::f64::consts::SQRT_2, 1e-14));
        assert!(close(t[1].z.unwrap(), -std::f64::consts::SQRT_2, 1e-14));
        assert!(close(t[0].p.unwrap(), erfc1, 1e-13));
        assert!(close(t[1].q.unwrap(), erfc1, 1e-13));
        assert_eq!(
            (t[2].z, t[2].p, t[2].q, t[2].score),
            (None, None, None, None)
        );
        let h = homogeneity(&rows).unwrap();
        assert_eq!((h.df, h.rows, h.outcomes, h.cells_below_5), (1, 2, 2, 4));
        assert!(close(h.chi2, 2.0, 1e-14));
        assert!(close(h.p, erfc1, 1e-12));
        assert!(close(h.min_expected, 2.0, 1e-15));
        let v = verdict(Some(&h), &t);
        assert!(!v.differs);
        assert_eq!(v.lowest_q.map(|l| l.0), Some(0));
        assert!(v.text.starts_with("No: nothing here"), "{}", v.text);
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
        // Counts beyond u64 in total do not overflow.
        let big = Wdl::new(u64::MAX, u64::MAX, 1);
        assert_eq!(big.games(), u64::MAX);
        assert!(sp_tests(&[big, big]).iter().all(|t| t.p.is_some()));
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
        // μ = ½, σ = ½, N = 8: band(4) = ½ ± 1.96·½·√(4/32).
        let f = Funnel::new(&[Wdl::new(3, 0, 1), Wdl::new(1, 0, 3)], 0.95).unwrap();
        let half = 1.959_963_984_540_054 * 0.5 * (4.0f64 / 32.0).sqrt();
        let (lo, hi) = f.band(4).unwrap();
        assert!(close(lo, 0.5 - half, 1e-14) && close(hi, 0.5 + half, 1e-14));
        assert_eq!(f.band(1), Some((0.0, 1.0)));
        assert_eq!(f.band(8), Some((0.5, 0.5)));
        assert_eq!(f.band(0), None);
        assert_eq!(Funnel::new(&[Wdl::new(1, 0, 1)], 1.5), None);
    }
}
