#!/usr/bin/env python3
"""CPU time of ``pgn960.to_arrow`` against python-chess's ``read_game`` replay (and
``rust_pgn_reader_python_binding`` when installed) on one PGN file; not a test.

    pip install ./python chess
    python3 benches/python_vs_python_chess.py [../shared/data/corpus/lichess-style-4000.pgn]

CPU time is the process's (all threads), so a parallel run is not flattered by its wall
time; take several runs on a loaded machine.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pgn960

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared/data/corpus/lichess-style-4000.pgn"


def cpu(f, repeat: int) -> tuple[float, object]:
    """The least CPU time of ``repeat`` runs of ``f``, and its result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = f()
        best = min(best, time.process_time() - start)
    return best, result


def python_chess(path: Path) -> int:
    import chess.pgn

    games = 0
    with open(path, encoding="utf-8", errors="replace") as f:
        while (game := chess.pgn.read_game(f)) is not None:
            board = game.board()
            for move in game.mainline_moves():
                board.push(move)
            games += 1
    return games


def split_games(path: Path) -> list[str]:
    """The file cut into one string per game, as ``rust_pgn_reader_python_binding`` wants
    its input (it reads a list or an Arrow array of games, not a file): at each blank line
    followed by a tag, which is where this corpus's games begin."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return [g for g in re.split(r"\n\n(?=\[)", text) if g.strip()]


def rust_pgn_reader(games: list[str]):
    import rust_pgn_reader_python_binding as r  # PyPI, optional

    return r.parse_games_from_strings(games)


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    ours, table = cpu(lambda: pgn960.to_arrow(str(path)), 5)
    print(f"pgn960.to_arrow:      {ours:8.3f} s CPU  ({table.num_rows} valid games)")
    theirs, games = cpu(lambda: python_chess(path), 1)
    print(f"python-chess replay:  {theirs:8.3f} s CPU  ({games} games)")
    print(f"ratio:                {theirs / ours:8.1f}x")
    try:
        cut, games = cpu(lambda: split_games(path), 3)
        peer, parsed = cpu(lambda: rust_pgn_reader(games), 3)
        print(
            f"rust_pgn_reader_python_binding: {peer:8.3f} s CPU ({len(parsed)} games; "
            f"+ {cut:.3f} s to cut the file into games in Python)"
        )
        print(f"ratio, its parse alone:    {peer / ours:8.2f}x")
        print(f"ratio, with the cutting:   {(peer + cut) / ours:8.2f}x")
    except ImportError:
        print("rust_pgn_reader_python_binding: not installed (pip install it to compare)")


if __name__ == "__main__":
    main()
