#!/usr/bin/env python3
"""The python-chess oracle for `pgn960 xfen`: for each line of a FEN/EPD list, prints
python-chess's X-FEN (`Board.fen()`) or Shredder-FEN (`Board.shredder_fen()`) of the
position with `chess960=True`, with the same number of FEN fields as the input (4 or 6)
and the rest of the line unchanged. Usage: python_chess_fens.py xfen|shredder FILE.
Needs `pip install chess`."""
import re
import sys

import chess

mode, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8", newline="") as f:
    for raw in f:
        line = raw.rstrip("\r\n")
        ending = raw[len(line):]
        if not line.strip() or line.lstrip().startswith("#"):
            sys.stdout.write(raw)
            continue
        spans = [m.span() for m in re.finditer(r"\S+", line)]
        fields = [line[a:b] for a, b in spans]
        n = 6 if len(fields) >= 6 and fields[4].isdigit() and fields[5].isdigit() else min(4, len(fields))
        board = chess.Board(" ".join(fields[:n]), chess960=True)
        fen = board.fen() if mode == "xfen" else board.shredder_fen()
        fen = " ".join(fen.split(" ")[:n]) if n < 6 else fen
        sys.stdout.write(line[: spans[0][0]] + fen + line[spans[n - 1][1]:] + ending)
