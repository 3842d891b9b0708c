"""``pgn960.dask.read`` on a ``LocalCluster`` of two worker processes against
``pgn960 check``/``stats`` and a whole read, on the corpus and the real files."""

from __future__ import annotations

from collections import Counter

import pytest

import pgn960
from conftest import WDL_SQL, cli_check, cli_wdl, module, run_cli, shared_data


@pytest.fixture(scope="module")
def client():
    """A ``LocalCluster(n_workers=2)`` (one thread each) and its client."""
    module("dask")
    distributed = module("distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        yield client


COLUMNS = "source,offset,valid,variant,sp,black_sp,Result"


@pytest.mark.parametrize("inputs", ["corpus/lichess-style-4000.pgn", "pgn"])
def test_a_local_cluster_gives_the_table_and_stats_of_the_whole(client, inputs):
    import pgn960.dask

    duckdb = module("duckdb")
    path = str(shared_data() / inputs)
    frame = pgn960.dask.read(path, partitions=4, columns=COLUMNS, include_invalid=True)
    assert frame.npartitions == 4
    games = client.compute(frame).result()
    assert list(games.columns) == COLUMNS.split(",")
    assert len(games) == cli_check(path)["games_read"]
    whole = pgn960.to_arrow(path, columns="source,offset", include_invalid=True)
    expected = Counter(zip(whole["source"].to_pylist(), whole["offset"].to_pylist()))
    assert Counter(zip(games["source"], games["offset"])) == expected
    assert duckdb.sql(WDL_SQL).fetchall() == cli_wdl(path)


def test_per_sp_counts_by_dask_itself_equal_the_stats_command(client):
    import pgn960.dask

    path = str(shared_data() / "corpus" / "lichess-style-4000.pgn")
    frame = pgn960.dask.read(path, partitions=4, columns="valid,variant,sp,black_sp,Result")
    chess960 = frame[
        frame["valid"] & (frame["variant"] == "chess960") & frame["black_sp"].isna()
        & ~frame["sp"].isna() & frame["Result"].isin(["1-0", "1/2-1/2", "0-1"])
    ]
    counts = chess960.groupby(["sp", "Result"]).size().compute()
    table = {}
    for (sp, result), n in counts.items():
        table.setdefault(int(sp), Counter())[result] = int(n)
    got = [
        (sp, sum(c.values()), c["1-0"], c["1/2-1/2"], c["0-1"]) for sp, c in sorted(table.items())
    ]
    assert got == cli_wdl(path)


@pytest.mark.parametrize("inputs", ["corpus/lichess-style-4000.pgn", "pgn"])
@pytest.mark.parametrize("flags", [[], ["--by", "year"]], ids=["default", "by-year"])
def test_the_exact_merge_route_gives_the_command_csv_byte_for_byte(
    client, tmp_path, inputs, flags
):
    import pgn960.dask

    path = str(shared_data() / inputs)
    out = tmp_path / "cli.csv"
    # The command's default table: tested within events (the real files hold many).
    run_cli("stats", "-q", path, *flags, "-o", out)
    kwargs = {"by": "year"} if flags else {}
    got = pgn960.dask.stats(path, partitions=4, as_csv=True, **kwargs)
    assert got == out.read_bytes()
