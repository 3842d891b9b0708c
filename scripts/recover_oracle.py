#!/usr/bin/env python3
"""The python-chess oracle and held-out measurement of start-position recovery.

    recover_oracle.py PGN960 WORKDIR INPUT.pgn... [--limit N] [--threads N]
        [--variant-tag VALUE] [--variant VARIANT] [--assume-sp SP]
        [--starts chess960|double|all] [--exhaustive N]

Reads the games of each INPUT with python-chess (Chess960 where tagged) and keeps those it
reads without error and whose start is a Chess960 start position or a Double Chess960 one
(each side a Chess960 back rank of its own; `--starts` keeps one kind), with full castling
rights; writes them to WORKDIR/masked.pgn with every
FEN tag's value replaced by `?` (and a `[Variant "Chess960"]` tag, or `--variant-tag`'s
value); runs `PGN960 clean` on it (with `--variant VARIANT`, e.g. `double-chess960`, and
`--assume-sp SP` when given); then checks every game pgn960 kept against python-chess:
its start (python-chess `Board.fen()` of the written FEN) must be the original start, and
its main line (UCI) must replay identically from it in python-chess. Prints one JSON object:
games (and how many of them start from a Double Chess960 pair), recovered, assumed,
ambiguous (with the truth among the named candidates or not named), unknown, other
rejections, wrong starts, replay mismatches, seconds, games/s.

`--exhaustive N`: for the first N games answered with Double Chess960 pairs that pgn960
names all of (one pair recovered, or at most 8 named as ambiguous), python-chess replays
the main line from each of the 921,600 pairs, one by one, and the pairs that fit must be
exactly pgn960's (slow: about a millisecond per pair on a loaded machine).
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


def back_rank(sp):
    """The white back rank of SP `sp`, as `RNBQKBNR`."""
    board = chess.Board.from_chess960_pos(sp)
    return "".join(board.piece_at(chess.square(f, 0)).symbol() for f in range(8))


SP_OF_RANK = {back_rank(sp): sp for sp in range(960)}


def pair_fen(white, black):
    """The X-FEN of the Double Chess960 start (white SP, black SP), full castling rights."""
    w, b = back_rank(white), back_rank(black).lower()
    return f"{b}/pppppppp/8/8/8/8/PPPPPPPP/{w} w KQkq - 0 1"


def start_pair(board):
    """(white SP, black SP) when `board` is a (Double) Chess960 start, else None."""
    if board.turn != chess.WHITE or board.ep_square is not None:
        return None
    ranks = []
    for color, rank, pawns in ((chess.WHITE, 0, 1), (chess.BLACK, 7, 6)):
        pieces = [board.piece_at(chess.square(f, rank)) for f in range(8)]
        pawn_row = [board.piece_at(chess.square(f, pawns)) for f in range(8)]
        if any(p is None or p.color != color for p in pieces):
            return None
        if any(p != chess.Piece(chess.PAWN, color) for p in pawn_row):
            return None
        ranks.append(SP_OF_RANK.get("".join(p.symbol().upper() for p in pieces)))
    if chess.popcount(board.occupied) != 32 or None in ranks:
        return None
    # A start position has its full castling rights.
    if chess.Board(pair_fen(*ranks), chess960=True).fen() != board.fen():
        return None
    return tuple(ranks)


def games_of(path, limit, starts):
    """(original text, start fen, start pair, uci moves) of each game python-chess reads
    cleanly from a Chess960 start (`starts` "chess960"), a Double Chess960 one ("double")
    or either ("all")."""
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
        pair = start_pair(board)
        if pair is None or starts == "chess960" and pair[0] != pair[1]:
            continue
        if starts == "double" and pair[0] == pair[1]:
            continue
        moves = [m.uci() for m in game.mainline_moves()]
        out.append((chunk.strip(), board.fen(), pair, moves))
    return out


def masked(chunk, variant):
    """The game with its start hidden: FEN `?`, tagged `variant`."""
    chunk = FEN_TAG.sub('[FEN "?"]', chunk)
    chunk = VARIANT_TAG.sub(f'[Variant "{variant}"]', chunk)
    if "[Variant " not in chunk:
        chunk = f'[Variant "{variant}"]\n' + chunk
    return chunk + "\n\n"


def named_candidates(detail):
    """The candidates a start-ambiguous message names: SPs as (n, n), or pairs."""
    pairs = re.findall(r"\((\d+), (\d+)\)", detail)
    if pairs:
        return {(int(w), int(b)) for w, b in pairs}
    named = re.search(r"SP ([0-9, ]+)", detail)
    sps = [int(s) for s in named.group(1).split(",") if s.strip()] if named else []
    return {(sp, sp) for sp in sps}


def fitting_pairs(sans):
    """Every (white SP, black SP) from which the SAN moves `sans` replay legally, one by one."""
    out = set()
    for white in range(960):
        for black in range(960):
            board = chess.Board(pair_fen(white, black), chess960=True)
            try:
                for san in sans:
                    board.push_san(san)
            except ValueError:
                continue
            out.add((white, black))
    return out


def sans_of(start_fen, moves):
    """The SAN of each UCI move from `start_fen`."""
    board = chess.Board(start_fen, chess960=True)
    out = []
    for uci in moves:
        move = chess.Move.from_uci(uci)
        out.append(board.san(move))
        board.push(move)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pgn960")
    ap.add_argument("workdir")
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--limit", type=int, default=None, help="games per input")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--assume-sp", default=None)
    ap.add_argument("--variant-tag", default="Chess960")
    ap.add_argument("--variant", default=None, help="pgn960's --variant")
    ap.add_argument("--exhaustive", type=int, default=0)
    ap.add_argument("--starts", choices=("chess960", "double", "all"), default="all")
    args = ap.parse_args()
    originals = []
    for path in args.inputs:
        originals.extend(games_of(path, args.limit, args.starts))
    masked_path = f"{args.workdir}/masked.pgn"
    with open(masked_path, "w", encoding="utf-8") as f:
        for chunk, _, _, _ in originals:
            f.write(masked(chunk, args.variant_tag))
    out_path, rejects = f"{args.workdir}/out.pgn", f"{args.workdir}/rejects.pgn"
    command = [args.pgn960, "--no-progress", "-q", "-j", args.threads, "clean",
               masked_path, "-o", out_path, "--rejects", rejects]
    if args.assume_sp is not None:
        command += ["--assume-sp", args.assume_sp]
    if args.variant is not None:
        command += ["--variant", args.variant]
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
    exhaustive = []
    kept = open(out_path, encoding="utf-8")
    for index, (_, start_fen, pair, moves) in enumerate(originals, start=1):
        counts["double chess960" if pair[0] != pair[1] else "chess960"] += 1
        if index in rejected:
            row = rejected[index]
            reason = row["reason"]
            counts[reason] += 1
            if reason == "start-ambiguous":
                named = named_candidates(row["detail"])
                counts["ambiguous, truth named" if pair in named else "ambiguous, truth not named"] += 1
                if "pairs" in row["detail"] and "…" not in row["detail"]:
                    exhaustive.append((start_fen, moves, named))
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
        kept_pair = start_pair(game.board())
        if kept_pair and kept_pair[0] != kept_pair[1]:
            counts["kept double chess960"] += 1
            exhaustive.append((start_fen, moves, {kept_pair}))
    compared = []
    for start_fen, moves, named in exhaustive[:args.exhaustive]:
        python_pairs = fitting_pairs(sans_of(start_fen, moves))
        compared.append({"plies": len(moves), "pgn960": len(named), "python_chess": len(python_pairs),
                         "equal": python_pairs == named})
    summary = {
        "games": len(originals),
        "double_chess960_starts": counts["double chess960"],
        "kept": counts["kept"],
        "kept_double_chess960": counts["kept double chess960"],
        "ambiguous": counts["start-ambiguous"],
        "ambiguous_truth_named": counts["ambiguous, truth named"],
        "ambiguous_truth_not_named": counts["ambiguous, truth not named"],
        "unknown": counts["unknown-start-position"],
        "other_rejected": sum(n for r, n in counts.items()
                              if r not in ("kept", "start-ambiguous", "unknown-start-position",
                                           "chess960", "double chess960", "kept double chess960")
                              and not r.startswith("ambiguous,") and r not in
                              ("wrong start", "replay mismatch", "missing from the output")),
        "wrong_start": counts["wrong start"],
        "replay_mismatch": counts["replay mismatch"],
        "missing": counts["missing from the output"],
        "exhaustive": compared,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(originals) / seconds, 1) if seconds else None,
        "summary": run.stderr.strip().splitlines(),
    }
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
