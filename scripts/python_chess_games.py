#!/usr/bin/env python3
"""The python-chess oracle for `pgn960 check/clean`: reads PGN files with
`chess.pgn.read_game` and prints one TSV row per game:

    file  index  ok  start_xfen  plies

`ok` is 1 when python-chess read the game without errors, `start_xfen` is
`game.board().fen()` of the start position (python-chess X-FEN), `plies` the main-line
length. Needs `pip install chess`.
"""
import sys

import chess.pgn


def main(paths):
    out = sys.stdout
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            index = 0
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                index += 1
                try:
                    fen = game.board().fen()
                except Exception:  # noqa: BLE001 - an unreadable start is an error row
                    fen = "-"
                ok = 0 if game.errors else 1
                plies = sum(1 for _ in game.mainline_moves()) if ok else 0
                out.write(f"{path}\t{index}\t{ok}\t{fen}\t{plies}\n")


if __name__ == "__main__":
    main(sys.argv[1:])
