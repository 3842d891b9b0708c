#!/usr/bin/env python3
"""A generated archive for `pgn960 filter` / `split` tests, and the selection python-chess
expects.

    filter_archive.py generate OUT_DIR [--games N] [--seed S]
        writes OUT_DIR/archive.pgn (games separated by one blank line, each with a unique
        [GameId "gNNNN"] tag), OUT_DIR/truth.jsonl (one object per game: its tags, whether
        it is valid, its start positions, plies, final-position outcome and the main line in
        UCI) and OUT_DIR/targets.json (positions for --reaches: reached by several games, a
        start position, and one never reached).

    filter_archive.py select OUT_DIR QUERIES.json
        QUERIES.json is a list of flag sets ({"sp": "518,0-10", "min_elo": 2000, ...}, keys
        named as the long flags with _ for -); prints, for each, the list of GameIds a
        correct `pgn960 filter` selects, as JSON. Computed from truth.jsonl and python-chess
        replay, with the rules docs/filter-split.md states.

Seeded: the same arguments give the same archive. Games are played with random legal moves
(python-chess, Chess960 rules), some to the end of the game (checkmate, stalemate,
insufficient material, 75-move rule, fivefold repetition).
"""

import json
import random
import sys

import chess
import chess.pgn

PLAYERS = ["Alice", "alice", "Bob Smith", "Carol", "DrNykterstein", "J\u00fcrgen", "Anon/Bot", "Eve"]
EVENTS = [
    "Rated Blitz game",
    "Rated Rapid game",
    "Titled Arena/2024",
    "../../escape",
    "..",
    "ctrl\x01chars\x7f",
    "x" * 300,
    "Casual Chess960",
]
TIME_CONTROLS = ["15+0", "60+0", "120+1", "180+2", "300+0", "600+5", "1800+0", "-", "?"]
TERMINATIONS = ["Normal", "Time forfeit", "Abandoned"]
SPECIAL_SPS = [0, 1, 2, 100, 200, 959]
OTHER_VARIANT = "Atomic"


def start_board(rng, kind):
    """(board, white SP, black SP) for a start of `kind`."""
    if kind == "classical":
        return chess.Board(), 518, 518
    if kind == "double":
        w, b = rng.sample(range(960), 2)
        white = chess.Board.from_chess960_pos(w)
        black = chess.Board.from_chess960_pos(b)
        placement = black.board_fen().split("/")[0] + "/" + "/".join(white.board_fen().split("/")[1:])
        board = chess.Board(placement + " w KQkq - 0 1", chess960=True)
        board.set_castling_fen(castling_of(board))
        return board, w, b
    r = rng.random()
    sp = 518 if r < 0.3 else rng.choice(SPECIAL_SPS) if r < 0.6 else rng.randrange(960)
    return chess.Board.from_chess960_pos(sp), sp, sp


def castling_of(board):
    """Full Shredder castling rights of a start position."""
    letters = ""
    for color, case in ((chess.WHITE, str.upper), (chess.BLACK, str.lower)):
        rank = 0 if color == chess.WHITE else 7
        for sq in board.pieces(chess.ROOK, color):
            if chess.square_rank(sq) == rank:
                letters += case(chess.FILE_NAMES[chess.square_file(sq)])
    return letters


def play(rng, board, sp):
    """Random legal moves: a common opening for SP 518, then to the end or to a random length."""
    moves = []
    if sp == 518 and rng.random() < 0.6:
        for san in ["e4", "e5", "Nf3"][: rng.choice([2, 3])]:
            moves.append(board.push_san(san))
    to_end = rng.random() < 0.35
    limit = 600 if to_end else rng.randrange(0, 80)
    while len(moves) < limit and not board.is_game_over(claim_draw=False):
        legal = list(board.legal_moves)
        captures = [m for m in legal if board.is_capture(m)]
        m = rng.choice(captures if captures and rng.random() < 0.5 else legal)
        moves.append(m)
        board.push(m)
    return moves


def outcome_name(board):
    """The final position's outcome, in the order pgn960 decides it."""
    if board.is_checkmate():
        return "checkmate"
    if board.is_stalemate():
        return "stalemate"
    if board.is_insufficient_material():
        return "insufficient-material"
    if board.halfmove_clock >= 150:
        return "seventy-five-moves"
    if board.is_repetition(5):
        return "fivefold-repetition"
    if board.halfmove_clock >= 100:
        return "fifty-moves"
    if board.is_repetition(3):
        return "threefold-repetition"
    return "none"


def result_of(rng, board, outcome):
    if outcome == "checkmate":
        return "0-1" if board.turn == chess.WHITE else "1-0"
    if outcome != "none":
        return "1/2-1/2"
    return rng.choice(["1-0", "0-1", "1/2-1/2", "*"])


def date_value(rng):
    r = rng.random()
    y, m, d = rng.choice([2022, 2023, 2024]), rng.randrange(1, 13), rng.randrange(1, 29)
    if r < 0.6:
        return f"{y}.{m:02}.{d:02}"
    if r < 0.75:
        return f"{y}.??.??"
    if r < 0.85:
        return f"{y}.{m:02}.??"
    if r < 0.92:
        return "????.??.??"
    return None


def movetext(rng, start, moves, result, comments):
    """SAN movetext as python-chess writes it, with [%clk] comments now and then."""
    game = chess.pgn.Game()
    game.setup(start)
    node = game
    for m in moves:
        node = node.add_variation(m)
        if comments and rng.random() < 0.3:
            node.comment = f"[%clk 0:0{rng.randrange(10)}:{rng.randrange(60):02}]"
    exporter = chess.pgn.StringExporter(headers=False, variations=True, comments=True)
    text = game.accept(exporter)
    # The exporter ends the movetext with the game's result ('*' by default).
    return text[: -1].rstrip() + " " + result if text.endswith("*") else text


def generate(out_dir, n, seed):
    rng = random.Random(seed)
    games, truth = [], []
    for i in range(n):
        r = rng.random()
        kind = "classical" if r < 0.08 else "double" if r < 0.14 else "other" if r < 0.17 else "chess960"
        start, wsp, bsp = start_board(rng, "chess960" if kind == "other" else kind)
        if kind == "chess960" and wsp == 518 and rng.random() < 0.5:
            kind = "chess960-518"
        board = start.copy()
        moves = play(rng, board, wsp)
        outcome = outcome_name(board)
        result = result_of(rng, board, outcome)
        tags = {"Event": rng.choice(EVENTS), "Site": f"https://lichess.org/{rng.randrange(16**8):08x}"}
        date = date_value(rng)
        if date is not None:
            tags["UTCDate" if rng.random() < 0.7 else "Date"] = date
        tags["Round"] = "-"
        tags["White"] = rng.choice(PLAYERS)
        tags["Black"] = rng.choice(PLAYERS)
        tags["Result"] = result
        for color in ("WhiteElo", "BlackElo"):
            tags[color] = str(rng.randrange(1200, 2800)) if rng.random() < 0.93 else "?"
        tags["TimeControl"] = rng.choice(TIME_CONTROLS)
        tags["Termination"] = rng.choice(TERMINATIONS)
        if rng.random() < 0.3:
            tags["Opening"] = rng.choice(["Sicilian Defense", "French Defense", "King's Pawn Game"])
        tags["GameId"] = f"g{i:04}"
        if kind in ("chess960", "double", "chess960-518"):
            tags["Variant"] = "Chess960"
            tags["SetUp"] = "1"
            tags["FEN"] = start.fen()
        elif kind == "other":
            tags["Variant"] = OTHER_VARIANT
            tags["SetUp"] = "1"
            tags["FEN"] = start.fen()
        valid, text_moves = True, movetext(rng, start, moves, result, rng.random() < 0.5)
        breakage = rng.random() if kind != "other" else 1.0
        if breakage < 0.04:
            # An illegal move in the middle.
            b = start.copy()
            cut = rng.randrange(0, len(moves) + 1)
            for m in moves[:cut]:
                b.push(m)
            bad = next(s for s in ["Qxh7", "Ke5", "Ra3", "Nxe4", "Kh4", "Qa5"] if not legal_san(b, s))
            text_moves = movetext(rng, start, moves[:cut], "", False).rstrip() + f" {bad} {result}"
            text_moves = text_moves.replace("  ", " ")
            valid = False
        elif breakage < 0.06 and "FEN" in tags:
            tags["FEN"] = "rnbqkbnr/pppppppp/8/8/8/8 w KQkq - 0 1"
            valid = False
        elif breakage < 0.07:
            # Cut short: the movetext stops without a result, and the Result tag gives none.
            text_moves = text_moves.rsplit(" ", 1)[0] if " " in text_moves else ""
            tags["Result"] = "*"
            valid = False
        elif breakage < 0.08 and moves and tags["Result"] != "*":
            # The final result token missing, the Result tag giving the result: kept
            # (repair result-from-tag), as python-chess and lichess read it.
            text_moves = text_moves.rsplit(" ", 1)[0]
        header = "".join(f'[{k} "{escape(v)}"]\n' for k, v in tags.items())
        game_text = (header + "\n" + text_moves.strip() + "\n").encode("utf-8")
        if tags["Event"] == "Casual Chess960" and i % 2 == 0:
            # Not UTF-8: a Latin-1 event name.
            game_text = game_text.replace(b"Casual Chess960", b"Caf\xe9 Chess960")
            tags["Event"] = "Caf\u00e9 Chess960"
        games.append(game_text)
        truth.append({
            "id": tags["GameId"], "tags": tags, "valid": valid, "kind": kind,
            "variant": "other" if kind == "other" else "classical" if kind == "classical" else "chess960",
            "white_sp": wsp, "black_sp": bsp, "plies": len(moves), "outcome": outcome,
            "start": start.fen(), "moves": [m.uci() for m in moves],
            "event_bytes": list(game_text.split(b'[Event "')[1].split(b'"]')[0]),
        })
    with open(f"{out_dir}/archive.pgn", "wb") as f:
        f.write(b"\n".join(games))
    with open(f"{out_dir}/truth.jsonl", "w") as f:
        for t in truth:
            f.write(json.dumps(t) + "\n")
    # Targets for --reaches: after 1. e4 e5 from SP 518 (many games), a start position (SP
    # 0), a position after some random game's 6th ply, and one no game reaches.
    b = chess.Board()
    b.push_san("e4")
    b.push_san("e5")
    some = next(t for t in truth if t["valid"] and t["kind"] == "chess960" and t["white_sp"] != 518 and t["plies"] > 8)
    c = chess.Board(some["start"], chess960=True)
    for u in some["moves"][:6]:
        c.push_uci(u)
    targets = [key_fen(b), key_fen(chess.Board.from_chess960_pos(0)), key_fen(c),
               "8/8/8/8/8/8/8/K6k w -"]
    with open(f"{out_dir}/targets.json", "w") as f:
        json.dump(targets, f)


def legal_san(board, san):
    try:
        board.parse_san(san)
        return True
    except ValueError:
        return False


def escape(v):
    return v.replace("\\", "\\\\").replace('"', '\\"')


def key_fen(board):
    """Placement, side to move and castling (X-FEN), as --reaches takes them."""
    return " ".join(board.fen().split()[:3])


# --- the expected selection ---------------------------------------------------------------

def speed(tc):
    tc = tc.strip()
    if tc == "-":
        return "classical"
    try:
        base, _, inc = tc.partition("+")
        seconds = int(base) + 40 * (int(inc) if inc else 0)
    except ValueError:
        return None
    for limit, name in ((29, "ultra-bullet"), (179, "bullet"), (479, "blitz"), (1499, "rapid")):
        if seconds <= limit:
            return name
    return "classical"


def date_span(tags):
    """The span of days a game's date may be (UTCDate, else Date), as (y, m, d) tuples."""
    for name in ("UTCDate", "Date"):
        v = tags.get(name)
        if v is None:
            continue
        y, m, d = v.split(".")
        if not y.isdigit():
            continue
        if "?" in m:
            return (int(y), 1, 1), (int(y), 12, 31)
        if "?" in d:
            return (int(y), int(m), 1), (int(y), int(m), 31)
        return ((int(y), int(m), int(d)),) * 2
    return None


def sp_list(text):
    out = set()
    for item in text.split(","):
        a, _, b = item.partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


def reaches(t, fen):
    target = chess.Board(" ".join(fen.split()[:3]) + " - 0 1", chess960=True)
    b = chess.Board(t["start"], chess960=True)
    def same():
        return (b.board_fen() == target.board_fen() and b.turn == target.turn
                and b.castling_rights == target.castling_rights)
    if same():
        return True
    for u in t["moves"]:
        b.push_uci(u)
        if same():
            return True
    return False


def passes(t, q):
    tags = t["tags"]
    fold = (lambda s: s.lower()) if q.get("ignore_case") else (lambda s: s)
    def eq(name, want):
        return name in tags and fold(tags[name]) == fold(want)
    def contains(name, want):
        return name in tags and fold(want) in fold(tags[name])
    def elo(name):
        v = tags.get(name, "?")
        return int(v) if v.isdigit() else None
    if "white" in q and not eq("White", q["white"]):
        return False
    if "black" in q and not eq("Black", q["black"]):
        return False
    if "player" in q and not (eq("White", q["player"]) or eq("Black", q["player"])):
        return False
    if "event" in q and not contains("Event", q["event"]):
        return False
    if "site" in q and not contains("Site", q["site"]):
        return False
    w, b = elo("WhiteElo"), elo("BlackElo")
    rated = w is not None and b is not None
    if "min_elo" in q and not (rated and min(w, b) >= q["min_elo"]):
        return False
    if "max_elo" in q and not (rated and max(w, b) <= q["max_elo"]):
        return False
    if "max_elo_diff" in q and not (rated and abs(w - b) <= q["max_elo_diff"]):
        return False
    if "time_control" in q and speed(tags.get("TimeControl", "?")) not in q["time_control"].split(","):
        return False
    if "since" in q or "until" in q:
        span = date_span(tags)
        if span is None:
            return False
        ymd = lambda s: tuple(int(x) for x in s.split("."))
        if "since" in q and span[0] < ymd(q["since"]):
            return False
        if "until" in q and span[1] > ymd(q["until"]):
            return False
    if "result" in q and tags.get("Result") not in q["result"].split(","):
        return False
    if "termination" in q and not eq("Termination", q["termination"]):
        return False
    for m in q.get("tag", []):
        at = min(i for i in (m.find("="), m.find("~")) if i >= 0)
        name, value = m[:at], m[at + 1:]
        if not (contains(name, value) if m[at] == "~" else eq(name, value)):
            return False
    if "game_variant" in q and t["variant"] not in q["game_variant"].split(","):
        return False
    chess_game = t["variant"] != "other"
    wants_start = any(k in q for k in ("sp", "black_sp", "dfrc", "no_dfrc"))
    if wants_start and not chess_game:
        return False
    if "sp" in q and t["white_sp"] not in sp_list(q["sp"]):
        return False
    if "black_sp" in q and t["black_sp"] not in sp_list(q["black_sp"]):
        return False
    double = t["white_sp"] != t["black_sp"]
    if q.get("dfrc") and not double or q.get("no_dfrc") and double:
        return False
    if any(k in q for k in ("min_plies", "max_plies", "outcome", "reaches")) and not chess_game:
        return False
    if "min_plies" in q and t["plies"] < q["min_plies"]:
        return False
    if "max_plies" in q and t["plies"] > q["max_plies"]:
        return False
    if "outcome" in q and t["outcome"] not in q["outcome"].split(","):
        return False
    if "reaches" in q and not reaches(t, q["reaches"]):
        return False
    return True


def select(out_dir, queries_path):
    with open(f"{out_dir}/truth.jsonl") as f:
        truth = [json.loads(line) for line in f]
    with open(queries_path) as f:
        queries = json.load(f)
    answers = []
    for q in queries:
        keep = [t["id"] for t in truth if t["valid"] and passes(t, q) != bool(q.get("invert"))]
        answers.append(keep)
    json.dump(answers, sys.stdout)


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == "generate":
        args = sys.argv[3:]
        n = int(args[args.index("--games") + 1]) if "--games" in args else 700
        seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 960
        generate(sys.argv[2], n, seed)
    elif len(sys.argv) == 4 and sys.argv[1] == "select":
        select(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
