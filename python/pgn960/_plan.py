"""How the distributed readers (:mod:`pgn960.spark`, :mod:`pgn960.dask`) cut their inputs
into partitions, and the options they share."""

from __future__ import annotations

import glob
import math
import os
from dataclasses import dataclass
from typing import Mapping, Sequence, Union

import pyarrow as pa

import pgn960

from ._analysis import AssumedStart

#: A byte range of one input: ``(path, start, end, first_line)``, as
#: :func:`pgn960.partitions` gives.
Range = tuple[str, int, int, int]

#: Bytes of input per partition when neither ``partitions`` nor ``target_bytes`` is given.
DEFAULT_TARGET_BYTES = 256 << 20

#: Ranges cut per partition asked for, so that ranges packed into partitions even out.
PIECES_PER_PARTITION = 4


@dataclass(frozen=True)
class TableOptions:
    """What each partition's reader makes: the arguments of :func:`pgn960.read_range`."""

    per: str = "game"
    columns: str | None = None
    tags: str | None = None
    include_invalid: bool = False
    movetext: bool = False
    variant: str = "detect"
    threads: int = 1
    max_game_bytes: int | None = None
    assume_sp: AssumedStart | None = None

    def schema(self) -> pa.Schema:
        """The Arrow schema every partition's batches have."""
        return pgn960.schema(
            per=self.per, columns=self.columns, tags=self.tags, movetext=self.movetext
        )

    def batches(self, ranges: Sequence[Range]):
        """The record batches of ``ranges``, in order."""
        for path, start, end, first_line in ranges:
            reader = pgn960.read_range(
                path,
                start,
                end,
                first_line=first_line,
                per=self.per,
                columns=self.columns,
                tags=self.tags,
                include_invalid=self.include_invalid,
                movetext=self.movetext,
                threads=self.threads,
                variant=self.variant,
                max_game_bytes=self.max_game_bytes,
                assume_sp=self.assume_sp,
            )
            yield from reader


def expand_globs(paths: Union[str, "os.PathLike[str]", Sequence]) -> list[str]:
    """``paths`` as a list, each pattern with ``*``, ``?`` or ``[`` that names no file
    replaced by the files it matches (sorted); a pattern matching nothing is an error."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = []
    for path in map(os.fsdecode, paths):
        if os.path.exists(path) or not glob.has_magic(path):
            out.append(path)
            continue
        matches = sorted(glob.glob(path, recursive=True))
        if not matches:
            raise pgn960.OptionError(f"{path}: no file matches")
        out.extend(matches)
    if not out:
        raise pgn960.OptionError("no input given")
    return out


def plan(
    paths, *, partitions: int | None = None, target_bytes: int | None = None
) -> list[list[Range]]:
    """The inputs cut into partitions, each a list of byte ranges in input order.

    With ``partitions`` (N): plain files are cut at game boundaries into about 4N ranges
    that are packed, in order, into N partitions of about equal bytes — exactly N unless
    the inputs hold fewer pieces than that (a compressed file or a Parquet table is one
    piece, never cut). Otherwise each range of about ``target_bytes`` (default 256 MiB)
    is a partition."""
    files = expand_globs(paths)
    if partitions is None:
        target = target_bytes or DEFAULT_TARGET_BYTES
        return [[r] for r in pgn960.partitions(files, target_bytes=target)]
    if partitions < 1:
        raise pgn960.OptionError(f"partitions must be at least 1, not {partitions}")
    whole = pgn960.partitions(files, target_bytes=1 << 62)
    total = sum(r[2] - r[1] for r in whole)
    piece = max(1, math.ceil(total / (partitions * PIECES_PER_PARTITION)))
    return pack(pgn960.partitions(files, target_bytes=piece), partitions)


def pack(ranges: Sequence[Range], n: int) -> list[list[Range]]:
    """``ranges`` in order into at most ``n`` partitions of about equal bytes: a range
    goes to the partition its middle byte falls in; empty partitions are dropped, and
    ranges of one file that meet within a partition are joined."""
    total = sum(r[2] - r[1] for r in ranges)
    bins: list[list[Range]] = [[] for _ in range(n)]
    before = 0
    for r in ranges:
        size = r[2] - r[1]
        middle = before + size / 2
        index = min(n - 1, int(middle * n / total)) if total else 0
        bins[index].append(r)
        before += size
    return [coalesce(b) for b in bins if b]


def coalesce(ranges: Sequence[Range]) -> list[Range]:
    """``ranges`` with each run of ranges of one file that meet joined into one range
    (with the first one's line): one read per file and partition."""
    out: list[Range] = []
    for path, start, end, first_line in ranges:
        if out and out[-1][0] == path and out[-1][2] == start:
            out[-1] = (path, out[-1][1], end, out[-1][3])
        else:
            out.append((path, start, end, first_line))
    return out


def parse_bool(name: str, value: object) -> bool:
    """An option's truth value: a bool, or ``true``/``false`` (any case), ``1``/``0``."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise pgn960.OptionError(f"option {name} must be true or false, not {value!r}")


def parse_int(name: str, value: object) -> int:
    """An option's whole number."""
    try:
        return int(str(value).strip())
    except ValueError:
        raise pgn960.OptionError(f"option {name} must be a whole number, not {value!r}")


def names(value: object) -> str | None:
    """A ``columns``/``tags`` option as a comma-separated string (or None)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    return ",".join(map(str, value))


def table_options(options: Mapping[str, object]) -> TableOptions:
    """The table options of a mapping of option names (lower case) to values."""
    known = {
        "per", "columns", "tags", "include_invalid", "movetext", "variant", "threads",
        "max_game_bytes", "assume_sp",
    }
    got = {k: v for k, v in options.items() if k in known and v is not None}
    return TableOptions(
        per=str(got.get("per", "game")),
        columns=names(got.get("columns")),
        tags=names(got.get("tags")),
        include_invalid=parse_bool("include_invalid", got.get("include_invalid", False)),
        movetext=parse_bool("movetext", got.get("movetext", False)),
        variant=str(got.get("variant", "detect")),
        threads=parse_int("threads", got.get("threads", 1)),
        max_game_bytes=optional_int("max_game_bytes", got.get("max_game_bytes")),
        assume_sp=got.get("assume_sp"),
    )


def optional_int(name: str, value: object) -> int | None:
    """An option that is a whole number or not given (None)."""
    return None if value is None else parse_int(name, value)


def stats_of_ranges(
    ranges: Sequence[Range], options: Mapping[str, object]
) -> tuple[bytes, bytes | None]:
    """The per-SP table of the games of ``ranges`` as CSV bytes (as ``pgn960 stats`` writes
    it) and its strata table's (None with ``strata="none"``): each range's
    :func:`pgn960.stats` (``options``: its keyword arguments), added up exactly by
    :func:`pgn960.merge_stats`. What one distributed task computes; the driver merges the
    pairs of every task with ``merge_stats``."""
    from ._analysis import merged_bytes

    tables = [
        pgn960.stats(path, start=start, end=end, first_line=line, **options)
        for path, start, end, line in ranges
    ]
    return merged_bytes(tables)


def stats_options(options: Mapping[str, object]) -> dict[str, object]:
    """The keyword arguments of :func:`pgn960.stats` for each task: ``options`` with one
    thread per task unless asked otherwise; a range or ``as_csv`` is the route's own."""
    taken = {"start", "end", "first_line", "as_csv"} & set(options)
    if taken:
        raise pgn960.OptionError(f"the distributed stats set {sorted(taken)} themselves")
    return {"threads": 1, **options}
