"""Tables read by pyarrow, polars and DuckDB; ``scan``; byte ranges and partitions."""

from __future__ import annotations

import csv
import io
import random

import pyarrow as pa
import pytest

import pgn960
from conftest import fixture_files, run_cli, shared_data, module


def corpus():
    return str(shared_data() / "corpus" / "lichess-style-4000.pgn")


def test_duckdb_group_by_sp_equals_the_stats_command():
    duckdb = module("duckdb")
    table = pgn960.to_arrow(corpus(), columns="sp,variant,Result,valid")
    rows = duckdb.sql(
        """select sp, count(*) as games,
                  count(*) filter (where Result = '1-0') as white_wins,
                  count(*) filter (where Result = '1/2-1/2') as draws,
                  count(*) filter (where Result = '0-1') as black_wins
           from "table" where valid and variant = 'chess960' and sp is not null
           group by sp order by sp"""
    ).fetchall()
    stats = list(csv.DictReader(io.StringIO(run_cli("stats", "-q", corpus()).stdout)))
    expected = [
        (int(r["sp"]), int(r["games"]), int(r["white_wins"]), int(r["draws"]),
         int(r["black_wins"]))
        for r in stats
        if int(r["games"]) > 0
    ]
    assert rows == expected


def test_polars_and_duckdb_read_the_stream_without_a_copy():
    pl = module("polars")
    duckdb = module("duckdb")
    whole = pgn960.to_arrow(corpus(), columns="sp,plies")
    frame = pl.from_arrow(pgn960.scan(corpus(), columns="sp,plies").read_all())
    assert frame.height == whole.num_rows
    assert frame["plies"].sum() == pa.compute.sum(whole["plies"]).as_py()
    reader = pgn960.scan(corpus(), columns="sp,plies")
    total = duckdb.sql("select sum(plies) as n from reader").fetchall()[0][0]
    assert total == frame["plies"].sum()


def test_scan_streams_the_same_rows_in_batches():
    reader = pgn960.scan(corpus(), per="ply", columns="offset,ply,uci", threads=2)
    assert isinstance(reader, pa.RecordBatchReader)
    batches = list(reader)
    assert len(batches) > 1
    table = pa.Table.from_batches(batches)
    assert table.equals(pgn960.to_arrow(corpus(), per="ply", columns="offset,ply,uci"))


def test_read_range_over_random_partitions_equals_the_whole():
    rng = random.Random(960)
    files = [corpus()] + [str(p) for p in fixture_files()]
    for path in files:
        whole = pgn960.to_arrow(path, include_invalid=True)
        size = len(open(path, "rb").read())
        for _ in range(3):
            target = rng.randint(max(1, size // 40), max(2, size // 2))
            parts = pgn960.partitions(path, target_bytes=target)
            assert parts[0][1] == 0 and parts[-1][2] == size
            assert all(a[2] == b[1] for a, b in zip(parts, parts[1:]))
            tables = [
                pgn960.read_range(p, s, e, line, include_invalid=True).read_all()
                for p, s, e, line in parts
            ]
            joined = pa.concat_tables(tables)
            assert joined.equals(whole), (path, target)
        cuts = sorted(rng.randrange(size) for _ in range(rng.randint(1, 12)))
        bounds = [0, *cuts, size]
        tables = [
            pgn960.read_range(path, a, b, include_invalid=True).read_all()
            for a, b in zip(bounds, bounds[1:])
        ]
        assert pa.concat_tables(tables).equals(whole), (path, cuts)


def test_a_compressed_file_is_one_partition(tmp_path):
    import gzip as gz
    path = tmp_path / "sample.pgn.gz"
    path.write_bytes(gz.compress((fixture_files()[0]).read_bytes()))
    parts = pgn960.partitions(str(path), target_bytes=100)
    assert len(parts) == 1
    assert pgn960.read_range(*parts[0]).read_all().num_rows > 0
    with pytest.raises(pgn960.OptionError) as err:
        pgn960.read_range(str(path), 1, parts[0][2])
    assert err.value.path == str(path)


def test_directories_and_lists_are_inputs():
    files = [str(p) for p in fixture_files()[2:]]
    by_list = pgn960.to_arrow(files, include_invalid=True)
    by_dir = pgn960.to_arrow(str(fixture_files()[2].parent), include_invalid=True)
    assert by_list.equals(by_dir)
