#!/usr/bin/env python3
"""Independent oracle for batch/src/stats/significance.rs and pentanomial.rs.

Reads JSON (a file argument, or standard input):

    {"tables": [{"name": str, "rows": [[white_wins, draws, black_wins], ...],
                 "level": 0.95, "funnel_ns": [n, ...]}, ...],
     "pentanomials": [{"name": str, "counts": [LL, LD, DD+WL, WD, WW], "level": 0.95}, ...]}

and prints JSON with, per table: the pooled score and per-game sd, per row z, p, the
method ("exact" or "normal") and the Benjamini-Hochberg q (statsmodels multipletests
fdr_bh), Pearson's chi-square homogeneity test (scipy chi2_contingency, no continuity
correction; when Cochran's rule fails, a permutation p-value from this script's own
numpy permutations, with its Monte Carlo standard error `p_se`), the verdict flag (and
`differs_undecided` when a permutation p-value is too close to 0.05 for two Monte Carlo
runs to agree), the funnel band for each n; per pentanomial: score, pair sd, score and
Elo interval, LOS.

The per-row rule (as documented in docs/stats.md): the normal z-test when every outcome
that occurs is expected at least MIN_EXPECTED times among the row's games and among the
others; otherwise the exact conditional test: the row's W/D/L is a multivariate
hypergeometric draw of its n games from the table's totals (scipy.stats.multivariate_hypergeom,
or exact integer arithmetic with math.comb when the table has more than a million games,
where scipy's log-gamma route loses precision), p = P(|h - E h| >= |h_obs - E h|) for the
half points h = 2W + D. The exact band of the funnel: the scores whose exact p >= 1 - level.

Computed along other routes than the Rust code: a row is tested against the *other* rows
(two-sample z-test with pooled variance, which the Rust code reaches from the pooled mean
with a finite-population factor), the variance comes from the expanded per-game scores,
the funnel from scipy.stats.norm.interval, the pentanomial variance per game as fishtest
writes it, over the counts with half a pair added to each cell (the Jeffreys prior). Non-finite numbers are written as the strings "inf", "-inf", "nan"; a missing
value is null.

Needs: pip install scipy statsmodels
"""

import json
import math
import sys

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests

ALPHA = 0.05
MIN_EXPECTED = 10.0
PERMUTATIONS = 4000


def normal_holds(n, col):
    total = sum(col)
    return all(n * c / total >= MIN_EXPECTED and (total - n) * c / total >= MIN_EXPECTED
               for c in col if c > 0)


def half_point_law(n, col):
    """{h: P(h)} of the half points of n games drawn from the table's W/D/L totals."""
    total = int(sum(col))
    law = {}
    small = total <= 1_000_000
    denominator = math.comb(total, n)
    for w in range(0, min(col[0], n) + 1):
        for d in range(0, min(col[1], n - w) + 1):
            l = n - w - d
            if l > col[2]:
                continue
            if small:
                pr = float(stats.multivariate_hypergeom.pmf([w, d, l], m=list(col), n=n))
            else:
                pr = math.comb(col[0], w) * math.comb(col[1], d) * math.comb(col[2], l) / denominator
            law[2 * w + d] = law.get(2 * w + d, 0.0) + pr
    return law


def exact_p(law, mean, h):
    distance = abs(h - mean)
    tolerance = 1e-9 * max(distance, 1.0)
    return min(1.0, sum(pr for x, pr in law.items() if abs(x - mean) >= distance - tolerance))


def permutation_chi2_p(t, observed):
    """Monte Carlo permutation p of Pearson's statistic: results shuffled over games."""
    rng = np.random.default_rng(20261126)
    sizes = t.sum(axis=1)
    deck = np.repeat(np.arange(t.shape[1]), t.sum(axis=0))
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    expected = np.outer(sizes, t.sum(axis=0)) / t.sum()
    at_least = 0
    for _ in range(PERMUTATIONS):
        perm = rng.permutation(deck)
        table = np.zeros_like(t)
        rows = np.repeat(np.arange(len(sizes)), sizes)
        np.add.at(table, (rows, perm), 1)
        chi2 = ((table - expected) ** 2 / expected).sum()
        at_least += chi2 >= observed - 1e-9 * max(observed, 1.0)
    p = (1 + at_least) / (1 + PERMUTATIONS)
    return p, math.sqrt(p * (1 - p) / PERMUTATIONS)


def enc(x):
    """A float for JSON: non-finite values as strings, None as null."""
    if x is None:
        return None
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def table(case):
    rows = np.array(case["rows"], dtype=np.int64).reshape(-1, 3)
    n = rows.sum(axis=1)
    total = int(n.sum())
    points = rows[:, 0] + 0.5 * rows[:, 1]
    out = {"name": case["name"]}

    # Pooled mean and per-game variance from the expanded scores (small tables) or from
    # weighted moments (big ones).
    if total == 0:
        mean, sd = None, 0.0
    else:
        col = rows.sum(axis=0)
        if total <= 2_000_000:
            scores = np.repeat([1.0, 0.5, 0.0], col)
            mean, var = float(scores.mean()), float(scores.var())
        else:
            mean = float(np.average([1.0, 0.5, 0.0], weights=col))
            var = float(np.average((np.array([1.0, 0.5, 0.0]) - mean) ** 2, weights=col))
        sd = math.sqrt(var)
    out["pooled"] = {"score": enc(mean), "sd": enc(sd)}

    # Per row: two-sample z-test of the row against all other rows, pooled variance, where
    # the normal approximation holds; else the exact conditional test.
    col = [int(c) for c in rows.sum(axis=0)] if total else [0, 0, 0]
    laws = {}
    z, p, method = [], [], []
    for i in range(len(rows)):
        ni = int(n[i])
        if ni == 0 or ni == total:
            z.append(None)
            p.append(None)
            method.append(None)
            continue
        if sd == 0.0:
            zi = 0.0
        else:
            s_i = points[i] / ni
            s_rest = (points.sum() - points[i]) / (total - ni)
            zi = (s_i - s_rest) / (sd * math.sqrt(1.0 / ni + 1.0 / (total - ni)))
        z.append(zi)
        if sd == 0.0:
            p.append(1.0)
            method.append("exact")
        elif normal_holds(ni, col):
            p.append(2.0 * stats.norm.sf(abs(zi)))
            method.append("normal")
        else:
            if ni not in laws:
                laws[ni] = half_point_law(ni, col)
            mean_h = ni * (2 * col[0] + col[1]) / total
            p.append(exact_p(laws[ni], mean_h, int(2 * rows[i, 0] + rows[i, 1])))
            method.append("exact")
    present = [i for i, x in enumerate(p) if x is not None]
    q = [None] * len(p)
    if present:
        qs = multipletests([p[i] for i in present], method="fdr_bh")[1]
        for i, qi in zip(present, qs):
            q[i] = qi
    out["z"] = [enc(x) for x in z]
    out["p"] = [enc(x) for x in p]
    out["q"] = [enc(x) for x in q]
    out["method"] = method

    # Homogeneity: zero rows and columns dropped.
    t = rows[n > 0][:, rows.sum(axis=0) > 0]
    if t.shape[0] < 2 or t.shape[1] < 2:
        homogeneity = None
    else:
        chi2, hp, dof, expected = stats.chi2_contingency(t, correction=False)
        cochran = expected.min() >= 1.0 and (expected < 5).sum() * 5 <= expected.size
        p_se = None
        if not cochran:
            hp, p_se = permutation_chi2_p(t, chi2)
        homogeneity = {
            "chi2": enc(chi2),
            "df": int(dof),
            "p": enc(hp),
            "p_se": enc(p_se),
            "method": "chi-square" if cochran else "permutation",
            "rows": int(t.shape[0]),
            "outcomes": int(t.shape[1]),
            "min_expected": enc(expected.min()),
            "cells_below_5": int((expected < 5).sum()),
        }
    out["homogeneity"] = homogeneity
    min_q = min((x for x in q if x is not None), default=None)
    out["differs"] = bool(
        (homogeneity is not None and homogeneity["p"] < ALPHA)
        or (min_q is not None and min_q < ALPHA)
    )
    # A permutation p this close to 0.05 may fall on either side in another Monte Carlo run
    # (the Rust run has fewer permutations: allow for both errors).
    out["differs_undecided"] = bool(
        homogeneity is not None
        and homogeneity["p_se"] is not None
        and abs(homogeneity["p"] - ALPHA) < 4.5 * math.sqrt(2) * max(homogeneity["p_se"], 0.005)
        and not (min_q is not None and min_q < ALPHA)
    )

    # Funnel of chance.
    level = case.get("level", 0.95)
    bands = []
    for m in case.get("funnel_ns", []):
        if mean is None or m == 0:
            bands.append(None)
            continue
        if m < total and sd > 0.0 and not normal_holds(m, col):
            law = half_point_law(m, col)
            mean_h = m * (2 * col[0] + col[1]) / total
            inside = sorted(h for h in law if law[h] > 0 and exact_p(law, mean_h, h) >= 1 - level)
            bands.append([enc(inside[0] / (2 * m)), enc(inside[-1] / (2 * m))])
            continue
        scale = sd * math.sqrt(max(0.0, 1.0 / m - 1.0 / total))
        if scale == 0.0:
            lo = hi = mean
        else:
            lo, hi = stats.norm.interval(level, loc=mean, scale=scale)
        bands.append([enc(min(max(lo, 0.0), 1.0)), enc(min(max(hi, 0.0), 1.0))])
    out["funnel"] = bands
    return out


def elo(x):
    with np.errstate(divide="ignore"):
        return float(-400.0 * np.log10(np.float64(1.0) / np.float64(x) - 1.0))


def pentanomial(case):
    r = [int(c) for c in case["counts"]]
    pairs = sum(r)
    if pairs == 0:
        return None
    # Per game, as fishtest writes it: 2N games, mean score per game, variance per game of
    # the pair's points about twice the mean; the mean's standard error is sqrt(var/games).
    # The interval's variance is that of the counts with half a pair added to each cell
    # (the Jeffreys prior of pentanomial.rs); the score and pair_sd are the observed ones.
    games = 2 * pairs
    mu = sum(r[i] * (i / 2.0) for i in range(5)) / games
    var = sum(r[i] * (i / 2.0 - 2.0 * mu) ** 2 for i in range(5)) / games
    prior = [c + 0.5 for c in r]
    prior_games = 2 * sum(prior)
    prior_mu = sum(prior[i] * (i / 2.0) for i in range(5)) / prior_games
    prior_var = sum(prior[i] * (i / 2.0 - 2.0 * prior_mu) ** 2 for i in range(5)) / prior_games
    se = math.sqrt(prior_var / games)
    zq = stats.norm.ppf(0.5 + case.get("level", 0.95) / 2.0)
    lo = min(max(mu - zq * se, 0.0), 1.0)
    hi = min(max(mu + zq * se, 0.0), 1.0)
    return {
        "name": case["name"],
        "pairs": pairs,
        "score": enc(mu),
        "pair_sd": enc(math.sqrt(var / 2.0)),
        "score_lo": enc(lo),
        "score_hi": enc(hi),
        "elo": enc(elo(mu)),
        "elo_lo": enc(elo(lo)),
        "elo_hi": enc(elo(hi)),
        "los": enc(stats.norm.cdf((mu - 0.5) / se)) if se > 0 else None,
    }


def main():
    data = json.load(open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin)
    out = {
        "tables": [table(c) for c in data.get("tables", [])],
        "pentanomials": [pentanomial(c) for c in data.get("pentanomials", [])],
    }
    json.dump(out, sys.stdout, allow_nan=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
