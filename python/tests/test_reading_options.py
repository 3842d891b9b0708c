"""The reading options of the command line (``--max-game-bytes``, ``--assume-sp``) reach
every function that reads games: each is run with and without them on games whose count
they change, so a function that drops an option fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pyarrow.compute as pc
import pytest

import pgn960
from pgn960._plan import TableOptions, table_options

#: A comment that makes a game larger than ``SMALL_LIMIT`` bytes.
LONG_COMMENT = "{" + "x" * 3000 + "}"

#: A game size limit the two long games exceed and the two short ones do not.
SMALL_LIMIT = 1500


def game(white: str, black: str, result: str, fen: str, moves: str) -> str:
    """A game's text."""
    return (
        f'[Event "e"]\n[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n'
        f'[Variant "Chess960"]\n[FEN "{fen}"]\n\n{moves} {result}\n\n'
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory) -> Path:
    """Two long games from SP 0 (A and B with colours swapped, a pair) and two short ones
    whose start is not in the file and fits several SPs, SP 1 among them (C and D, a
    pair): by default 2 games counted, 0 with ``max_game_bytes=SMALL_LIMIT``, 4 with
    ``assume_sp=1``."""
    sp0 = pgn960.start_fen(0)
    text = (
        game("A", "B", "1-0", sp0, f"1. e4 {LONG_COMMENT} e5")
        + game("B", "A", "0-1", sp0, f"1. e4 {LONG_COMMENT} e5")
        + game("C", "D", "1-0", "?", "1. Nb3 Nb6")
        + game("D", "C", "0-1", "?", "1. Nb3 Nb6")
    )
    path = tmp_path_factory.mktemp("reading") / "games.pgn"
    path.write_text(text)
    return path


def total(table, column: str) -> int:
    """The sum of a table's column."""
    return sum(v for v in table.column(column).to_pylist() if v is not None)


def pairs(table) -> int:
    """The game pairs of a pentanomial table (its ``total`` rows)."""
    rows = table.filter(pc.equal(table.column("sp"), "total"))
    return sum(total(rows, c) for c in ("ll", "ld", "dd_wl", "wd", "ww"))


def plan_rows(path: Path, **kw) -> int:
    """The rows the distributed readers (Spark, Dask) read from ``path``."""
    options = TableOptions(**kw)
    size = path.stat().st_size
    return sum(b.num_rows for b in options.batches([(str(path), 0, size, 1)]))


#: Each function that reads games, as the number of games it counts in ``path``.
COUNTERS = {
    "read": lambda path, **kw: sum(g.valid for g in pgn960.read(path, **kw)),
    "to_arrow": lambda path, **kw: pgn960.to_arrow(path, **kw).num_rows,
    "scan": lambda path, **kw: pgn960.scan(path, **kw).read_all().num_rows,
    "read_range": lambda path, **kw: pgn960.read_range(
        path, 0, path.stat().st_size, **kw
    ).read_all().num_rows,
    "check": lambda path, **kw: pgn960.check(path, **kw).valid,
    "stats": lambda path, **kw: total(pgn960.stats(path, **kw), "games"),
    "tree": lambda path, **kw: tree_games(path, **kw),
    "pentanomials": lambda path, **kw: 2 * pairs(pgn960.pentanomials(path, **kw)),
    "spark/dask read": plan_rows,
}


def tree_games(path: Path, **kw) -> int:
    """The games of the tree's first-ply nodes."""
    table = pgn960.tree(path, depth=1, **kw)
    return total(table.filter(pc.is_valid(table.column("san"))), "games")


@pytest.mark.parametrize("name", sorted(COUNTERS))
def test_max_game_bytes_and_assume_sp_reach_every_reading_function(games, name):
    count = COUNTERS[name]
    assert count(games) == 2, name
    assert count(games, max_game_bytes=SMALL_LIMIT) == 0, name
    assert count(games, max_game_bytes=0) == 2, name
    assert count(games, assume_sp=1) == 4, name


def test_read_names_the_reasons_the_options_change(games):
    reasons = [g.reason for g in pgn960.read(games, max_game_bytes=SMALL_LIMIT)]
    assert reasons == ["too-large", "too-large", "start-ambiguous", "start-ambiguous"]
    assumed = list(pgn960.read(games, assume_sp=1))
    assert [g.sp for g in assumed] == [0, 0, 1, 1]
    assert assumed[2].repairs == ["start-assumed"]


def test_an_assumed_sp_out_of_range_is_an_option_error(games):
    for name, count in COUNTERS.items():
        if name == "spark/dask read":
            continue
        with pytest.raises(pgn960.OptionError, match="assume_sp"):
            count(games, assume_sp=960)


def test_the_distributed_readers_take_the_options_as_spark_strings(games):
    size = games.stat().st_size

    def rows(options: dict) -> int:
        batches = table_options(options).batches([(str(games), 0, size, 1)])
        return sum(b.num_rows for b in batches)

    assert rows({}) == 2
    assert rows({"max_game_bytes": str(SMALL_LIMIT)}) == 0
    assert rows({"assume_sp": "1"}) == 4


def test_assume_sp_names_a_double_chess960_pair_as_a_tuple_or_as_the_command_s_text(tmp_path):
    src = tmp_path / "dfrc.pgn"
    src.write_text('[Variant "Double Chess960"]\n[FEN "?"]\n\n1. Nb3 Nb6 *\n')
    (ambiguous,) = pgn960.read(src)
    assert ambiguous.reason == "start-ambiguous"
    named = re.findall(r"\((\d+), (\d+)\)", ambiguous.detail)
    white, black = next((int(w), int(b)) for w, b in named if w != b)
    for assumed in [(white, black), f"{white},{black}", f"({white}, {black})"]:
        (game,) = pgn960.read(src, assume_sp=assumed)
        assert (game.valid, game.sp, game.black_sp) == (True, white, black), assumed
        assert game.repairs == ["start-assumed"]
        table = pgn960.to_arrow(src, columns="sp,black_sp", assume_sp=assumed)
        assert table.to_pylist() == [{"sp": white, "black_sp": black}], assumed
    for bad in [(white, 960), (-1, 2), "1,2,3", "x"]:
        with pytest.raises(pgn960.OptionError, match="assume_sp"):
            pgn960.check(src, assume_sp=bad)


def test_variant_double_chess960_searches_pairs_for_games_tagged_chess960(tmp_path):
    src = tmp_path / "tagged-chess960.pgn"
    src.write_text('[Variant "Chess960"]\n[FEN "?"]\n\n1. Nb3 Nb6 *\n')
    (as_tagged,) = pgn960.read(src)
    (declared,) = pgn960.read(src, variant="double-chess960")
    assert "start positions replay" in as_tagged.detail
    assert "Double Chess960 (white SP, black SP) pairs replay" in declared.detail
    for name in ["check", "stats", "tree", "to_arrow"]:
        with pytest.raises(pgn960.OptionError, match="double-chess960"):
            getattr(pgn960, name)(src, variant="dfrc")
