//! Null distributions under the conditional (permutation) null hypothesis: the archive's
//! multiset of results is fixed and shuffled at random over its games, so the start
//! position of a game says nothing about its result.
//!
//! - [`half_point_pmf`]: the exact law of white's half points 2W + D over an SP's n games
//!   (a multivariate hypergeometric draw of n results from the archive's W/D/L totals);
//! - [`normal_holds`]: the documented rule for when the normal approximation is used
//!   instead (every expected count at least [`MIN_EXPECTED`]);
//! - [`permutation_chi2_p`]: a seeded Monte Carlo permutation p-value of a (stratified)
//!   Pearson chi-square statistic, for tables too sparse for the chi-square law;
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
    /// the sizes shuffled here).
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

/// The most games [`permutation_chi2_p`] is asked to shuffle (beyond: the chi-square law).
pub const PERMUTATION_MAX_GAMES: u64 = 50_000_000;

/// How many permutations [`permutation_chi2_p`] runs over `games` games: 999 (a Monte
/// Carlo error of 0.007 at p = 0.05) up to 100,000 games, then fewer so a table costs about
/// 10⁸ shuffled games, never below 199.
pub fn permutations_for(games: u64) -> u64 {
    (100_000_000 / games.max(1)).clamp(199, 999)
}

/// A Monte Carlo permutation p-value of the stratified Pearson statistic Σ_s χ²_s (each
/// stratum a K×3 table, rows in the same order): within each stratum the results are
/// shuffled over its games (Fisher–Yates, [`SplitMix64`] seeded with `seed`), the rows'
/// sizes kept, `permutations` times. Returns (observed statistic, p), with
/// p = (1 + #{permuted ≥ observed}) / (1 + permutations), which is a valid p-value
/// (Phipson & Smyth 2010).
pub fn permutation_chi2_p(strata: &[Vec<[u64; 3]>], permutations: u64, seed: u64) -> (f64, f64) {
    let observed: f64 = strata.iter().map(|s| pearson_chi2(s)).sum();
    let mut rng = SplitMix64(seed);
    let mut decks: Vec<(Vec<u8>, Vec<u64>)> = strata
        .iter()
        .map(|rows| {
            let mut deck = Vec::new();
            for outcome in 0..3u8 {
                let count: u64 = rows.iter().map(|r| r[usize::from(outcome)]).sum();
                deck.extend(std::iter::repeat_n(outcome, count as usize));
            }
            let sizes = rows.iter().map(|r| r.iter().sum()).collect();
            (deck, sizes)
        })
        .collect();
    let tolerance = 1e-9 * observed.abs().max(1.0);
    let mut at_least = 0u64;
    let mut table = Vec::new();
    for _ in 0..permutations {
        let mut statistic = 0.0;
        for (deck, sizes) in &mut decks {
            for i in (1..deck.len()).rev() {
                let j = rng.below(i as u64 + 1) as usize;
                deck.swap(i, j);
            }
            table.clear();
            let mut start = 0usize;
            for &size in sizes.iter() {
                let mut row = [0u64; 3];
                for &g in &deck[start..start + size as usize] {
                    row[usize::from(g)] += 1;
                }
                start += size as usize;
                table.push(row);
            }
            statistic += pearson_chi2(&table);
        }
        at_least += u64::from(statistic >= observed - tolerance);
    }
    (observed, (1 + at_least) as f64 / (1 + permutations) as f64)
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
        let strong = vec![vec![[20, 0, 0], [0, 0, 20], [10, 0, 10]]];
        let (chi2, p) = permutation_chi2_p(&strong, 199, 1);
        assert!(chi2 > 30.0 && p == 1.0 / 200.0, "{chi2} {p}");
        let none = vec![vec![[5, 5, 5], [5, 5, 5]]];
        let (chi2, p) = permutation_chi2_p(&none, 199, 1);
        assert_eq!((chi2, p), (0.0, 1.0));
        assert_eq!(
            permutation_chi2_p(&strong, 50, 7),
            permutation_chi2_p(&strong, 50, 7)
        );
        assert_eq!(permutations_for(1000), 999);
        assert_eq!(permutations_for(10_000_000), 199);
    }
}
