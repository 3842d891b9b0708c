#!/usr/bin/env python3
"""The python-chess oracle for `pgn960 tree`: reads PGN files with python-chess and prints
the opening tree of every counted game's main line down to DEPTH plies, as CSV:

    sp,path,uci,games,white_wins,draws,black_wins,rated_games,white_elo_sum,black_elo_sum,eval_games,eval_centipawns

one row per node (path: the UCI_Chess960 moves before it, space-separated; a start
position's own row has an empty uci), unordered. A game counts as in
python_chess_stats.py: python-chess reads it without errors, its movetext ends with a
termination marker (pgn960 rejects a game without one as cut short; python-chess reads it
silently), it starts from a Chess960 start position, is marked Chess960 (or does not start
from SP 518), and has a decisive or drawn Result. Evaluations are white's view in centipawns, capped at +-1000 (a mate is the
cap for the side that mates); python-chess reads `[%eval]`, and a comment without any `[%`
command that starts with `d=` is read here as TCEC writes it: `wv=` is white's view in pawns
or `M`n / `-M`n plies to mate (`M1`, the move mates, is no evaluation). Needs `pip install chess`.

Usage: python_chess_tree.py DEPTH FILE...
"""
import sys
from collections import defaultdict

import chess
import chess.pgn

CAP = 1000


class Builder(chess.pgn.GameBuilder):
    """A game builder that notes whether the movetext had a termination marker."""

    def begin_game(self):
        super().begin_game()
        self.terminated = False

    def visit_result(self, result):
        self.terminated = True
        super().visit_result(result)


def elo(headers, name):
    try:
        return int(headers.get(name, "").strip())
    except ValueError:
        return None


def tcec_centipawns(comment):
    """The capped `wv=` of a TCEC comment, or None."""
    text = comment.lstrip()
    if "[%" in comment or not text.startswith("d="):
        return None
    for item in text.split(","):
        key, _, value = item.strip().partition("=")
        if key != "wv":
            continue
        sign = -1 if value.startswith("-") else 1
        body = value.lstrip("+-")
        if body.startswith("M"):
            return sign * CAP if body[1:].isdigit() and int(body[1:]) >= 2 else None
        try:
            return max(-CAP, min(CAP, round(float(value) * 100)))
        except ValueError:
            return None
    return None


def centipawns(node):
    score = node.eval()
    if score is None:
        return tcec_centipawns(node.comment)
    white = score.white()
    if white.is_mate():
        return CAP if white.mate() > 0 else -CAP
    return max(-CAP, min(CAP, white.score()))


def main(depth, paths):
    nodes = defaultdict(lambda: [0] * 9)
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                builder = Builder()
                game = chess.pgn.read_game(f, Visitor=lambda: builder)
                if game is None:
                    break
                if game.errors or not builder.terminated:
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
                outcome = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}.get(result)
                if outcome is None:
                    continue
                w, b = elo(game.headers, "WhiteElo"), elo(game.headers, "BlackElo")
                rated = w is not None and b is not None

                def add(key, cp):
                    row = nodes[key]
                    row[0] += 1
                    row[1 + outcome] += 1
                    if rated:
                        row[4] += 1
                        row[5] += w
                        row[6] += b
                    if cp is not None:
                        row[7] += 1
                        row[8] += cp

                add((sp, "", ""), None)
                moves = []
                node = game
                for _ in range(depth):
                    if not node.variations:
                        break
                    node = node.variations[0]
                    uci = board.uci(node.move, chess960=True)
                    board.push(node.move)
                    add((sp, " ".join(moves), uci), centipawns(node))
                    moves.append(uci)
    print("sp,path,uci,games,white_wins,draws,black_wins,rated_games,white_elo_sum,black_elo_sum,eval_games,eval_centipawns")
    for (sp, path, uci), row in nodes.items():
        print(",".join([str(sp), path, uci] + [str(x) for x in row]))


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2:])
