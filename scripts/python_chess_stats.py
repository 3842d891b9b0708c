#!/usr/bin/env python3
"""The python-chess oracle for `pgn960 stats`: reads PGN files with python-chess and prints
per-SP counts of Chess960 games from a start position, as CSV:

    [key columns,]sp,games,white_wins,draws,black_wins,eval_games,eval_ply10_games,
    eval_ply10_centipawns,eval_ply20_games,eval_ply20_centipawns

A game counts when python-chess reads it without errors, it starts from a Chess960 start
position (`Board.chess960_pos()`), is marked Chess960 (or does not start from SP 518), and
has a decisive or drawn Result. Evaluations are python-chess's `node.eval()` on the main
line, from white's view, in centipawns, a mate as +-1000 and anything beyond +-1000 capped.

With `--by KEY[,KEY]` (time-control, month, year, rating-band, event, white, black) and
`--band-width N` (default 200), the counts are cut by those keys, written first, 960 rows
per combination present, ordered as pgn960 documents it: an unknown value (empty) first,
speeds fastest first, months, years and bands ascending, names in code-point order.
Computed here from the tags without pgn960's code. Needs `pip install chess`.
"""
import argparse
import csv
import sys
from collections import defaultdict

import chess
import chess.pgn

SPEEDS = ["ultra-bullet", "bullet", "blitz", "rapid", "classical"]
COLUMNS = {
    "time-control": "time_control",
    "month": "month",
    "year": "year",
    "rating-band": "rating_band",
    "event": "event",
    "white": "white",
    "black": "black",
}


def speed(tc):
    """(order, label) of a TimeControl value by lichess's boundaries."""
    tc = (tc or "").strip()
    if tc == "-":
        return (5, "classical")
    try:
        base, inc = tc.split("+") if "+" in tc else (tc, "0")
        seconds = int(base) + 40 * int(inc)
    except ValueError:
        return (0, "")
    for i, limit in enumerate([30, 180, 480, 1500]):
        if seconds < limit:
            return (i + 1, SPEEDS[i])
    return (5, "classical")


def date(headers):
    for name in ("UTCDate", "Date"):
        parts = headers.get(name, "").replace("-", ".").replace("/", ".").split(".")
        try:
            y, m, d = (int(p) for p in parts)
        except ValueError:
            continue
        if 1 <= m <= 12 and 1 <= d <= 31:
            return y, m
    return None


def key_value(key, headers, width):
    """(sort order, label) of one key for a game."""
    if key == "time-control":
        return speed(headers.get("TimeControl"))
    if key in ("month", "year"):
        ym = date(headers)
        if ym is None:
            return ((0,), "")
        if key == "year":
            return ((1, ym[0]), f"{ym[0]:04d}")
        return ((1, ym[0], ym[1]), f"{ym[0]:04d}-{ym[1]:02d}")
    if key == "rating-band":
        try:
            w, b = int(headers["WhiteElo"].strip()), int(headers["BlackElo"].strip())
        except (KeyError, ValueError):
            return ((0,), "")
        lo = (w + b) // 2 // width * width
        return ((1, lo), f"{lo}-{lo + width - 1}")
    tag = {"event": "Event", "white": "White", "black": "Black"}[key]
    text = headers.get(tag, "").strip()
    return ((1, text.encode()), text) if text else ((0,), "")


def evals(game):
    """(any eval, cp after ply 10, cp after ply 20) on the main line."""
    found, at = False, {}
    for node in game.mainline():
        score = node.eval()
        if score is None:
            continue
        found = True
        white = score.white()
        if white.is_mate():
            cp = 1000 if white.mate() > 0 else -1000
        else:
            cp = max(-1000, min(1000, white.score()))
        at[node.ply()] = cp
    return found, at.get(10), at.get(20)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--by", default="")
    ap.add_argument("--band-width", type=int, default=200)
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()
    keys = [k for k in args.by.split(",") if k]
    counts = defaultdict(lambda: [0] * 9)
    labels = {}
    for path in args.paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                if game.errors:
                    continue
                board = game.board()
                sp = board.chess960_pos(ignore_castling=True)
                if sp is None:
                    continue
                variant = game.headers.get("Variant", "").lower()
                marked = "960" in variant or "fischer" in variant
                if sp == 518 and not marked:
                    continue
                result = game.headers.get("Result", "*")
                if result not in ("1-0", "1/2-1/2", "0-1"):
                    continue
                values = [key_value(k, game.headers, args.band_width) for k in keys]
                cell = tuple(v[0] for v in values)
                labels[cell] = [v[1] for v in values]
                row = counts[(cell, sp)]
                row[0] += 1
                row[{"1-0": 1, "1/2-1/2": 2, "0-1": 3}[result]] += 1
                found, e10, e20 = evals(game)
                row[4] += found
                if e10 is not None:
                    row[5] += 1
                    row[6] += e10
                if e20 is not None:
                    row[7] += 1
                    row[8] += e20
    header = [COLUMNS[k] for k in keys] + [
        "sp", "games", "white_wins", "draws", "black_wins", "eval_games",
        "eval_ply10_games", "eval_ply10_centipawns", "eval_ply20_games",
        "eval_ply20_centipawns",
    ]
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(header)
    cells = sorted(labels) if keys else [()]
    for cell in cells:
        for sp in range(960):
            row = counts[(cell, sp)] if (cell, sp) in counts else [0] * 9
            fields = labels.get(cell, []) + [str(sp)] + [str(x) for x in row]
            out.writerow(fields)


if __name__ == "__main__":
    main()
