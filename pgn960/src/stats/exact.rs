//! Null distributions under the conditional (permutation) null hypothesis: the archive's
//! multiset of results is fixed and shuffled at random over its games, so the start
//! position of a game says nothing about its result.
//!
//! - [`half_point_pmf`]: the exact law of white's half points 2W + D over an SP's n games
//!   (a multivariate hypergeometric draw of n results from the archive's W/D/L totals);
//! - [`normal_holds`]: the documented rule for when the normal approximation is used
//!   instead (every expected count at least [`MIN_EXPECTED`]);
//! - [`permutation_chi2_p`]: a seeded Monte Carlo permutation p-value of a (stratified)
//!   Pearson chi-square statistic, for tables too sparse for the chi-square law (random
//!   tables with the observed margins drawn row by row, stopped sequentially);
//! - [`SplitMix64`]: the seeded generator behind it.

/// The smallest expected count (of every outcome that occurs, in the row and in the rest of
/// the table) for which the normal approximation is used; below it, the exact law.
pub const MIN_EXPECTED: f64 = 10.0;

/// Hypergeometric weights below this fraction of the mode's are left out (their total is
/// far below any p-value a table reports).
const TINY: f64 = 1e-24;

/// SplitMix64 (Steele, Lea & Flood 2014): 64 bits of state, one multiply-xorshift step per
/// number. Written out here (a dozen lines, no dependency) so the same seed gives the same
/// stream on every platform and every version of this program.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform number below `n` (> 0), by Lemire's multiply-shift (bias below 2⁻³² for
    /// the sizes drawn here).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// The hypergeometric law of successes in `draws` draws without replacement from `pop`
/// items of which `succ` are successes: (first count, probabilities from it on),
/// normalised, with the far tails below [`TINY`] of the mode left out. Computed by the
/// ratio recursion outward from the mode, so no large factorials are formed.
pub fn hypergeometric(pop: u64, succ: u64, draws: u64) -> (u64, Vec<f64>) {
    let lo = (draws + succ).saturating_sub(pop);
    let hi = succ.min(draws);
    if lo >= hi {
        return (lo, vec![1.0]);
    }
    let (pop_f, succ_f, draws_f) = (pop as f64, succ as f64, draws as f64);
    let mode = (((draws_f + 1.0) * (succ_f + 1.0) / (pop_f + 2.0)).floor() as u64).clamp(lo, hi);
    let mut up = vec![1.0f64];
    let (mut k, mut w) = (mode, 1.0f64);
    while k < hi {
        let kf = k as f64;
        w *= (succ_f - kf) * (draws_f - kf) / ((kf + 1.0) * (pop_f - succ_f - draws_f + kf + 1.0));
        if w < TINY {
            break;
        }
        up.push(w);
        k += 1;
    }
    let mut down = Vec::new();
    let (mut k, mut w) = (mode, 1.0f64);
    while k > lo {
        let kf = k as f64;
        w *= kf * (pop_f - succ_f - draws_f + kf) / ((succ_f - kf + 1.0) * (draws_f - kf + 1.0));
        if w < TINY {
            break;
        }
        down.push(w);
        k -= 1;
    }
    let first = mode - down.len() as u64;
    let mut weights: Vec<f64> = down.into_iter().rev().chain(up).collect();
    let total: f64 = weights.iter().sum();
    for w in &mut weights {
        *w /= total;
    }
    (first, weights)
}

/// The exact law of white's half points h = 2W + D over `n` games drawn without
/// replacement from an archive with `totals` = [white wins, draws, black wins]:
/// (first h, P(h) from it on), the far tails below about 10⁻²⁴ left out. The draw is
/// multivariate hypergeometric; it is split into the law of the rarest outcome and, given
/// it, the law of the next rarest, each hypergeometric, so the cost is the product of their
/// spreads, not n². `None` when `n` exceeds the archive's games.
pub fn half_point_pmf(n: u64, totals: [u64; 3]) -> Option<(u64, Vec<f64>)> {
    let total = totals.iter().try_fold(0u64, |a, &t| a.checked_add(t))?;
    if n > total {
        return None;
    }
    const HALF_POINTS: [u64; 3] = [2, 1, 0];
    let mut order = [0usize, 1, 2];
    order.sort_by_key(|&k| totals[k]);
    let [a, b, c] = order;
    let mut terms = Vec::new();
    let (a_first, a_weights) = hypergeometric(total, totals[a], n);
    for (i, wa) in a_weights.iter().enumerate() {
        let ka = a_first + i as u64;
        let rest = n - ka;
        let (b_first, b_weights) = hypergeometric(total - totals[a], totals[b], rest);
        for (j, wb) in b_weights.iter().enumerate() {
            let kb = b_first + j as u64;
            let kc = rest - kb;
            let h = HALF_POINTS[a] * ka + HALF_POINTS[b] * kb + HALF_POINTS[c] * kc;
            terms.push((h, wa * wb));
        }
    }
    let first = terms.iter().map(|t| t.0).min()?;
    let last = terms.iter().map(|t| t.0).max()?;
    let mut pmf = vec![0.0f64; usize::try_from(last - first + 1).ok()?];
    for (h, w) in terms {
        pmf[(h - first) as usize] += w;
    }
    Some((first, pmf))
}

/// The two-sided p-value of `observed` half points under the law `pmf` of h = `first`,
/// `first` + 1, …: P(|h − mean| ≥ |observed − mean|), the probability of a row at least as
/// far from the pooled score as this one (ties within 1e-9 count as as far). Capped at 1.
pub fn two_sided_p(first: u64, pmf: &[f64], mean: f64, observed: u64) -> f64 {
    let distance = (observed as f64 - mean).abs();
    let tolerance = 1e-9 * distance.max(1.0);
    let p: f64 = pmf
        .iter()
        .enumerate()
        .filter(|(i, _)| ((first + *i as u64) as f64 - mean).abs() >= distance - tolerance)
        .map(|(_, p)| p)
        .sum();
    p.min(1.0)
}

/// Adds the law `b` to the law `a` (each (first h, probabilities)): the law of the sum.
pub fn convolve(a: &(u64, Vec<f64>), b: &(u64, Vec<f64>)) -> (u64, Vec<f64>) {
    if a.1.is_empty() || b.1.is_empty() {
        return (a.0 + b.0, Vec::new());
    }
    let mut out = vec![0.0f64; a.1.len() + b.1.len() - 1];
    for (i, x) in a.1.iter().enumerate().filter(|(_, x)| **x > 0.0) {
        for (j, y) in b.1.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    (a.0 + b.0, out)
}

/// Whether the normal approximation holds for `n` games of an archive with `totals`: every
/// outcome that occurs is expected at least [`MIN_EXPECTED`] times among the n games and
/// among the other games.
pub fn normal_holds(n: u64, totals: [u64; 3]) -> bool {
    let total: f64 = totals.iter().map(|&t| t as f64).sum();
    let (n, rest) = (n as f64, total - n as f64);
    totals
        .iter()
        .filter(|&&t| t > 0)
        .all(|&t| n * t as f64 / total >= MIN_EXPECTED && rest * t as f64 / total >= MIN_EXPECTED)
}

/// Pearson's statistic of one stratum's K×3 table with its fixed margins (zero rows and
/// columns add nothing).
pub fn pearson_chi2(rows: &[[u64; 3]]) -> f64 {
    let mut col = [0.0f64; 3];
    for r in rows {
        for (c, x) in col.iter_mut().zip(r) {
            *c += *x as f64;
        }
    }
    let n: f64 = col.iter().sum();
    let mut chi2 = 0.0;
    for r in rows {
        let row: f64 = r.iter().map(|&x| x as f64).sum();
        for (x, c) in r.iter().zip(col) {
            let e = row * c / n;
            if e > 0.0 {
                chi2 += (*x as f64 - e) * (*x as f64 - e) / e;
            }
        }
    }
    chi2
}

/// The most games [`permutation_chi2_p`] is asked to permute (2⁵⁰, where its floating-point
/// arithmetic on counts stops being exact; beyond, the chi-square law).
pub const PERMUTATION_MAX_GAMES: u64 = 1 << 50;

/// How many permutations [`permutation_chi2_p`] runs at most over a table of `rows` rows
/// (all strata together): 999 (a Monte Carlo error of 0.007 at p = 0.05) up to 100,000
/// rows, then fewer so a test costs about 10⁸ sampled rows, never below 199.
pub fn permutations_for(rows: u64) -> u64 {
    (100_000_000 / rows.max(1)).clamp(199, 999)
}

/// [`permutation_chi2_p`] stops once this many permuted statistics reach the observed one
/// (Besag & Clifford 1991): the p-value h/l is then above h/999 ≈ 0.05, so a stop never
/// changes the answer at 5%, and a table where nothing differs (p around ½) stops after
/// about 100 permutations.
pub const STOP_AFTER_AS_LARGE: u64 = 50;

/// [`permutation_chi2_p`] also stops after this many permutations when none reached the
/// observed statistic: p = 1/100, far below 5%.
pub const STOP_WHEN_NONE_AFTER: u64 = 99;

/// Rows of at most this many games are sampled game by game (an urn, about 20 instructions
/// a game); larger rows by two hypergeometric draws ([`sample_hypergeometric`], a few
/// hundred instructions each, whatever the row's size).
const URN_MAX_GAMES: u64 = 24;

/// ln k! is tabled up to this k; beyond, statrs's `ln_factorial` (Stirling) is used.
const LN_FACTORIAL_TABLE: u64 = 1 << 20;

/// ln k! for k = 0..=n (tabled, up to [`LN_FACTORIAL_TABLE`]).
struct LnFactorials(Vec<f64>);

impl LnFactorials {
    fn new(n: u64) -> LnFactorials {
        let mut table = vec![0.0f64];
        let mut sum = 0.0f64;
        for k in 1..=n.min(LN_FACTORIAL_TABLE) {
            sum += (k as f64).ln();
            table.push(sum);
        }
        LnFactorials(table)
    }

    fn get(&self, k: u64) -> f64 {
        usize::try_from(k)
            .ok()
            .and_then(|i| self.0.get(i).copied())
            .unwrap_or_else(|| statrs::function::factorial::ln_factorial(k))
    }

    /// ln C(n, k), for k ≤ n.
    fn ln_choose(&self, n: u64, k: u64) -> f64 {
        self.get(n) - self.get(k) - self.get(n - k)
    }
}

/// A uniform number in [0, 1) with 53 random bits.
fn uniform(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// One draw of the hypergeometric law: the successes among `draws` items drawn without
/// replacement from `pop` items of which `succ` (≤ pop) are successes, `draws` ≤ pop. By
/// inversion from the mode outward (the mode's probability from ln-factorials, the others
/// by the ratio recursion of [`hypergeometric`]), so the cost grows with the law's spread,
/// not with `pop` or `draws`.
fn sample_hypergeometric(
    pop: u64,
    succ: u64,
    draws: u64,
    ln_factorials: &LnFactorials,
    rng: &mut SplitMix64,
) -> u64 {
    let lo = (draws + succ).saturating_sub(pop);
    let hi = succ.min(draws);
    if lo >= hi {
        return lo;
    }
    let (pop_f, succ_f, draws_f) = (pop as f64, succ as f64, draws as f64);
    let fails_f = pop_f - succ_f - draws_f;
    let mode = (((draws_f + 1.0) * (succ_f + 1.0) / (pop_f + 2.0)).floor() as u64).clamp(lo, hi);
    let at_mode = (ln_factorials.ln_choose(succ, mode)
        + ln_factorials.ln_choose(pop - succ, draws - mode)
        - ln_factorials.ln_choose(pop, draws))
    .exp();
    let mut u = uniform(rng) - at_mode;
    let (mut up, mut up_p, mut down, mut down_p) = (mode, at_mode, mode, at_mode);
    while u > 0.0 {
        let mut moved = false;
        if up < hi {
            let k = up as f64;
            up_p *= (succ_f - k) * (draws_f - k) / ((k + 1.0) * (fails_f + k + 1.0));
            up += 1;
            u -= up_p;
            if u <= 0.0 {
                return up;
            }
            moved = true;
        }
        if down > lo {
            let k = down as f64;
            down_p *= k * (fails_f + k) / ((succ_f - k + 1.0) * (draws_f - k + 1.0));
            down -= 1;
            u -= down_p;
            if u <= 0.0 {
                return down;
            }
            moved = true;
        }
        if !moved {
            // Rounding left a sliver of probability unassigned: give it to the mode.
            return mode;
        }
    }
    mode
}

/// One stratum of a permutation test: its rows' sizes and W/D/L totals, and the factors of
/// Pearson's statistic, χ² = N·Σ_r (1/n_r)·Σ_c x_rc²/C_c − N.
struct PermutedStratum {
    sizes: Vec<u64>,
    totals: [u64; 3],
    inverse_sizes: Vec<f64>,
    inverse_totals: [f64; 3],
    games: f64,
}

impl PermutedStratum {
    fn new(rows: &[[u64; 3]]) -> PermutedStratum {
        let sizes: Vec<u64> = rows.iter().map(|r| r.iter().sum()).collect();
        let mut totals = [0u64; 3];
        for r in rows {
            for (t, x) in totals.iter_mut().zip(r) {
                *t += x;
            }
        }
        PermutedStratum {
            inverse_sizes: sizes
                .iter()
                .map(|&n| if n > 0 { 1.0 / n as f64 } else { 0.0 })
                .collect(),
            inverse_totals: totals.map(|t| if t > 0 { 1.0 / t as f64 } else { 0.0 }),
            games: totals.iter().sum::<u64>() as f64,
            sizes,
            totals,
        }
    }

    /// Pearson's statistic of a table with this stratum's margins (rows in `rows`, one per
    /// size, in order).
    fn chi2(&self, rows: impl Iterator<Item = [u64; 3]>) -> f64 {
        let [a, b, c] = self.inverse_totals;
        let sum: f64 = rows
            .zip(&self.inverse_sizes)
            .map(|(x, inv)| {
                let [x, y, z] = x.map(|v| v as f64);
                inv * (x * x * a + y * y * b + z * z * c)
            })
            .sum();
        self.games * sum - self.games
    }

    /// Pearson's statistic of a random table with this stratum's margins, drawn from the
    /// permutation law: row by row, the row's W/D/L drawn without replacement from the
    /// results not yet dealt (game by game for small rows, [`deal_small_row`], else a
    /// hypergeometric draw of the wins and then of the draws among the rest; the last row
    /// takes what is left). The rows' terms are summed as they are drawn, in the order and
    /// with the arithmetic of [`PermutedStratum::chi2`], so the statistic is the same.
    fn sample_chi2(&self, ln_factorials: &LnFactorials, rng: &mut SplitMix64) -> f64 {
        // Counts within u32 (every count of a stratum of at most u32::MAX games) convert
        // to f64 in one instruction; `f64::from(v as u32)` is then `v as f64`.
        if self.totals.iter().sum::<u64>() <= u64::from(u32::MAX) {
            self.sample_chi2_converting(ln_factorials, rng, |v| f64::from(v as u32))
        } else {
            self.sample_chi2_converting(ln_factorials, rng, |v| v as f64)
        }
    }

    /// [`PermutedStratum::sample_chi2`], counts made `f64` by `to_f64` (equal to `as f64`).
    fn sample_chi2_converting(
        &self,
        ln_factorials: &LnFactorials,
        rng: &mut SplitMix64,
        to_f64: impl Fn(u64) -> f64,
    ) -> f64 {
        let [a, b, c] = self.inverse_totals;
        let mut left = self.totals;
        let mut pop: u64 = left.iter().sum();
        let last = self.sizes.len().saturating_sub(1);
        // -0.0, where `f64`'s `Sum` starts (so no rows sums to the same -0.0).
        let mut sum = -0.0f64;
        for (i, (&n, &inv)) in self.sizes.iter().zip(&self.inverse_sizes).enumerate() {
            let row = if i == last {
                left
            } else if n <= URN_MAX_GAMES {
                deal_small_row(n, pop, &mut left, rng)
            } else {
                let w = sample_hypergeometric(pop, left[0], n, ln_factorials, rng);
                let d = sample_hypergeometric(pop - left[0], left[1], n - w, ln_factorials, rng);
                let row = [w, d, n - w - d];
                for (l, x) in left.iter_mut().zip(row) {
                    *l -= x;
                }
                row
            };
            pop -= n;
            let [x, y, z] = row.map(&to_f64);
            sum += inv * (x * x * a + y * y * b + z * z * c);
        }
        self.games * sum - self.games
    }

    /// [`PermutedStratum::sample_chi2`] as it was first written (the rows drawn into an
    /// iterator that [`PermutedStratum::chi2`] sums): the reference the faster one must
    /// equal bit for bit, drawing the same numbers.
    #[cfg(test)]
    fn sample_chi2_reference(&self, ln_factorials: &LnFactorials, rng: &mut SplitMix64) -> f64 {
        let mut left = self.totals;
        let mut pop: u64 = left.iter().sum();
        let last = self.sizes.len().saturating_sub(1);
        let rows = self.sizes.iter().enumerate().map(|(i, &n)| {
            let row = if i == last {
                left
            } else if n <= URN_MAX_GAMES {
                let mut row = [0u64; 3];
                for k in 0..n {
                    let x = rng.below(pop - k);
                    let outcome = usize::from(x >= left[0]) + usize::from(x >= left[0] + left[1]);
                    row[outcome] += 1;
                    left[outcome] -= 1;
                }
                row
            } else {
                let w = sample_hypergeometric(pop, left[0], n, ln_factorials, rng);
                let d = sample_hypergeometric(pop - left[0], left[1], n - w, ln_factorials, rng);
                let row = [w, d, n - w - d];
                for (l, x) in left.iter_mut().zip(row) {
                    *l -= x;
                }
                row
            };
            pop -= n;
            row
        });
        self.chi2(rows)
    }
}

/// Deals a row of `n` games from the `pop` results not yet dealt (`left`: W/D/L, summing
/// to `pop`), game by game: each game draws a number x below the results left and is a
/// win when x is below the wins left, else a draw when below the wins and draws left,
/// else a loss. Kept as the two bounds (wins, wins + draws), each lowered by one when x
/// falls below it: a compare and a subtract each, no store a game.
fn deal_small_row(n: u64, pop: u64, left: &mut [u64; 3], rng: &mut SplitMix64) -> [u64; 3] {
    let (mut below_win, mut below_loss) = (left[0], left[0] + left[1]);
    for k in 0..n {
        let x = rng.below(pop - k);
        below_loss -= u64::from(x < below_loss);
        below_win -= u64::from(x < below_win);
    }
    let (wins, draws) = (below_win, below_loss - below_win);
    let (w, d) = (left[0] - wins, left[1] - draws);
    let row = [w, d, n - w - d];
    *left = [wins, draws, left[2] - row[2]];
    row
}

/// A Monte Carlo permutation p-value, and how it was reached.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PermutationP {
    /// The observed statistic (Pearson's, summed over strata).
    pub statistic: f64,
    /// The p-value.
    pub p: f64,
    /// Permutations run (fewer than asked when stopped early).
    pub permutations: u64,
    /// Permuted statistics at least as large as the observed one.
    pub as_large: u64,
}

/// A Monte Carlo permutation p-value of the stratified Pearson statistic Σ_s χ²_s (each
/// stratum a K×3 table, rows in the same order), under the null that within each stratum
/// the results were shuffled at random over its games.
///
/// A permutation of the results over the games gives a random table with the observed
/// margins, from the multivariate hypergeometric law; such tables are drawn directly, row
/// by row (Patefield 1981, *Applied Statistics* 30:91, algorithm AS 159, here for three
/// columns), at a cost per permutation that grows with the rows, not the games.
/// [`SplitMix64`] seeded with `seed`: the same table gives the same p.
///
/// Sequential stopping (Besag & Clifford 1991, *Biometrika* 78:301): the permutations stop
/// once [`STOP_AFTER_AS_LARGE`] = h permuted statistics reach the observed one, after l
/// permutations, with p = h/l; otherwise all `max_permutations` = B run and
/// p = (1 + #{permuted ≥ observed}) / (1 + B) (Phipson & Smyth 2010). Both are valid
/// p-values; stopping early only happens when p is well above any level of interest.
///
/// At the other end, when none of the first [`STOP_WHEN_NONE_AFTER`] = 99 permuted
/// statistics reaches the observed one, the permutations stop with p = 1/100: the answer
/// at 5% is settled, and a table with a real difference (often a large one) then costs 99
/// permutations, not 999. This stop adds to the chance of p ≤ 0.05 under the null only the
/// chance that the observed statistic beats 99 random permutations but not 95% of 999:
/// about ∫₀.₀₅¹ (1 − x)⁹⁹ dx = 0.95¹⁰⁰/100 ≈ 6·10⁻⁵.
///
/// Tables of more than [`PERMUTATION_MAX_GAMES`] games are not for this function.
pub fn permutation_chi2_p(
    strata: &[Vec<[u64; 3]>],
    max_permutations: u64,
    seed: u64,
) -> PermutationP {
    let statistic: f64 = strata.iter().map(|s| pearson_chi2(s)).sum();
    let parts: Vec<PermutedStratum> = strata.iter().map(|s| PermutedStratum::new(s)).collect();
    let largest = parts.iter().map(|s| s.games as u64).max().unwrap_or(0);
    let ln_factorials = LnFactorials::new(largest);
    // The observed statistic by the same arithmetic as the permuted ones.
    let observed: f64 = parts
        .iter()
        .zip(strata)
        .map(|(part, rows)| part.chi2(rows.iter().copied()))
        .sum();
    let tolerance = 1e-9 * observed.abs().max(1.0);
    let mut rng = SplitMix64(seed);
    let mut as_large = 0u64;
    for run in 1..=max_permutations {
        let permuted: f64 = parts
            .iter()
            .map(|part| part.sample_chi2(&ln_factorials, &mut rng))
            .sum();
        as_large += u64::from(permuted >= observed - tolerance);
        let none_as_large = as_large == 0 && run == STOP_WHEN_NONE_AFTER;
        if none_as_large && run < max_permutations {
            return PermutationP {
                statistic,
                p: 1.0 / (1 + run) as f64,
                permutations: run,
                as_large,
            };
        }
        if as_large == STOP_AFTER_AS_LARGE && run < max_permutations {
            return PermutationP {
                statistic,
                p: as_large as f64 / run as f64,
                permutations: run,
                as_large,
            };
        }
    }
    PermutationP {
        statistic,
        p: (1 + as_large) as f64 / (1 + max_permutations) as f64,
        permutations: max_permutations,
        as_large,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choose(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, i| acc * (n - i) as f64 / (i + 1) as f64)
    }

    #[test]
    fn hypergeometric_by_hand() {
        // 2 successes in 50, 2 draws: P(0) = C(48,2)/C(50,2), P(2) = 1/C(50,2).
        let (first, w) = hypergeometric(50, 2, 2);
        assert_eq!(first, 0);
        assert!((w[0] - choose(48, 2) / choose(50, 2)).abs() < 1e-15);
        assert!((w[2] - 1.0 / choose(50, 2)).abs() < 1e-15);
        // Degenerate laws.
        assert_eq!(hypergeometric(10, 0, 3), (0, vec![1.0]));
        assert_eq!(hypergeometric(10, 10, 3), (3, vec![1.0]));
    }

    #[test]
    fn tcec_final_sp_is_not_remarkable() {
        // 2 W / 47 D / 1 L over 50 games; an SP of 2 games with a win and a draw:
        // mean 2.04; as far from it as h = 3 are h = 4 (1 way), 3 (2·47), 1 (47), 0 (0).
        let (first, pmf) = half_point_pmf(2, [2, 47, 1]).unwrap();
        assert_eq!(first, 1);
        let pmf: Vec<f64> = std::iter::once(0.0).chain(pmf).collect();
        let total = choose(50, 2);
        assert!((pmf[4] - 1.0 / total).abs() < 1e-15);
        assert!((pmf[3] - 94.0 / total).abs() < 1e-15);
        assert!((pmf[1] - 47.0 / total).abs() < 1e-15);
        assert!((pmf[0] - 0.0).abs() < 1e-15);
        assert!((pmf.iter().sum::<f64>() - 1.0).abs() < 1e-14);
        let mean = 2.0 * (2.0 * 2.0 + 47.0) / 50.0;
        let p = two_sided_p(0, &pmf, mean, 3);
        assert!((p - (1.0 + 94.0 + 47.0) / total).abs() < 1e-14, "{p}");
        assert!(!normal_holds(2, [2, 47, 1]));
        assert!(normal_holds(1000, [4000, 2000, 4000]));
        assert!(!normal_holds(1000, [400, 200, 400]));
    }

    #[test]
    fn convolution_adds_laws() {
        let c = convolve(&(1, vec![0.5, 0.5]), &(2, vec![0.25, 0.75]));
        assert_eq!(c, (3, vec![0.125, 0.5, 0.375]));
    }

    #[test]
    fn permutation_p_is_seeded_and_sensible() {
        // Nothing as large in 99 permutations: stopped with p = 1/100; asked for fewer,
        // all run, p = 1/(1 + B).
        let strong = vec![vec![[20, 0, 0], [0, 0, 20], [10, 0, 10]]];
        let t = permutation_chi2_p(&strong, 999, 1);
        assert!(t.statistic > 30.0, "{t:?}");
        assert_eq!((t.p, t.permutations, t.as_large), (1.0 / 100.0, 99, 0));
        let t = permutation_chi2_p(&strong, 50, 1);
        assert_eq!((t.p, t.permutations, t.as_large), (1.0 / 51.0, 50, 0));
        // Every permuted table is as large: stopped after h permutations with p = 1.
        let none = vec![vec![[5, 5, 5], [5, 5, 5]]];
        let t = permutation_chi2_p(&none, 999, 1);
        assert_eq!(t.statistic, 0.0);
        assert_eq!(
            (t.p, t.permutations, t.as_large),
            (1.0, STOP_AFTER_AS_LARGE, STOP_AFTER_AS_LARGE)
        );
        assert_eq!(
            permutation_chi2_p(&strong, 50, 7),
            permutation_chi2_p(&strong, 50, 7)
        );
        assert_eq!(permutations_for(1000), 999);
        assert_eq!(permutations_for(10_000_000), 199);
    }

    #[test]
    fn sampled_rows_follow_the_hypergeometric_law() {
        // Draws by inversion (large rows) and by the urn (small rows) against the exact law:
        // each probability within 5 standard errors over 200,000 draws.
        let ln_factorials = LnFactorials::new(200);
        let mut rng = SplitMix64(5);
        for (pop, succ, draws) in [
            (200u64, 60u64, 30u64),
            (50, 2, 2),
            (200, 190, 40),
            (9, 4, 9),
        ] {
            let (first, law) = hypergeometric(pop, succ, draws);
            let mut seen = vec![0u64; law.len()];
            let runs = 200_000u64;
            for _ in 0..runs {
                let k = sample_hypergeometric(pop, succ, draws, &ln_factorials, &mut rng);
                seen[(k - first) as usize] += 1;
            }
            for (p, n) in law.iter().zip(&seen) {
                let se = (p * (1.0 - p) / runs as f64).sqrt();
                let share = *n as f64 / runs as f64;
                assert!(
                    (share - p).abs() <= 5.0 * se + 1e-12,
                    "{pop} {succ} {draws}: {share} vs {p}"
                );
            }
        }
        // A whole stratum: the sampled table keeps the margins, and its χ² matches
        // pearson_chi2 of the same table.
        let rows = [[3u64, 9, 1], [1, 1, 0], [20, 2, 9], [0, 4, 0]];
        let part = PermutedStratum::new(&rows);
        assert!((part.chi2(rows.iter().copied()) - pearson_chi2(&rows)).abs() < 1e-9);
        let ln_factorials = LnFactorials::new(50);
        for _ in 0..100 {
            let chi2 = part.sample_chi2(&ln_factorials, &mut rng);
            assert!(chi2.is_finite() && chi2 > -1e-9, "{chi2}");
        }
    }

    #[test]
    fn sampled_statistics_equal_the_reference_bit_for_bit() {
        // Random strata (1 to 40 rows of 0 to 60 games, so rows dealt game by game and
        // rows drawn by two hypergeometric draws; some outcomes absent): each sampled
        // statistic equals the reference's to the last bit, and the generator is left in
        // the same state, so a permutation test draws the same numbers.
        let mut pick = crate::test_rng::Rng(0x5eed);
        for round in 0..400 {
            let rows: Vec<[u64; 3]> = (0..1 + pick.below(40))
                .map(|_| {
                    let most = [0, 1, 3, 12, 24, 25, 60][pick.index(7)];
                    [(); 3].map(|_| pick.below(most + 1) / (1 + u64::from(round % 5 == 0)))
                })
                .collect();
            let part = PermutedStratum::new(&rows);
            let ln_factorials = LnFactorials::new(part.games as u64);
            let (mut fast, mut slow) = (SplitMix64(round), SplitMix64(round));
            for _ in 0..30 {
                let a = part.sample_chi2(&ln_factorials, &mut fast);
                let b = part.sample_chi2_reference(&ln_factorials, &mut slow);
                assert_eq!(a.to_bits(), b.to_bits(), "{rows:?}: {a} vs {b}");
                assert_eq!(fast.0, slow.0, "{rows:?}");
            }
        }
        // No rows: the same -0.0 statistic.
        let empty = PermutedStratum::new(&[]);
        let ln_factorials = LnFactorials::new(0);
        let (mut fast, mut slow) = (SplitMix64(1), SplitMix64(1));
        assert_eq!(
            empty.sample_chi2(&ln_factorials, &mut fast).to_bits(),
            empty
                .sample_chi2_reference(&ln_factorials, &mut slow)
                .to_bits()
        );
    }

    #[test]
    fn dealt_rows_keep_the_margins() {
        let mut rng = SplitMix64(3);
        for (n, left) in [
            (5u64, [2u64, 0, 7]),
            (9, [3, 3, 3]),
            (1, [0, 1, 0]),
            (0, [4, 4, 4]),
        ] {
            let mut after = left;
            let pop = left.iter().sum();
            let row = deal_small_row(n, pop, &mut after, &mut rng);
            assert_eq!(row.iter().sum::<u64>(), n);
            for c in 0..3 {
                assert_eq!(row[c] + after[c], left[c], "{n} {left:?}");
            }
        }
    }

    #[test]
    fn permutation_p_matches_the_exact_permutation_law() {
        // Two rows of 4 games from 4 wins and 4 losses: χ² depends on the wins k of the
        // first row only; P(χ² ≥ χ²(k = 3)) = P(k ∈ {0, 1, 3, 4}) = 34/70.
        let t = permutation_chi2_p(&[vec![[3, 0, 1], [1, 0, 3]]], 999, 11);
        let se = (t.p * (1.0 - t.p) / t.permutations as f64).sqrt();
        assert!((t.p - 34.0 / 70.0).abs() < 4.0 * se, "{t:?}");
        // p = 2/70 at k = 4: 20 as large needs about 700 permutations; none as large in
        // the first 99 happens with chance (68/70)^99 ≈ 6% (then p = 1/100, as small as
        // 5% says: the decision is the same).
        let t = permutation_chi2_p(&[vec![[4, 0, 0], [0, 0, 4]]], 999, 11);
        if t.permutations == STOP_WHEN_NONE_AFTER {
            assert_eq!((t.p, t.as_large), (0.01, 0), "{t:?}");
        } else {
            assert!((t.p - 2.0 / 70.0).abs() < 0.012, "{t:?}");
        }
        let t = permutation_chi2_p(&[vec![[4, 0, 0], [0, 0, 4]]], 999, 12);
        assert!((t.p - 2.0 / 70.0).abs() < 0.012 || t.p == 0.01, "{t:?}");
    }
}
