//! Engine-match pentanomials: game pairs from one start position with colours reversed,
//! counted by the points player A took from the pair, and the Elo estimate with a 95%
//! interval as fishtest computes it.
//!
//! Which games form a pair is the caller's business: give each pair as A's result in the
//! first game and A's result in the second.

use super::significance::{normal_sf, two_sided_z};
use serde::Serialize;

/// Player A's result in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PairOutcome {
    /// A lost.
    Loss,
    /// A drew.
    Draw,
    /// A won.
    Win,
}

impl PairOutcome {
    /// A's points in half points: 0, 1 or 2.
    pub fn half_points(self) -> usize {
        match self {
            PairOutcome::Loss => 0,
            PairOutcome::Draw => 1,
            PairOutcome::Win => 2,
        }
    }
}

/// Pair counts from player A's view, indexed by A's half points in the pair:
/// `[LL, LD, DD + WL, WD, WW]` (pair scores 0, ¼, ½, ¾, 1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial {
    /// LL, LD, DD + WL, WD, WW.
    pub counts: [u64; 5],
}

/// A pentanomial Elo estimate with its interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EloEstimate {
    /// Game pairs N.
    pub pairs: u64,
    /// A's score s = Σ pᵢ·xᵢ, xᵢ = 0, ¼, ½, ¾, 1 (equals A's points per game).
    pub score: f64,
    /// Standard deviation of one pair's score: σ = √(Σ pᵢ·(xᵢ − s)²).
    pub pair_sd: f64,
    /// Lower end of the score interval s − z·σ/√N, clipped to [0, 1].
    pub score_lo: f64,
    /// Upper end of the score interval s + z·σ/√N, clipped to [0, 1].
    pub score_hi: f64,
    /// Elo difference of A over B: [`elo_from_score`]`(score)`; ±∞ for a score of 1 or 0.
    pub elo: f64,
    /// [`elo_from_score`]`(score_lo)` (−∞ when the interval reaches 0).
    pub elo_lo: f64,
    /// [`elo_from_score`]`(score_hi)` (+∞ when the interval reaches 1).
    pub elo_hi: f64,
    /// Likelihood of superiority Φ((s − ½)/(σ/√N)); `None` when σ = 0.
    pub los: Option<f64>,
}

impl EloEstimate {
    /// The ± half-width (elo_hi − elo_lo)/2 that fishtest prints after its Elo; +∞ when
    /// an end of the interval is infinite.
    pub fn error(&self) -> f64 {
        if self.elo_lo.is_finite() && self.elo_hi.is_finite() {
            (self.elo_hi - self.elo_lo) / 2.0
        } else {
            f64::INFINITY
        }
    }
}

/// The logistic Elo difference of a score: −400·log10(1/s − 1); +∞ at 1, −∞ at 0, NaN
/// outside [0, 1].
pub fn elo_from_score(score: f64) -> f64 {
    if !(0.0..=1.0).contains(&score) {
        return f64::NAN;
    }
    -400.0 * (1.0 / score - 1.0).log10()
}

impl Pentanomial {
    /// Counts the pairs, each as (A's result in game 1, A's result in game 2).
    pub fn from_pairs<I: IntoIterator<Item = (PairOutcome, PairOutcome)>>(pairs: I) -> Pentanomial {
        let mut p = Pentanomial::default();
        for (first, second) in pairs {
            p.add(first, second);
        }
        p
    }

    /// Adds one pair.
    pub fn add(&mut self, first: PairOutcome, second: PairOutcome) {
        let cell = &mut self.counts[first.half_points() + second.half_points()];
        *cell = cell.saturating_add(1);
    }

    /// Game pairs counted (saturating).
    pub fn pairs(&self) -> u64 {
        self.counts.iter().fold(0u64, |a, &c| a.saturating_add(c))
    }

    /// The Elo estimate with a two-sided interval at probability `level` (0.95 for the 95%
    /// interval fishtest shows); `None` without pairs or unless 0 < level < 1.
    ///
    /// As fishtest's `get_elo` does for pentanomials: the pair score's mean s and variance
    /// σ² from the five frequencies, the interval s ± z·σ/√N over N pairs mapped through
    /// [`elo_from_score`]. Pairs, not games, are the independent unit: the two games of a
    /// pair share an opening, which the trinomial W/D/L variance would ignore. Unlike
    /// fishtest, empty cells are not replaced by 0.001 and the score is not clamped to
    /// [0.001, 0.999] before the Elo formula, so all wins give +∞ (all losses −∞) and the
    /// numbers here are the plain formula; they differ from fishtest's only when a cell is
    /// empty or the score is within 0.001 of 0 or 1. When every pair is the same (σ = 0) the
    /// interval is a point and `los` is `None`: too little variety to say anything, not
    /// certainty.
    pub fn elo_estimate(&self, level: f64) -> Option<EloEstimate> {
        let z = two_sided_z(level)?;
        let counts = self.counts.map(|c| c as f64);
        let n: f64 = counts.iter().sum();
        if n == 0.0 {
            return None;
        }
        let x = |i: usize| i as f64 / 4.0;
        let score = counts
            .iter()
            .enumerate()
            .map(|(i, c)| c * x(i))
            .sum::<f64>()
            / n;
        let one_cell = counts.iter().filter(|&&c| c > 0.0).count() == 1;
        let var = if one_cell {
            0.0
        } else {
            counts
                .iter()
                .enumerate()
                .map(|(i, c)| c * (x(i) - score) * (x(i) - score))
                .sum::<f64>()
                / n
        };
        let pair_sd = var.sqrt();
        let se = pair_sd / n.sqrt();
        let score_lo = (score - z * se).clamp(0.0, 1.0);
        let score_hi = (score + z * se).clamp(0.0, 1.0);
        Some(EloEstimate {
            pairs: self.pairs(),
            score,
            pair_sd,
            score_lo,
            score_hi,
            elo: elo_from_score(score),
            elo_lo: elo_from_score(score_lo),
            elo_hi: elo_from_score(score_hi),
            los: (se > 0.0).then(|| normal_sf((0.5 - score) / se)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use PairOutcome::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs().max(1e-300)
    }

    #[test]
    fn pairs_fall_in_the_right_cells() {
        let p = Pentanomial::from_pairs([
            (Loss, Loss),
            (Loss, Draw),
            (Draw, Loss),
            (Draw, Draw),
            (Win, Loss),
            (Loss, Win),
            (Win, Draw),
            (Win, Win),
        ]);
        assert_eq!(p.counts, [1, 2, 3, 1, 1]);
        assert_eq!(p.pairs(), 8);
    }

    #[test]
    fn estimate_by_hand() {
        // [1, 1, 3, 4, 1]: s = 5.75/10 = 0.575, σ² = 0.75625/10, Elo(0.575) = 52.5116.
        let e = Pentanomial {
            counts: [1, 1, 3, 4, 1],
        }
        .elo_estimate(0.95)
        .unwrap();
        assert_eq!(e.pairs, 10);
        assert!(close(e.score, 0.575, 1e-15));
        assert!(close(e.pair_sd, 0.075_625f64.sqrt(), 1e-14));
        assert!(close(e.elo, 52.511_565_855_727_54, 1e-12));
        assert!(close(e.elo_lo, -67.144_646_709_185_57, 1e-9));
        assert!(close(e.elo_hi, 186.652_339_027_402, 1e-9));
        assert!(close(e.los.unwrap(), 0.805_777_105_989_588_2, 1e-9));
        // Symmetric [1, 2, 4, 2, 1]: s = ½, Elo 0 ± 122.818.
        let e = Pentanomial {
            counts: [1, 2, 4, 2, 1],
        }
        .elo_estimate(0.95)
        .unwrap();
        assert_eq!(e.elo, 0.0);
        assert!(close(e.error(), 122.818_423_864_861_2, 1e-9));
        assert!(close(e.los.unwrap(), 0.5, 1e-15));
    }

    #[test]
    fn edge_cases() {
        assert_eq!(Pentanomial::default().elo_estimate(0.95), None);
        let all_wins = Pentanomial::from_pairs([(Win, Win); 5])
            .elo_estimate(0.95)
            .unwrap();
        assert_eq!((all_wins.score, all_wins.pair_sd), (1.0, 0.0));
        assert_eq!(
            (all_wins.elo, all_wins.elo_lo, all_wins.elo_hi),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        assert_eq!((all_wins.los, all_wins.error()), (None, f64::INFINITY));
        let all_losses = Pentanomial {
            counts: [3, 0, 0, 0, 0],
        }
        .elo_estimate(0.95)
        .unwrap();
        assert_eq!(all_losses.elo, f64::NEG_INFINITY);
        // Nearly all wins: the interval reaches 1, its top end is +∞.
        let e = Pentanomial {
            counts: [0, 0, 0, 1, 3],
        }
        .elo_estimate(0.95)
        .unwrap();
        assert!(e.elo.is_finite() && e.elo_lo.is_finite());
        assert_eq!((e.score_hi, e.elo_hi), (1.0, f64::INFINITY));
        assert_eq!(elo_from_score(0.5), 0.0);
        assert!(elo_from_score(1.5).is_nan());
    }
}
