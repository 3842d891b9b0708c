"""The analyses: pgn960.stats, merge_stats, tree and pentanomials equal the command's CSV
(read with the same column types), on the fixtures and the shared corpus."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute)
import pytest

import pgn960
from conftest import FIXTURES, fixture_files, run_cli, shared_data


def corpus() -> Path:
    return shared_data() / "corpus" / "lichess-style-4000.pgn"


def cli_table(tmp_path: Path, *args, text=()):
    out = tmp_path / "table.csv"
    run_cli(*args, "-q", "-o", out)
    return pgn960.table_from_csv(out, text=text)


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: p.name)
def test_stats_of_each_fixture_equals_the_command(tmp_path, path):
    assert pgn960.stats(path).equals(cli_table(tmp_path, "stats", path))


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"by": ["time-control", "month"]}, ["--by", "time-control,month"]),
        ({"headers_only": True, "min_elo": 1800}, ["--headers-only", "--min-elo", "1800"]),
        ({"by": "rating-band", "band_width": 100}, ["--by", "rating-band", "--band-width", "100"]),
        ({"time_control": "blitz,rapid", "since": "2024.01.01"},
         ["--time-control", "blitz,rapid", "--since", "2024.01.01"]),
    ],
)
def test_stats_of_the_corpus_equals_the_command(tmp_path, kwargs, flags):
    path = corpus()
    table = pgn960.stats(path, **kwargs)
    assert table.num_rows >= 960
    assert table.equals(cli_table(tmp_path, "stats", path, *flags))


def test_the_double_chess960_table_equals_the_command(tmp_path):
    path = corpus()
    dfrc = tmp_path / "dfrc.csv"
    run_cli("stats", "-q", path, "-o", tmp_path / "sp.csv", "--dfrc-table", dfrc)
    table = pgn960.stats(path, double_chess960=True)
    assert table.equals(pgn960.table_from_csv(dfrc))


def test_merge_stats_of_partitions_equals_stats_of_the_whole():
    path = corpus()
    parts = pgn960.partitions(path, target_bytes=300_000)
    assert len(parts) > 2
    for by in (None, "month"):
        for strata in ("event", "time-control", "none"):
            tables = [pgn960.stats(part, by=by, strata=strata) for part in parts]
            merged = pgn960.merge_stats(tables)
            whole = pgn960.stats(path, by=by, strata=strata)
            assert merged.equals(whole), (by, strata)
            # The merged table carries the merged strata, as the whole does: merges nest.
            assert pgn960.merge_stats([merged]).equals(whole)
            assert merged.schema.metadata == whole.schema.metadata


def cli_csv(tmp_path: Path, *args) -> bytes:
    """The CSV file ``pgn960 stats`` writes."""
    out = tmp_path / "cli.csv"
    run_cli("stats", "-q", *args, "-o", out)
    return out.read_bytes()


@pytest.mark.parametrize(
    "kwargs, flags",
    [
        ({}, []),
        ({"strata": "time-control"}, ["--strata", "time-control"]),
        ({"by": "month,time-control"}, ["--by", "month,time-control"]),
        ({"by": "event", "strata": "time-control"}, ["--by", "event", "--strata", "time-control"]),
        ({"min_elo": 1800, "headers_only": True}, ["--min-elo", "1800", "--headers-only"]),
        ({"strata": "none"}, ["--strata", "none"]),
    ],
)
def test_the_exact_merge_route_gives_the_command_csv_byte_for_byte(tmp_path, kwargs, flags):
    path = corpus()
    expected = cli_csv(tmp_path, path, *flags)
    for target in (150_000, 1_000_000):
        parts = pgn960.partitions(path, target_bytes=target)
        tables = [pgn960.stats(p, **kwargs) for p in parts]
        assert pgn960.merge_stats(tables, as_csv=True) == expected, target
        assert pgn960.merge_stats(list(reversed(tables)), as_csv=True) == expected
    # CSV bytes with their strata tables as pairs: the files the command writes.
    pairs = []
    for i, p in enumerate(pgn960.partitions(path, target_bytes=400_000)):
        csv = pgn960.stats(p.path, start=p.start, end=p.end, first_line=p.first_line,
                           as_csv=True, **kwargs)
        assert isinstance(csv, bytes)
        strata = pgn960.stats(p, **kwargs).schema.metadata
        pairs.append(csv if strata is None else (csv, strata[pgn960.STRATA_METADATA]))
    assert pgn960.merge_stats(pairs, as_csv=True) == expected


def test_strata_tables_are_those_of_the_command_and_travel_with_the_tables(tmp_path):
    """A table's strata are the file ``--strata-table`` writes; they survive pickling;
    CSV bytes alone merge to the table of ``--strata none``; strata of some tables only
    are refused."""
    import pickle

    files = [shared_data() / "pgn"]
    out, strata = tmp_path / "t.csv", tmp_path / "s.csv"
    run_cli("stats", "-q", *files, "-o", out, "--strata-table", strata)
    table = pgn960.stats(files)
    assert table.schema.metadata[pgn960.STRATA_METADATA] == strata.read_bytes()
    assert pickle.loads(pickle.dumps(table)).schema.metadata == table.schema.metadata
    assert pgn960.stats(files, strata="none").schema.metadata is None
    assert pgn960.stats(files, double_chess960=True).schema.metadata is None
    from_files = pgn960.merge_stats([(out.read_bytes(), strata.read_bytes())], as_csv=True)
    assert from_files == out.read_bytes()
    parts = pgn960.partitions(files, target_bytes=200_000)
    csvs = [pgn960.stats(p, as_csv=True) for p in parts]
    assert pgn960.merge_stats(csvs, as_csv=True) == cli_csv(tmp_path, *files, "--strata", "none")
    # Within events the table differs from one table's: the strata matter here.
    assert out.read_bytes() != cli_csv(tmp_path, *files, "--strata", "none")
    tables = [pgn960.stats(p) for p in parts]
    with pytest.raises(pgn960.Error, match="do not add up"):
        pgn960.merge_stats([tables[0], *csvs[1:]])
    with pytest.raises(TypeError):
        pgn960.merge_stats([tables[0], 3])


def test_stats_of_a_range_of_the_real_files_merge_to_the_command(tmp_path):
    files = [shared_data() / "pgn"]
    expected = cli_csv(tmp_path, *files)
    parts = pgn960.partitions(files, target_bytes=200_000)
    assert len({p.path for p in parts}) > 1
    tables = [pgn960.stats(p) for p in parts]
    assert pgn960.merge_stats(tables, as_csv=True) == expected


def test_a_range_of_several_inputs_or_a_bad_range_is_an_option_error():
    with pytest.raises(pgn960.OptionError):
        pgn960.stats([FIXTURES / "sample.pgn", FIXTURES / "sample.pgn"], start=0, end=10)
    with pytest.raises(pgn960.OptionError):
        pgn960.stats(FIXTURES / "sample.pgn", start=0)
    part = pgn960.partitions(FIXTURES / "sample.pgn")[0]
    with pytest.raises(pgn960.OptionError):
        pgn960.stats(part, start=0, end=10)


def test_merge_stats_refuses_tables_of_other_keys():
    path = FIXTURES / "sample.pgn"
    with pytest.raises(pgn960.Error, match="same keys"):
        pgn960.merge_stats([pgn960.stats(path), pgn960.stats(path, by="year")])


@pytest.mark.parametrize("depth, sp", [(2, None), (3, "0-99,518"), (1, 518)])
def test_tree_equals_the_command(tmp_path, depth, sp):
    path = corpus()
    flags = ["--depth", str(depth)] + ([] if sp is None else ["--sp", str(sp)])
    table = pgn960.tree(path, depth=depth, sp=sp)
    assert table.num_rows > 0
    assert table.equals(cli_table(tmp_path, "tree", path, *flags))


def test_tree_of_each_fixture_equals_the_command(tmp_path):
    for path in fixture_files():
        assert pgn960.tree(path).equals(cli_table(tmp_path, "tree", path, "--depth", "2"))


def test_pentanomials_equal_the_pairs_table(tmp_path):
    path = corpus()
    pairs = tmp_path / "pairs.csv"
    run_cli("stats", "-q", path, "-o", tmp_path / "sp.csv", "--pairs", pairs)
    table = pgn960.pentanomials(path)
    assert table.equals(pgn960.table_from_csv(pairs, text=("player_a", "player_b", "sp")))
    assert table.column("sp")[-1].as_py() in ("total", None) or table.num_rows == 0


def test_bad_options_are_option_errors():
    path = FIXTURES / "sample.pgn"
    with pytest.raises(pgn960.OptionError):
        pgn960.stats(path, by="colour")
    with pytest.raises(pgn960.OptionError):
        pgn960.tree(path, depth=0)
    with pytest.raises(pgn960.OptionError):
        pgn960.tree(path, sp="960")
    with pytest.raises(pgn960.OptionError):
        pgn960.stats(path, time_control="lightning")


def test_pentanomials_of_engine_matches_equal_the_pairs_table(tmp_path):
    matches = sorted((shared_data() / "pgn" / "tcec").glob("*.pgn"))
    assert matches
    paired = 0
    for path in matches:
        pairs = tmp_path / "pairs.csv"
        run_cli("stats", "-q", path, "-o", tmp_path / "sp.csv", "--pairs", pairs)
        table = pgn960.pentanomials(path)
        assert table.equals(pgn960.table_from_csv(pairs, text=("player_a", "player_b", "sp"))), path
        paired += table.column("pairs")[-1].as_py()
    assert paired > 0


@pytest.mark.parametrize(
    "kwargs, flags",
    [({}, []), ({"by": "month"}, ["--by", "month"]), ({"strata": "none"}, ["--strata", "none"])],
)
def test_sp_groups_equal_the_command_for_the_whole_and_merged_partitions(tmp_path, kwargs, flags):
    path = corpus()
    groups = tmp_path / "groups.csv"
    run_cli("stats", "-q", path, *flags, "-o", tmp_path / "t.csv", "--groups", groups)
    expected = groups.read_bytes()
    assert pgn960.sp_groups(pgn960.stats(path, **kwargs), as_csv=True) == expected
    parts = [pgn960.stats(p, **kwargs) for p in pgn960.partitions(path, target_bytes=300_000)]
    assert len(parts) > 2
    assert pgn960.sp_groups(parts, as_csv=True) == expected
    table = pgn960.sp_groups(parts)
    assert table.column_names[-18:][:3] == ["feature", "group", "sps"]
    assert table.schema.field("sps").type == pa.string()
    assert table.schema.field("homogeneity_p").type == pa.float64()
    assert table.equals(pgn960.table_from_csv(expected, text=("feature", "group", "sps")))
    # Each feature's groups cover every game of its cell once.
    if not kwargs:
        games = pgn960.stats(path).column("games").to_pylist()
        for feature in set(table.column("feature").to_pylist()):
            rows = table.filter(pa.compute.equal(table.column("feature"), feature))
            assert sum(rows.column("games").to_pylist()) == sum(games), feature


def test_sp_groups_of_csv_bytes_alone_are_tested_as_one_table(tmp_path):
    path = corpus()
    flat = tmp_path / "flat.csv"
    run_cli("stats", "-q", path, "--strata", "none", "-o", tmp_path / "t.csv", "--groups", flat)
    csvs = [pgn960.stats(p, as_csv=True) for p in pgn960.partitions(path, target_bytes=300_000)]
    assert pgn960.sp_groups(csvs, as_csv=True) == flat.read_bytes()
    with pytest.raises(pgn960.OptionError, match="no SP table"):
        pgn960.sp_groups(pgn960.stats(path, double_chess960=True, as_csv=True))
