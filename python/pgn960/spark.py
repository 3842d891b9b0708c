"""Chess960 PGN archives as Spark DataFrames: a Spark Python Data Source (Spark >= 4.0).

>>> import pgn960.spark                                     # doctest: +SKIP
>>> pgn960.spark.register(spark)                            # doctest: +SKIP
>>> df = (spark.read.format("pgn960")                       # doctest: +SKIP
...       .option("partitions", 8)
...       .load(["lichess_2024-*.pgn", "/data/more/"]))

``load`` takes a path, a list of paths, globs and directories (every PGN file below
them); every executor must see the same paths (a shared file system, or object storage
mounted as one). Plain PGN files are cut into byte ranges at game boundaries
(:func:`pgn960.partitions`); a compressed file (``.zst``, ``.gz``, ``.bz2``, ``.xz``) or a
Parquet table in the lichess dataset schema is one partition. Each partition is read on
an executor by :func:`pgn960.read_range`, which hands Spark Arrow record batches (no
conversion to rows).

Options (strings, as Spark passes them):

- ``partitions``: how many partitions (exactly that many, unless the inputs hold fewer
  pieces: a compressed file is never cut); else ``target_bytes`` (default 256 MiB) of
  input per partition;
- ``per``: ``game`` (a row per game) or ``ply`` (a row per ply of every valid game);
- ``include_invalid``: ``true`` keeps invalid games and other variants (``valid``,
  ``reason``, ``location`` say why);
- ``columns``, ``tags``: comma-separated, as :func:`pgn960.to_arrow` takes them;
- ``movetext`` (``true``/``false``), ``variant`` (``detect``/``chess960``/``double-chess960``),
  ``max_game_bytes``, ``assume_sp`` (``518`` or a pair ``588,301``; as
  :func:`pgn960.check` takes them),
  ``threads`` (worker threads per Spark task, default 1: Spark runs a task per core).

The DataFrame's schema is :func:`pgn960.schema` for these options, as a Spark schema with
the same nullability (Spark refuses batches whose schema differs from the declared one).
"""

from __future__ import annotations

import json
from typing import Iterator, Mapping

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.pandas.types import from_arrow_schema
from pyspark.sql.types import StructType

import pgn960

from ._plan import Range, parse_int, plan, stats_of_ranges, stats_options, table_options

__all__ = ["Pgn960DataSource", "RangesPartition", "register", "spark_schema", "stats"]


def register(spark) -> None:
    """Registers the ``pgn960`` format with a ``SparkSession``, so that
    ``spark.read.format("pgn960")`` reads PGN archives."""
    spark.dataSource.register(Pgn960DataSource)


def spark_schema(options: Mapping[str, object] | None = None) -> StructType:
    """The Spark schema of the DataFrame read with ``options`` (``per``, ``columns``,
    ``tags``, ``movetext``): the export schema with its types and nullability."""
    return from_arrow_schema(table_options(_lower(options or {})).schema())


def _lower(options: Mapping[str, object]) -> dict[str, object]:
    return {str(k).lower(): v for k, v in options.items()}


def _paths(options: Mapping[str, object]) -> list[str]:
    """The paths given to ``load``: Spark passes one as ``path``, several as ``paths``
    (a JSON list)."""
    if options.get("paths"):
        return list(json.loads(str(options["paths"])))
    if options.get("path"):
        return [str(options["path"])]
    raise pgn960.OptionError('no input given: spark.read.format("pgn960").load(paths)')


class RangesPartition(InputPartition):
    """One Spark partition: byte ranges ``(path, start, end, first_line)`` read in order."""

    def __init__(self, ranges: list[Range]) -> None:
        super().__init__(ranges)
        self.ranges = ranges


class Pgn960DataSource(DataSource):
    """The ``pgn960`` format of ``spark.read``: PGN archives as the game (or ply) table
    of ``pgn960 export``."""

    @classmethod
    def name(cls) -> str:
        return "pgn960"

    def schema(self) -> StructType:
        return spark_schema(self.options)

    def reader(self, schema: StructType) -> "Pgn960Reader":
        return Pgn960Reader(_lower(self.options))


class Pgn960Reader(DataSourceReader):
    """Plans the partitions on the driver; reads each on an executor."""

    def __init__(self, options: dict[str, object]) -> None:
        self.table = table_options(options)
        self.paths = _paths(options)
        count = options.get("partitions")
        target = options.get("target_bytes")
        self.partitions_asked = None if count is None else parse_int("partitions", count)
        self.target_bytes = None if target is None else parse_int("target_bytes", target)

    def partitions(self) -> list[RangesPartition]:
        parts = plan(
            self.paths, partitions=self.partitions_asked, target_bytes=self.target_bytes
        )
        return [RangesPartition(ranges) for ranges in parts]

    def read(self, partition: RangesPartition) -> Iterator[pa.RecordBatch]:
        return iter(self.table.batches(partition.ranges))


def stats(
    spark,
    paths,
    *,
    partitions: int | None = None,
    target_bytes: int | None = None,
    as_csv: bool = False,
    **options,
):
    """The per-SP table of the games of ``paths`` computed on the cluster, equal to
    ``pgn960 stats`` of the whole with the same options (``as_csv=True``: its CSV bytes,
    byte for byte), p- and q-values included, whatever ``strata``.

    The inputs are cut as the data source cuts them (``partitions``/``target_bytes``);
    each Spark task computes :func:`pgn960.stats` of its byte ranges (``options``: its
    keyword arguments, such as ``by``, ``strata`` or ``min_elo``) and the tables, a few
    KB each, travel to the driver with their strata tables (the per-stratum W/D/L the
    tests use), where :func:`pgn960.merge_stats` adds them up exactly — counts summed,
    significance recomputed over the whole within the same strata. Runs through
    ``mapInArrow`` (Spark Connect too); the executors need the same paths and the
    ``pgn960`` package."""
    options = stats_options(options)
    parts = plan(paths, partitions=partitions, target_bytes=target_bytes)

    def per_task(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            tables = [stats_of_ranges(parts[i], options) for i in batch.column(0).to_pylist()]
            yield pa.RecordBatch.from_pydict({
                "csv": pa.array([t[0] for t in tables], pa.binary()),
                "strata": pa.array([t[1] for t in tables], pa.binary()),
            })

    ids = spark.range(0, len(parts), 1, max(1, len(parts)))
    rows = ids.mapInArrow(per_task, "csv binary, strata binary").collect()
    tables = [_part(row["csv"], row["strata"]) for row in rows]
    return pgn960.merge_stats(tables, as_csv=as_csv)


def _part(csv, strata) -> bytes | tuple[bytes, bytes]:
    """A task's table as :func:`pgn960.merge_stats` takes it: its CSV bytes, with its
    strata table's when it has one."""
    return bytes(csv) if strata is None else (bytes(csv), bytes(strata))
