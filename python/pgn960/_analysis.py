"""The analyses of ``pgn960 stats`` and ``pgn960 tree`` as functions returning
``pyarrow.Table``s. The rows are the library's, written as the command writes them (CSV)
and read with fixed column types: a table equals the command's CSV file read with
:func:`table_from_csv`."""

from __future__ import annotations

import csv
import io
import os
from typing import Sequence, Union

import pyarrow as pa
import pyarrow.csv as pacsv

from . import _native

#: The start ``assume_sp`` names (``--assume-sp``): an SP number, a Double Chess960 pair
#: ``(white SP, black SP)``, or the command's text (``"518"``, ``"588,301"``).
AssumedStart = Union[int, "tuple[int, int]", str]

#: The key of a stats table's schema metadata that holds its strata table: the CSV bytes
#: ``pgn960 stats --strata-table`` writes (per ``by`` cell, stratum and SP, the W/D/L the
#: significance tests compare SPs within), carried so that :func:`merge_stats` tests merged
#: tables within the same strata.
STRATA_METADATA = b"pgn960.strata"

#: The columns of the ``by`` keys (text), in the order ``by`` may name them.
KEY_COLUMNS = ("time_control", "month", "year", "rating_band", "event", "white", "black")

_TEXT = {"start", "path", "san", "uci", *KEY_COLUMNS}
_FLOAT = {
    "white_score", "draw_rate", "white_score_lo", "white_score_hi", "mean_white_elo",
    "mean_black_elo", "expected_white_score", "white_excess", "p_value", "q_value",
    "mean_eval_ply10", "mean_eval_ply20", "performance", "mean_eval", "score", "elo",
    "elo_lo", "elo_hi", "draw_rate_lo", "draw_rate_hi", "draw_q_value", "homogeneity_p",
    "draw_homogeneity_p",
}
_BOOL = {"complete"}


def _column_type(name: str, text: Sequence[str]) -> pa.DataType:
    if name in _TEXT or name in text:
        return pa.string()
    if name in _FLOAT:
        return pa.float64()
    if name in _BOOL:
        return pa.bool_()
    return pa.int64()


def table_from_csv(
    data: Union[bytes, str, "os.PathLike[str]"], *, text: Sequence[str] = ()
) -> pa.Table:
    """A table written by ``pgn960 stats`` or ``pgn960 tree`` (CSV: bytes or a path) as
    the ``pyarrow.Table`` the Python functions give: key columns, ``start`` and the move
    columns (and the columns named in ``text``) as strings, fractions as float64, ``complete``
    as bool, counts as int64; an empty cell is null."""
    if not isinstance(data, (bytes, bytearray)):
        with open(data, "rb") as f:
            data = f.read()
    first = bytes(data).split(b"\n", 1)[0].decode("utf-8").rstrip("\r")
    header = next(csv.reader([first]), [])
    options = pacsv.ConvertOptions(
        column_types={name: _column_type(name, text) for name in header},
        strings_can_be_null=True,
        true_values=["true"],
        false_values=["false"],
    )
    return pacsv.read_csv(io.BytesIO(data), convert_options=options)


def filter_args(min_elo, max_elo_diff, min_plies, time_control, since, until) -> dict:
    """The game filters shared by the analyses, for the native functions."""
    if isinstance(time_control, str):
        time_control = time_control.split(",")
    return {
        "min_elo": min_elo,
        "max_elo_diff": max_elo_diff,
        "min_plies": min_plies,
        "time_control": list(time_control) if time_control is not None else None,
        "since": since,
        "until": until,
    }


def key_names(by) -> list[str]:
    """``by`` as a list of key names (``"month,year"``, a list, or None)."""
    if by is None:
        return []
    if isinstance(by, str):
        return [k.strip() for k in by.split(",") if k.strip()]
    return list(by)


def table_csv(table: pa.Table) -> bytes:
    """A stats table as CSV bytes for :func:`merge_stats` (nulls as empty cells)."""
    sink = io.BytesIO()
    options = pacsv.WriteOptions(quoting_style="needed")
    pacsv.write_csv(table, sink, write_options=options)
    return sink.getvalue()


def _paths(src) -> list[str]:
    from . import _paths as paths

    return paths(src)


def stats(
    src,
    *,
    by: Union[str, Sequence[str], None] = None,
    headers_only: bool = False,
    include_classical: bool = False,
    band_width: int = 200,
    double_chess960: bool = False,
    min_elo: int | None = None,
    max_elo_diff: int | None = None,
    min_plies: int | None = None,
    time_control: Union[str, Sequence[str], None] = None,
    since: str | None = None,
    until: str | None = None,
    threads: int = 0,
    variant: str = "detect",
    start: int | None = None,
    end: int | None = None,
    first_line: int | None = None,
    strata: str = "event",
    as_csv: bool = False,
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Union[pa.Table, bytes]:
    """Per-start-position results of the games of ``src``: the table ``pgn960 stats``
    writes (same columns, same numbers): 960 rows, or with ``by`` keys
    (``time-control``, ``month``, ``year``, ``rating-band``, ``event``, ``white``,
    ``black``) a row per SP with games in each cell, each with its p- and q-value against
    the cell's pool. ``strata`` (``"event"``, ``"time-control"`` or ``"none"``, as
    ``--strata``) is what the tests compare SPs within. ``double_chess960``:
    the Double Chess960 table instead (``--dfrc-table``). The filters are those of the
    command (``time_control``: speeds such as ``"blitz"``; ``since``/``until``:
    ``YYYY.MM.DD``).

    ``start``/``end`` (and ``first_line``) narrow a plain file to the games of a byte
    range, as :func:`pgn960.read_range` reads them; ``src`` may also be a
    :class:`pgn960.Partition`. The tables of the partitions of an archive, added up by
    :func:`merge_stats`, are the table of the whole, p- and q-values included, for every
    ``strata``: an SP table carries its strata table (the per-stratum W/D/L its tests
    used) in its schema metadata under :data:`STRATA_METADATA`. ``as_csv=True`` gives the
    CSV bytes ``pgn960 stats`` writes instead of a table; those carry no strata (merged
    alone they are tested as one table, as ``strata="none"``): pass ``merge_stats`` the
    tables, or ``(csv, strata_csv)`` pairs. Reading (``variant``, ``max_game_bytes``,
    ``assume_sp``) as :func:`pgn960.check`."""
    src, start, end, first_line = _source_range(src, start, end, first_line)
    filters = filter_args(min_elo, max_elo_diff, min_plies, time_control, since, until)
    data, strata_csv = _native.stats(
        _paths(src), threads, variant, key_names(by), band_width, headers_only,
        include_classical, double_chess960, filters, start, end, first_line, strata,
        max_game_bytes, assume_sp,
    )
    return data if as_csv else with_strata(table_from_csv(data), strata_csv)


def with_strata(table: pa.Table, strata_csv: bytes | None) -> pa.Table:
    """``table`` carrying ``strata_csv`` (a strata table's CSV bytes) in its schema
    metadata under :data:`STRATA_METADATA` (unchanged when None)."""
    if strata_csv is None:
        return table
    metadata = dict(table.schema.metadata or {})
    metadata[STRATA_METADATA] = bytes(strata_csv)
    return table.replace_schema_metadata(metadata)


def strata_of(table: pa.Table) -> bytes | None:
    """The strata table a stats table carries (CSV bytes), or None."""
    return (table.schema.metadata or {}).get(STRATA_METADATA)


def _source_range(src, start, end, first_line):
    """``src`` and its range: a :class:`pgn960.Partition` given as ``src`` is its path
    and range."""
    from . import Partition

    if isinstance(src, Partition):
        if start is not None or end is not None:
            raise _native.OptionError("a Partition is its own range: give no start or end")
        return src.path, src.start, src.end, src.first_line
    return src, start, end, first_line


def merge_stats(
    tables: Sequence[Union[pa.Table, bytes, tuple[bytes, bytes]]], *, as_csv: bool = False
) -> Union[pa.Table, bytes]:
    """Adds up tables given by :func:`stats` (or read from ``pgn960 stats`` files) exactly,
    as ``pgn960 stats --merge`` does: the counts are summed and every derived column and
    significance recomputed, so the merge of the tables of parts equals the table of the
    whole. Tables merge only with tables of the same ``by`` keys and kind.

    The tests run within the strata the tables carry (a table of :func:`stats` carries its
    strata table in its metadata, :data:`STRATA_METADATA`), as one run over the whole
    does: byte for byte, p- and q-values included, whatever ``strata`` made them. A table
    may also be given as the CSV bytes ``stats(..., as_csv=True)`` gives, or as a pair
    ``(csv, strata_csv)`` of the files ``pgn960 stats -o ... --strata-table ...`` writes;
    CSV bytes alone carry no strata, and tables merged without strata are tested as one
    table (as ``strata="none"``). Strata must come with every table or with none (a merge
    whose strata do not add up to its tables is an error). ``as_csv=True`` returns the
    merged CSV bytes, byte for byte those ``pgn960 stats`` writes for the whole; the
    merged table carries the merged strata, so merges nest."""
    data, strata_csv = merged_bytes(tables)
    return data if as_csv else with_strata(table_from_csv(data), strata_csv)


def merged_bytes(
    tables: Sequence[Union[pa.Table, bytes, tuple[bytes, bytes]]]
) -> tuple[bytes, bytes | None]:
    """The CSV bytes of the merge of ``tables`` (as :func:`merge_stats` takes them) and of
    its strata table (None without strata)."""
    return _native.merge_stats(_tables_bytes(tables))


def sp_groups(
    tables: Union[pa.Table, bytes, tuple[bytes, bytes],
                  Sequence[Union[pa.Table, bytes, tuple[bytes, bytes]]]],
    *,
    as_csv: bool = False,
) -> Union[pa.Table, bytes]:
    """The start positions grouped by a feature of their back rank — king file, bishops,
    queen file, knights, mirror-image pairs — with each group's W/D/L, score and draw rate
    with their intervals, and the tests of the SP table with groups as rows: the table
    ``pgn960 stats --groups`` writes (one row per ``by`` cell, feature and group).

    ``tables``: a table of :func:`stats` (or several, or the forms :func:`merge_stats`
    takes, added up first). The tests run within the strata the tables carry, so the
    groups of merged partitions equal those of the whole, byte for byte; CSV bytes alone
    carry no strata and are tested as one table. ``as_csv=True`` gives the CSV bytes."""
    if isinstance(tables, (pa.Table, bytes, bytearray, memoryview, tuple)):
        tables = [tables]
    data = _native.stats_groups(_tables_bytes(tables))
    return data if as_csv else table_from_csv(data, text=("feature", "group", "sps"))


def _tables_bytes(
    tables: Sequence[Union[pa.Table, bytes, tuple[bytes, bytes]]]
) -> list[bytes]:
    """``tables`` (as :func:`merge_stats` takes them) as the CSV bytes of each table and of
    the strata table it carries, for the native functions."""
    data: list[bytes] = []
    for t in tables:
        if isinstance(t, pa.Table):
            data.append(table_csv(t))
            strata_csv = strata_of(t)
        elif isinstance(t, (bytes, bytearray, memoryview)):
            data.append(bytes(t))
            strata_csv = None
        elif isinstance(t, tuple) and len(t) == 2:
            table, strata_csv = t
            data.append(bytes(table))
        else:
            raise TypeError(
                "merge_stats takes stats tables, CSV bytes or (csv, strata_csv) pairs, "
                f"not {type(t).__name__}"
            )
        if strata_csv is not None:
            data.append(bytes(strata_csv))
    return data


def tree(
    src,
    *,
    depth: int = 2,
    sp: Union[int, str, None] = None,
    min_games: int = 1,
    max_nodes: int = 16_000_000,
    include_classical: bool = False,
    min_elo: int | None = None,
    max_elo_diff: int | None = None,
    min_plies: int | None = None,
    time_control: Union[str, Sequence[str], None] = None,
    since: str | None = None,
    until: str | None = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> pa.Table:
    """The opening tree of each start position over the first ``depth`` plies of the valid
    games of ``src``: the rows of ``pgn960 tree`` (one per node, depth first; ``sp``: a
    start position or a list such as ``"0-9,518"``; nodes with fewer than ``min_games``
    games left out). Reading (``variant``, ``max_game_bytes``, ``assume_sp``) as
    :func:`pgn960.check`."""
    filters = filter_args(min_elo, max_elo_diff, min_plies, time_control, since, until)
    sps = None if sp is None else str(sp)
    data = _native.tree(
        _paths(src), threads, variant, depth, sps, min_games, max_nodes, include_classical,
        filters, max_game_bytes, assume_sp,
    )
    return table_from_csv(data)


def pentanomials(
    src,
    *,
    include_classical: bool = False,
    min_elo: int | None = None,
    max_elo_diff: int | None = None,
    min_plies: int | None = None,
    time_control: Union[str, Sequence[str], None] = None,
    since: str | None = None,
    until: str | None = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> pa.Table:
    """The engine-match game pairs of ``src`` (same start position, same players with
    colours swapped, within 1024 games): per pairing of two players (``player_a``,
    ``player_b``: a match of its own, from its first pair's White's view), per start
    position and in total (``sp`` = ``"total"``), the pentanomial (``ll`` .. ``ww``), score
    and Elo with its 95% interval — the table of ``pgn960 stats --pairs``. Reading
    (``variant``, ``max_game_bytes``, ``assume_sp``) as :func:`pgn960.check`."""
    filters = filter_args(min_elo, max_elo_diff, min_plies, time_control, since, until)
    data = _native.pentanomials(
        _paths(src), threads, variant, include_classical, filters, max_game_bytes, assume_sp
    )
    return table_from_csv(data, text=("player_a", "player_b", "sp"))
