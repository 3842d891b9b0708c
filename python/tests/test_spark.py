"""``pgn960.spark``: the Spark Python Data Source on ``local[2]`` (one SparkSession for the
whole run) against ``pgn960 check``/``stats`` and a whole read, on the corpus and the real
files of the shared data."""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter

import pyarrow as pa
import pytest

import pgn960
from conftest import FIXTURES, WDL_SQL, cli_check, cli_wdl, need, run_cli, shared_data


def _pyspark():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        need("the Python module pyspark (pip install 'pyspark>=4.0')")
    if not (shutil.which("java") or os.environ.get("JAVA_HOME")):
        need("Java (for Spark)")


@pytest.fixture(scope="session")
def spark():
    """One ``local[2]`` SparkSession for every Spark test (its JVM takes seconds to
    start), with the pgn960 format registered."""
    _pyspark()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    import pgn960.spark

    session = (
        SparkSession.builder.master("local[2]")
        .appName("pgn960-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    pgn960.spark.register(session)
    yield session
    session.stop()


#: The columns the comparisons read (the whole schema is read by the .zst test).
TABLE_COLUMNS = "source,offset,valid,variant,sp,black_sp,Result"


def corpus():
    return str(shared_data() / "corpus" / "lichess-style-4000.pgn")


def real_files():
    return str(shared_data() / "pgn")


def wdl(spark, df):
    df.createOrReplaceTempView("games")
    return [tuple(row) for row in spark.sql(WDL_SQL).collect()]


def places(df):
    return Counter((r["source"], r["offset"]) for r in df.select("source", "offset").collect())


def test_the_spark_schema_is_the_export_schema_with_its_nullability():
    _pyspark()
    from pyspark.sql.pandas.types import to_arrow_schema

    import pgn960.spark

    for options in [{}, {"per": "ply"}, {"tags": "Round,Annotator", "movetext": "true"}]:
        arrow = pgn960.schema(
            per=options.get("per", "game"),
            tags=options.get("tags"),
            movetext=options.get("movetext") == "true",
        )
        spark_schema = pgn960.spark.spark_schema(options)
        assert spark_schema.fieldNames() == arrow.names
        assert [f.nullable for f in spark_schema] == [f.nullable for f in arrow]
        # The worker refuses a batch whose schema is not this one.
        assert to_arrow_schema(spark_schema, timezone="UTC").equals(arrow)


@pytest.mark.parametrize("inputs", [corpus, real_files], ids=["corpus", "real-files"])
@pytest.mark.parametrize("n", [1, 4, 8])
def test_partitions_as_asked_give_the_table_and_stats_of_the_whole(spark, inputs, n):
    path = inputs()
    df = (
        spark.read.format("pgn960")
        .option("partitions", n)
        .option("include_invalid", "true")
        .option("columns", TABLE_COLUMNS)
        .load(path)
        .cache()
    )
    assert df.rdd.getNumPartitions() == n
    assert df.count() == cli_check(path)["games_read"]
    whole = pgn960.to_arrow(path, columns="source,offset", include_invalid=True)
    assert places(df) == Counter(zip(whole["source"].to_pylist(), whole["offset"].to_pylist()))
    assert wdl(spark, df) == cli_wdl(path)


def test_paths_globs_and_a_directory_read_alike(spark):
    tcec = shared_data() / "pgn" / "tcec"
    files = sorted(str(p) for p in tcec.glob("*.pgn"))
    by_list = spark.read.format("pgn960").option("columns", "source,offset").load(files)
    by_glob = spark.read.format("pgn960").option("columns", "source,offset").load(
        str(tcec / "*.pgn")
    )
    by_dir = spark.read.format("pgn960").option("columns", "source,offset").load(str(tcec))
    expected = places(by_list)
    assert sum(expected.values()) == sum(cli_check(f)["games_read"] for f in files)
    assert places(by_glob) == expected
    assert places(by_dir) == expected


@pytest.mark.parametrize(
    "name, make",
    [
        ("corpus.pgn.zst", ["clean", "-q"]),
        ("corpus.parquet", ["export", "-q", "--movetext"]),
    ],
    ids=["zst", "lichess-parquet"],
)
def test_a_compressed_file_or_parquet_table_is_one_partition(spark, tmp_path, name, make):
    path = tmp_path / name
    run_cli(*make, corpus(), "-o", path)
    df = spark.read.format("pgn960").option("partitions", 4).load(str(path))
    assert df.rdd.getNumPartitions() == 1
    assert df.count() == cli_check(path)["games_read"]
    assert wdl(spark, df) == cli_wdl(path)


def test_invalid_games_come_with_their_reasons_when_asked(spark):
    path = str(FIXTURES / "check" / "reasons.pgn")
    report = cli_check(path)
    everything = (
        spark.read.format("pgn960").option("partitions", 4).option("include_invalid", "true")
    ).load(path)
    assert everything.count() == report["games_read"]
    rows = everything.where("not valid").select("reason", "location").collect()
    rejected = Counter((r["reason"], r["location"]) for r in rows if r["location"])
    assert rejected == Counter(
        (p["reason"], f"{p['line']}:{p['column']}") for p in report["first_problems"]
    )
    other = [r["reason"] for r in rows if not r["location"]]
    assert other == ["unsupported-variant"] * report["unsupported_variant"]
    only_valid = spark.read.format("pgn960").option("partitions", 4).load(path)
    assert only_valid.count() == report["valid"]
    assert only_valid.where("not valid").count() == 0


def test_plies_columns_and_tags_as_to_arrow_gives_them(spark):
    path = corpus()
    df = (
        spark.read.format("pgn960")
        .option("partitions", 4)
        .option("per", "ply")
        .option("columns", "offset,ply,uci")
        .load(path)
    )
    assert df.columns == ["offset", "ply", "uci"]
    whole = pgn960.to_arrow(path, per="ply", columns="offset,ply,uci")
    assert df.count() == whole.num_rows
    assert df.selectExpr("sum(ply)").collect()[0][0] == pa.compute.sum(whole["ply"]).as_py()
    tagged = spark.read.format("pgn960").option("tags", "Round").load(path)
    assert tagged.columns == pgn960.schema(tags="Round").names
    assert "Round" in tagged.columns
    picked = tagged.select("offset", "Round").orderBy("offset").collect()
    rounds = pgn960.to_arrow(path, columns="Round", tags="Round")["Round"].to_pylist()
    assert [r["Round"] for r in picked] == rounds


def test_a_bad_option_is_an_error_naming_it(spark):
    from pyspark.errors import PySparkException

    with pytest.raises((PySparkException, pgn960.Error)) as err:
        spark.read.format("pgn960").option("per", "move").load(corpus()).count()
    assert "per" in str(err.value)


@pytest.mark.parametrize("n", [1, 4, 8])
@pytest.mark.parametrize("inputs", ["corpus", "real"])
def test_the_exact_merge_route_gives_the_command_csv_byte_for_byte(spark, tmp_path, n, inputs):
    import pgn960.spark

    path = corpus() if inputs == "corpus" else real_files()
    out = tmp_path / "cli.csv"
    # The command's default table: tested within events (the real files hold many).
    run_cli("stats", "-q", path, "-o", out)
    got = pgn960.spark.stats(spark, path, partitions=n, as_csv=True)
    assert got == out.read_bytes()
    if n == 4:
        for flags, kwargs in [
            (["--by", "month"], {"by": "month"}),
            (["--strata", "time-control"], {"strata": "time-control"}),
            (["--strata", "none"], {"strata": "none"}),
        ]:
            cut = tmp_path / "cut.csv"
            run_cli("stats", "-q", path, *flags, "-o", cut)
            table = pgn960.spark.stats(spark, path, partitions=n, **kwargs)
            assert table.equals(pgn960.table_from_csv(cut)), flags
