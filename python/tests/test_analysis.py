"""The analyses: pgn960.stats, merge_stats, tree and pentanomials equal the command's CSV
(read with the same column types), on the fixtures and the shared corpus."""

from __future__ import annotations

from pathlib import Path

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


def test_merge_stats_of_partitions_equals_stats_of_the_whole(tmp_path):
    path = corpus()
    parts = pgn960.partitions(path, target_bytes=300_000)
    assert len(parts) > 2
    for by in (None, "month"):
        tables = [_stats_of_piece(tmp_path, part, by) for part in parts]
        merged = pgn960.merge_stats(tables)
        assert merged.equals(pgn960.stats(path, by=by))


def _stats_of_piece(tmp_path: Path, part, by):
    """The stats of the games of one partition, written to a file of their own."""
    name, start, end, _ = part
    piece = tmp_path / f"piece-{start}.pgn"
    piece.write_bytes(Path(name).read_bytes()[start:end])
    return pgn960.stats(piece, by=by)


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
    assert table.equals(pgn960.table_from_csv(pairs, text=("sp",)))
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
        assert table.equals(pgn960.table_from_csv(pairs, text=("sp",))), path
        paired += table.column("pairs")[-1].as_py()
    assert paired > 0
