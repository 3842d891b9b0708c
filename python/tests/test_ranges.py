"""How the distributed readers cut their inputs: random cut points read with
``read_range`` give every game exactly once, in order; partitions packed as asked."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pyarrow as pa
import pytest

import pgn960
from pgn960._plan import expand_globs, pack, plan
from conftest import FIXTURES, ROOT, fixture_files, shared_files

SHARED = Path(os.environ.get("PGN960_SHARED_DATA", ROOT.parent / "shared" / "data"))


def files_to_cut() -> list[str]:
    """The fixtures, and the corpus and real files of the shared data where it is (in CI
    its absence fails the test)."""
    files = fixture_files()
    if os.environ.get("CI") or SHARED.is_dir():
        files += shared_files()
    return [str(p) for p in files]


def test_random_cut_points_read_every_game_exactly_once_in_order():
    files = files_to_cut()
    wholes = {
        path: pgn960.to_arrow(path, columns="offset,valid,reason", include_invalid=True)
        for path in files
    }
    rng = random.Random(27)
    for case in range(200):
        path = rng.choice(files)
        size = len(open(path, "rb").read())
        cuts = sorted(rng.randrange(size + 1) for _ in range(rng.randint(1, 12)))
        bounds = [0, *cuts, size]
        pieces = [
            pgn960.read_range(
                path, a, b, columns="offset,valid,reason", include_invalid=True, threads=1
            ).read_all()
            for a, b in zip(bounds, bounds[1:])
        ]
        assert pa.concat_tables(pieces).equals(wholes[path]), (case, path, cuts)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64])
def test_partitions_asked_are_contiguous_ordered_and_as_many_as_asked(n):
    path = str(FIXTURES / "sample.pgn")
    parts = plan(path, partitions=n)
    ranges = [r for part in parts for r in part]
    assert ranges[0][1] == 0 and ranges[-1][2] == len(open(path, "rb").read())
    assert all(a[2] == b[1] for a, b in zip(ranges, ranges[1:]))
    games = pgn960.to_arrow(path, include_invalid=True).num_rows
    assert len(parts) == min(n, games) if n <= 7 else 1 <= len(parts) <= n
    read = [
        pgn960.read_range(p, s, e, first_line=line, columns="offset", include_invalid=True)
        .read_all()
        for p, s, e, line in ranges
    ]
    whole = pgn960.to_arrow(path, columns="offset", include_invalid=True)
    assert pa.concat_tables(read).equals(whole)


def test_pack_keeps_order_evens_out_bytes_and_joins_ranges_that_meet():
    ranges = [("f", i * 10, i * 10 + 10, i + 1) for i in range(40)]
    assert pack(ranges, 4) == [[("f", 0, 100, 1)], [("f", 100, 200, 11)],
                               [("f", 200, 300, 21)], [("f", 300, 400, 31)]]
    assert pack(ranges[:2], 4) == [[ranges[0]], [ranges[1]]]
    files = [("a", 0, 10, 1), ("a", 10, 20, 3), ("b", 0, 10, 1), ("b", 10, 20, 2)]
    assert pack(files, 1) == [[("a", 0, 20, 1), ("b", 0, 20, 1)]]


def test_partitions_carry_the_line_of_their_first_byte():
    for path in files_to_cut():
        data = open(path, "rb").read()
        parts = pgn960.partitions(path, target_bytes=max(1, len(data) // 9))
        lines = [1 + len(re.findall(rb"\r\n|\r|\n", data[: p.start])) for p in parts]
        assert [p.first_line for p in parts] == lines, path
        assert all(isinstance(p, pgn960.Partition) and p.path == path for p in parts)


def test_rejects_read_through_partitions_keep_the_locations_of_a_whole_read():
    columns = "offset,valid,reason,location"
    for path in files_to_cut():
        whole = pgn960.to_arrow(path, columns=columns, include_invalid=True)
        size = os.path.getsize(path)
        parts = pgn960.partitions(path, target_bytes=max(1, size // 7))
        read = [
            pgn960.read_range(
                p.path, p.start, p.end, first_line=p.first_line, columns=columns,
                include_invalid=True, threads=1,
            ).read_all()
            for p in parts
        ]
        joined = pa.concat_tables(read)
        assert joined.equals(whole), path
    rejects = pgn960.to_arrow(str(FIXTURES / "check" / "reasons.pgn"), columns="location",
                              include_invalid=True)
    assert rejects["location"].null_count < rejects.num_rows


def test_a_glob_matching_nothing_is_an_option_error(tmp_path):
    with pytest.raises(pgn960.OptionError):
        expand_globs(str(tmp_path / "*.pgn"))
    assert expand_globs(str(FIXTURES / "pgn" / "*.pgn")) == sorted(
        str(p) for p in (FIXTURES / "pgn").glob("*.pgn")
    )
