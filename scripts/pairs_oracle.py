#!/usr/bin/env python3
"""Independent oracle for `pgn960 stats --pairs [--engine NAME]`: reads PGN files with
python-chess, pairs the counted games by the rule docs/stats.md gives, and prints JSON:

    {"unpaired_games": n, "other_pairs": n,
     "rows": [{"players": [A, B], "sp": "518", "counts": [LL, LD, DD+WL, WD, WW],
               "score": s, "elo": e, "elo_lo": lo, "elo_hi": hi}, ...,
              {"players": [A, B], "sp": "total", ...}, ...next match...]}

Usage: pairs_oracle.py [--engine NAME] FILE...

Counted games: python-chess reads them without errors, they start from a Chess960 start
position and have a decisive or drawn Result. The rule: a game pairs with the earliest
unpaired game among the 1024 counted before it with the same SP and the two players with
colours swapped. Each pairing of two players is a match (in the order of its first pair):
A is the White of the first game of its first pair, or NAME with --engine (pairs without
NAME are "other pairs"). The Elo interval is computed per game as fishtest writes it (2N
games, variance of the pair's points about twice the mean), not along the Rust code's
route, with half a pair added to each of the five counts for the variance only (the
Jeffreys prior docs/stats.md gives). Infinite numbers as "inf"/"-inf".
Needs: pip install chess scipy
"""
import json
import math
import sys

import chess.pgn
from scipy import stats

WINDOW = 1024


def enc(x):
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def elo(s):
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def estimate(players, sp, r):
    pairs = sum(r)
    games = 2 * pairs
    mu = sum(r[i] * (i / 2.0) for i in range(5)) / games
    prior = [c + 0.5 for c in r]
    prior_games = 2 * sum(prior)
    prior_mu = sum(prior[i] * (i / 2.0) for i in range(5)) / prior_games
    var = sum(prior[i] * (i / 2.0 - 2.0 * prior_mu) ** 2 for i in range(5)) / prior_games
    se = math.sqrt(var / games)
    z = stats.norm.ppf(0.975)
    lo, hi = min(max(mu - z * se, 0.0), 1.0), min(max(mu + z * se, 0.0), 1.0)
    return {"players": list(players), "sp": sp, "counts": r, "score": mu, "elo": enc(elo(mu)),
            "elo_lo": enc(elo(lo)), "elo_hi": enc(elo(hi))}


def main(args):
    engine = None
    if args[:1] == ["--engine"]:
        engine, args = args[1], args[2:]
    games = []
    for path in args:
        with open(path, encoding="utf-8", errors="replace") as f:
            while (game := chess.pgn.read_game(f)) is not None:
                if game.errors:
                    continue
                sp = game.board().chess960_pos(ignore_castling=True)
                result = game.headers.get("Result", "*")
                if sp is None or result not in ("1-0", "1/2-1/2", "0-1"):
                    continue
                games.append((sp, game.headers.get("White", "").strip(),
                              game.headers.get("Black", "").strip(), result))
    pending, matches, other = [], {}, 0
    unpaired = 0
    for i, g in enumerate(games):
        kept = [(j, p) for j, p in pending if j + WINDOW >= i]
        unpaired += len(pending) - len(kept)
        pending = kept
        match = next((k for k, (j, p) in enumerate(pending)
                      if p[0] == g[0] and p[1] == g[2] and p[2] == g[1]), None)
        if match is None:
            pending.append((i, g))
            continue
        first = pending.pop(match)[1]
        if engine is None:
            players = (first[1], first[2])
        elif engine in (first[1], first[2]):
            players = (engine, first[2] if first[1] == engine else first[1])
        else:
            other += 1
            continue
        # dicts keep insertion order: matches in the order of their first pair
        key = frozenset(players)
        matches.setdefault(key, (players, []))[1].append((first, g))
    unpaired += len(pending)

    def points(player, g):
        if g[3] == "1/2-1/2":
            return 1
        white_won = g[3] == "1-0"
        return 2 if white_won == (g[1] == player) else 0

    rows = []
    for players, pairs in matches.values():
        by_sp = {}
        for first, second in pairs:
            cell = by_sp.setdefault(first[0], [0] * 5)
            cell[points(players[0], first) + points(players[0], second)] += 1
        rows += [estimate(players, str(sp), r) for sp, r in sorted(by_sp.items())]
        total = [sum(r[i] for r in by_sp.values()) for i in range(5)]
        rows.append(estimate(players, "total", total))
    json.dump({"unpaired_games": unpaired, "other_pairs": other, "rows": rows}, sys.stdout)
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
