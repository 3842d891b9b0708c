#!/usr/bin/env python3
"""Spark ``local[2]`` reading PGN through ``pgn960.spark`` against ``pgn960 -j2 stats`` on
the same file and machine: the per-SP W/D/L table both ways, wall times, the ratio with the
JVM's start-up separated (issue 27). Not a timed test: a measurement to report.

Usage (the bulk file in /tmp, never in the repository):

    /work/shared/tools/make_bulk.sh corpus/lichess-style-4000.pgn /tmp/bulk300.pgn 300
    python benches/spark_vs_cli.py /tmp/bulk300.pgn [--partitions 8] [--repeat 3]

Needs the package installed (``maturin develop``), pyspark >= 4.0 and Java. The CLI is
``$PGN960_BIN`` or ``target/debug/pgn960``; compare it with an extension built in the same
profile (``maturin develop`` builds the dev profile, like ``target/debug``). The load
average is printed with the figures: on a shared machine they are figures under load.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WDL_SQL = """
select sp, count(*) as games,
       count(case when Result = '1-0' then 1 end) as white_wins,
       count(case when Result = '1/2-1/2' then 1 end) as draws,
       count(case when Result = '0-1' then 1 end) as black_wins
from games
where valid and variant = 'chess960' and black_sp is null and sp is not null
  and Result in ('1-0', '1/2-1/2', '0-1')
group by sp order by sp
"""


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def tree_cpu() -> float:
    """CPU seconds of this process and every process below it (the JVM and its Python
    workers), alive or reaped (psutil, a dependency of distributed); 0 without psutil."""
    try:
        import psutil
    except ImportError:
        return 0.0
    total = 0.0
    me = psutil.Process()
    for proc in [me, *me.children(recursive=True)]:
        try:
            t = proc.cpu_times()
        except psutil.Error:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_stats(binary: Path, path: str) -> tuple[float, float, list[tuple]]:
    """Wall and CPU seconds of ``pgn960 -j2 stats`` and its per-SP W/D/L rows."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "stats.csv"
        began, cpu = time.perf_counter(), children_cpu()
        done = subprocess.run(
            [str(binary), "-j2", "-q", "stats", path, "-o", str(out)], check=False
        )
        seconds, cpu = time.perf_counter() - began, children_cpu() - cpu
        if done.returncode not in (0, 1):
            sys.exit(f"pgn960 stats failed with exit {done.returncode}")
        rows = csv.DictReader(io.StringIO(out.read_text()))
        table = [
            (int(r["sp"]), int(r["games"]), int(r["white_wins"]), int(r["draws"]),
             int(r["black_wins"]))
            for r in rows
            if int(r["games"]) > 0
        ]
    return seconds, cpu, table


def start_spark():
    """A ``local[2]`` session with the format registered, and the seconds it took."""
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    began = time.perf_counter()
    from pyspark.sql import SparkSession

    import pgn960.spark

    spark = (
        SparkSession.builder.master("local[2]")
        .appName("pgn960-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    pgn960.spark.register(spark)
    return spark, time.perf_counter() - began


def spark_stats(spark, path: str, partitions: int) -> tuple[float, float, list[tuple]]:
    """Wall and CPU seconds (driver, JVM and workers) of the per-SP table by Spark SQL
    over the data source."""
    began, cpu = time.perf_counter(), tree_cpu()
    df = (
        spark.read.format("pgn960")
        .option("partitions", partitions)
        .option("columns", "valid,variant,sp,black_sp,Result")
        .load(path)
    )
    df.createOrReplaceTempView("games")
    table = [tuple(r) for r in spark.sql(WDL_SQL).collect()]
    return time.perf_counter() - began, tree_cpu() - cpu, table


def dask_stats(path: str, partitions: int) -> tuple[float, float, list[tuple]]:
    """Wall and CPU seconds of the per-SP table by ``pgn960.dask`` on a running
    ``LocalCluster``, counted by Dask itself (group by SP and Result)."""
    import pgn960.dask

    began, cpu = time.perf_counter(), tree_cpu()
    frame = pgn960.dask.read(
        path, partitions=partitions, columns="valid,variant,sp,black_sp,Result"
    )
    chess960 = frame[
        frame["valid"] & (frame["variant"] == "chess960") & frame["black_sp"].isna()
        & ~frame["sp"].isna() & frame["Result"].isin(["1-0", "1/2-1/2", "0-1"])
    ]
    counts = chess960.groupby(["sp", "Result"]).size().compute()
    by_sp: dict[int, dict[str, int]] = {}
    for (sp, result), n in counts.items():
        by_sp.setdefault(int(sp), {})[result] = int(n)
    table = [
        (sp, sum(c.values()), c.get("1-0", 0), c.get("1/2-1/2", 0), c.get("0-1", 0))
        for sp, c in sorted(by_sp.items())
    ]
    return time.perf_counter() - began, tree_cpu() - cpu, table


def run_dask(path: str, partitions: int, repeat: int, expected: list[tuple]) -> None:
    """Times ``pgn960.dask`` on ``LocalCluster(n_workers=2)``, start-up apart."""
    from distributed import Client, LocalCluster

    began = time.perf_counter()
    with LocalCluster(
        n_workers=2, threads_per_worker=1, dashboard_address=None
    ) as cluster, Client(cluster):
        startup = time.perf_counter() - began
        runs = []
        for _ in range(repeat + 1):
            wall, cpu, table = dask_stats(path, partitions)
            runs.append((wall, cpu))
            assert table == expected, "Dask's per-SP table differs from pgn960 stats"
    print(f"dask LocalCluster(2) start-up {startup:.2f} s; first job {runs[0][0]:.2f} s; "
          f"{partitions} partitions: wall, cpu {rounded(runs[1:])}; load {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("pgn", help="a plain PGN file (make one with make_bulk.sh)")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--dask", action="store_true", help="time pgn960.dask as well")
    parser.add_argument("--no-spark", action="store_true", help="leave Spark out")
    args = parser.parse_args()
    binary = Path(os.environ.get("PGN960_BIN", ROOT / "target" / "debug" / "pgn960"))
    size_mb = os.path.getsize(args.pgn) / 1e6
    print(f"input {args.pgn}: {size_mb:.0f} MB; cli {binary}; load {load()}")

    cli_runs, expected = [], None
    for _ in range(args.repeat):
        wall, cpu, expected = cli_stats(binary, args.pgn)
        cli_runs.append((wall, cpu))
    print(f"pgn960 -j2 stats: wall, cpu {rounded(cli_runs)}; load {load()}")

    if args.dask:
        run_dask(args.pgn, args.partitions, args.repeat, expected)
    if args.no_spark:
        return
    spark, startup = start_spark()
    # The first job also starts the Python workers: reported apart, with start-up.
    spark_runs = []
    for _ in range(args.repeat + 1):
        wall, cpu, table = spark_stats(spark, args.pgn, args.partitions)
        spark_runs.append((wall, cpu))
        assert table == expected, "Spark's per-SP table differs from pgn960 stats"
    spark.stop()
    (first, _), runs = spark_runs[0], spark_runs[1:]
    print(f"spark session start-up (JVM): {startup:.2f} s; first job {first:.2f} s")
    print(f"spark local[2], {args.partitions} partitions: wall, cpu {rounded(runs)}; "
          f"load {load()}")
    print(f"per-SP tables equal to pgn960 stats: {len(table)} SPs")
    best_cli, best_spark = min(cli_runs), min(runs)
    print(f"ratio spark/cli (best runs): wall {best_spark[0] / best_cli[0]:.2f}, "
          f"cpu {best_spark[1] / max(best_cli[1], 1e-9):.2f}; "
          f"wall with start-up and first job {(startup + first) / best_cli[0]:.2f}")
    print(f"throughput (wall): cli {size_mb / best_cli[0]:.0f} MB/s, "
          f"spark {size_mb / best_spark[0]:.0f} MB/s")


def rounded(runs: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(round(wall, 2), round(cpu, 2)) for wall, cpu in runs]

if __name__ == "__main__":
    main()
