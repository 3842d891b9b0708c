"""Chess960 PGN archives as Dask DataFrames.

>>> import pgn960.dask                                       # doctest: +SKIP
>>> frame = pgn960.dask.read("lichess_2024-*.pgn.zst", columns="sp,Result,valid")
>>> frame.groupby("sp").size().compute()                     # doctest: +SKIP

``read`` takes the paths, globs and directories and the options of the Spark data source
(:mod:`pgn960.spark`) as keyword arguments; each partition (byte ranges of plain files cut
at game boundaries; a compressed file or a Parquet table whole) is read by a Dask worker
with :func:`pgn960.read_range` into a pandas DataFrame whose columns are backed by Arrow
(``pd.ArrowDtype``: the export schema's types and nulls, unchanged).
"""

from __future__ import annotations

from typing import Sequence

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa

import pgn960

from ._analysis import AssumedStart
from ._plan import Range, TableOptions, plan, stats_of_ranges, stats_options

__all__ = ["read", "stats"]


def read(
    paths,
    *,
    partitions: int | None = None,
    target_bytes: int | None = None,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    include_invalid: bool = False,
    movetext: bool = False,
    variant: str = "detect",
    threads: int = 1,
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> dd.DataFrame:
    """The games (or plies) of ``paths`` as a ``dask.dataframe`` with a partition per
    byte range (``partitions``: that many, as :mod:`pgn960.spark` cuts them; else about
    ``target_bytes``, default 256 MiB, each), read lazily with
    :func:`pgn960.read_range`; columns and reading (``variant``, ``max_game_bytes``,
    ``assume_sp``) as :func:`pgn960.to_arrow`."""
    table = TableOptions(
        per=per,
        columns=_joined(columns),
        tags=_joined(tags),
        include_invalid=include_invalid,
        movetext=movetext,
        variant=variant,
        threads=threads,
        max_game_bytes=max_game_bytes,
        assume_sp=assume_sp,
    )
    parts = plan(paths, partitions=partitions, target_bytes=target_bytes)
    meta = _frame(table.schema().empty_table())
    return dd.from_map(
        _ReadPartition(table), parts, meta=meta, divisions=None, enforce_metadata=False
    )


def _joined(value: str | Sequence[str] | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def _frame(table: pa.Table) -> pd.DataFrame:
    """A pandas DataFrame with Arrow-backed columns (types and nulls kept)."""
    return table.to_pandas(types_mapper=pd.ArrowDtype)


class _ReadPartition:
    """Reads one partition into a pandas DataFrame (a class so Dask ships it by value,
    with its options)."""

    def __init__(self, table: TableOptions) -> None:
        self.table = table

    def __call__(self, ranges: list[Range]) -> pd.DataFrame:
        schema = self.table.schema()
        batches = list(self.table.batches(ranges))
        return _frame(pa.Table.from_batches(batches, schema=schema))


def stats(
    paths,
    *,
    partitions: int | None = None,
    target_bytes: int | None = None,
    as_csv: bool = False,
    **options,
):
    """The per-SP table of the games of ``paths`` computed by Dask (the client's cluster
    when one is active), equal to ``pgn960 stats`` of the whole with the same options
    (``as_csv=True``: its CSV bytes, byte for byte), p- and q-values included, whatever
    ``strata``: each task's :func:`pgn960.stats` of its byte ranges (``options``: its
    keyword arguments) with its strata table, added up exactly by
    :func:`pgn960.merge_stats`."""
    import dask

    options = stats_options(options)
    parts = plan(paths, partitions=partitions, target_bytes=target_bytes)
    tasks = [dask.delayed(stats_of_ranges)(part, options) for part in parts]
    tables = [csv if strata is None else (csv, strata) for csv, strata in dask.compute(*tasks)]
    return pgn960.merge_stats(tables, as_csv=as_csv)
