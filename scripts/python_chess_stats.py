#!/usr/bin/env python3
"""The python-chess oracle for `pgn960 stats`: reads PGN files with python-chess and prints
per-SP counts of Chess960 games from a start position, as CSV:

    sp,games,white_wins,draws,black_wins

A game counts when python-chess reads it without errors, it starts from a Chess960 start
position (`Board.chess960_pos()`), is marked Chess960 (or does not start from SP 518), and
has a decisive or drawn Result. Needs `pip install chess`.
"""
import sys
from collections import defaultdict

import chess
import chess.pgn


def main(paths):
    counts = defaultdict(lambda: [0, 0, 0, 0])
    for path in paths:
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
                marked = "960" in game.headers.get("Variant", "").lower() or "fischer" in game.headers.get("Variant", "").lower()
                if sp == 518 and not marked:
                    continue
                result = game.headers.get("Result", "*")
                row = counts[sp]
                if result == "1-0":
                    row[1] += 1
                elif result == "1/2-1/2":
                    row[2] += 1
                elif result == "0-1":
                    row[3] += 1
                else:
                    continue
                row[0] += 1
    print("sp,games,white_wins,draws,black_wins")
    for sp in range(960):
        g, w, d, b = counts[sp]
        print(f"{sp},{g},{w},{d},{b}")


if __name__ == "__main__":
    main(sys.argv[1:])
