#!/usr/bin/env python3
"""Independent oracle for batch/src/stats/significance.rs and pentanomial.rs.

Reads JSON (a file argument, or standard input):

    {"tables": [{"name": str, "rows": [[white_wins, draws, black_wins], ...],
                 "level": 0.95, "funnel_ns": [n, ...]}, ...],
     "pentanomials": [{"name": str, "counts": [LL, LD, DD+WL, WD, WW], "level": 0.95}, ...]}

and prints JSON with, per table: the pooled score and per-game sd, per row z, p and the
Benjamini-Hochberg q (statsmodels multipletests fdr_bh), Pearson's chi-square homogeneity
test (scipy chi2_contingency, no continuity correction), the verdict flag, the funnel band
for each n; per pentanomial: score, pair sd, score and Elo interval, LOS.

Computed along other routes than the Rust code: a row is tested against the *other* rows
(two-sample z-test with pooled variance, which the Rust code reaches from the pooled mean
with a finite-population factor), the variance comes from the expanded per-game scores,
the funnel from scipy.stats.norm.interval, the pentanomial variance per game as fishtest
writes it. Non-finite numbers are written as the strings "inf", "-inf", "nan"; a missing
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

    # Per row: two-sample z-test of the row against all other rows, pooled variance.
    z, p = [], []
    for i in range(len(rows)):
        ni = int(n[i])
        if ni == 0 or ni == total:
            z.append(None)
            p.append(None)
            continue
        if sd == 0.0:
            zi = 0.0
        else:
            s_i = points[i] / ni
            s_rest = (points.sum() - points[i]) / (total - ni)
            zi = (s_i - s_rest) / (sd * math.sqrt(1.0 / ni + 1.0 / (total - ni)))
        z.append(zi)
        p.append(2.0 * stats.norm.sf(abs(zi)))
    present = [i for i, x in enumerate(p) if x is not None]
    q = [None] * len(p)
    if present:
        qs = multipletests([p[i] for i in present], method="fdr_bh")[1]
        for i, qi in zip(present, qs):
            q[i] = qi
    out["z"] = [enc(x) for x in z]
    out["p"] = [enc(x) for x in p]
    out["q"] = [enc(x) for x in q]

    # Homogeneity: zero rows and columns dropped.
    t = rows[n > 0][:, rows.sum(axis=0) > 0]
    if t.shape[0] < 2 or t.shape[1] < 2:
        homogeneity = None
    else:
        chi2, hp, dof, expected = stats.chi2_contingency(t, correction=False)
        homogeneity = {
            "chi2": enc(chi2),
            "df": int(dof),
            "p": enc(hp),
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

    # Funnel of chance.
    level = case.get("level", 0.95)
    bands = []
    for m in case.get("funnel_ns", []):
        if mean is None or m == 0:
            bands.append(None)
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
    games = 2 * pairs
    mu = sum(r[i] * (i / 2.0) for i in range(5)) / games
    var = sum(r[i] * (i / 2.0 - 2.0 * mu) ** 2 for i in range(5)) / games
    se = math.sqrt(var / games)
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
