#!/usr/bin/env python3
"""The python-chess oracle and held-out measurement of start-position recovery.

    recover_oracle.py PGN960 WORKDIR INPUT.pgn... [--limit N] [--threads N]

Reads the games of each INPUT with python-chess (Chess960 where tagged) and keeps those it
reads without error and whose start is a Chess960 start position; writes them to
WORKDIR/masked.pgn with every FEN tag's value replaced by `?` (and a `[Variant "Chess960"]`
tag); runs `PGN960 clean` on it; then checks every game pgn960 kept against python-chess:
its start (python-chess `Board.fen()` of the written FEN) must be the original start, and
its main line (UCI) must replay identically from it in python-chess. Prints one JSON object:
games, recovered, assumed, ambiguous (with the truth among the named candidates or not
named), unknown, other rejections, wrong starts, replay mismatches, seconds, games/s.
Needs `pip install chess`.
"""
import argparse
import collections
import io
import json
import re
import subprocess
import sys
import time

import chess
import chess.pgn

FEN_TAG = re.compile(r'^\[FEN "[^"]*"\]\s*$', re.MULTILINE)
VARIANT_TAG = re.compile(r'^\[Variant "[^"]*"\]\s*$', re.MULTILINE)


def games_of(path, limit):
    """(original text, start fen, uci moves) of each game python-chess reads cleanly."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    handle = io.StringIO(text)
    out = []
    while limit is None or len(out) < limit:
        start = handle.tell()
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        chunk = text[start:handle.tell()]
        if game.errors or "[FEN" not in chunk:
            continue
        board = game.board()
        if board.chess960_pos() is None:
            continue
        moves = [m.uci() for m in game.mainline_moves()]
        out.append((chunk.strip(), board.fen(), moves))
    return out


def masked(chunk):
    """The game with its start hidden: FEN `?`, tagged Chess960."""
    chunk = FEN_TAG.sub('[FEN "?"]', chunk)
    chunk = VARIANT_TAG.sub('[Variant "Chess960"]', chunk)
    if "[Variant " not in chunk:
        chunk = '[Variant "Chess960"]\n' + chunk
    return chunk + "\n\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn960")
    ap.add_argument("workdir")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--limit", type=int, default=None, help="games per input")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--assume-sp", default=None)
    args = ap.parse_args()
    originals = []
    for path in args.inputs:
        originals.extend(games_of(path, args.limit))
    masked_path = f"{args.workdir}/masked.pgn"
    with open(masked_path, "w", encoding="utf-8") as f:
        for chunk, _, _ in originals:
            f.write(masked(chunk))
    out_path, rejects = f"{args.workdir}/out.pgn", f"{args.workdir}/rejects.pgn"
    command = [args.pgn960, "--no-progress", "-q", "-j", args.threads, "clean",
               masked_path, "-o", out_path, "--rejects", rejects]
    if args.assume_sp is not None:
        command += ["--assume-sp", args.assume_sp]
    began = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if run.returncode not in (0, 1):
        sys.exit(f"pgn960 failed: {run.stderr}")
    rejected = {}
    with open(rejects[:-4] + ".tsv", encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            row = dict(zip(header, line.rstrip("\n").split("\t")))
            rejected[int(row["game"])] = row
    counts = collections.Counter()
    kept = open(out_path, encoding="utf-8")
    for index, (_, start_fen, moves) in enumerate(originals, start=1):
        if index in rejected:
            row = rejected[index]
            reason = row["reason"]
            counts[reason] += 1
            if reason == "start-ambiguous":
                truth = chess.Board(start_fen, chess960=True).chess960_pos()
                named = re.search(r"SP ([0-9, ]+)", row["detail"])
                sps = {int(s) for s in named.group(1).split(",") if s.strip()} if named else set()
                counts["ambiguous, truth named" if truth in sps else "ambiguous, truth not named"] += 1
            continue
        game = chess.pgn.read_game(kept)
        if game is None:
            counts["missing from the output"] += 1
            break
        counts["kept"] += 1
        if game.board().fen() != start_fen:
            counts["wrong start"] += 1
        if game.errors or [m.uci() for m in game.mainline_moves()] != moves:
            counts["replay mismatch"] += 1
    summary = {
        "games": len(originals),
        "kept": counts["kept"],
        "ambiguous": counts["start-ambiguous"],
        "ambiguous_truth_named": counts["ambiguous, truth named"],
        "ambiguous_truth_not_named": counts["ambiguous, truth not named"],
        "unknown": counts["unknown-start-position"],
        "other_rejected": sum(n for r, n in counts.items()
                              if r not in ("kept", "start-ambiguous", "unknown-start-position")
                              and not r.startswith("ambiguous,") and r not in
                              ("wrong start", "replay mismatch", "missing from the output")),
        "wrong_start": counts["wrong start"],
        "replay_mismatch": counts["replay mismatch"],
        "missing": counts["missing from the output"],
        "seconds": round(seconds, 3),
        "games_per_second": round(len(originals) / seconds, 1) if seconds else None,
        "summary": run.stderr.strip().splitlines(),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
