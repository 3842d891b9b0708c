"""Shared helpers of the pgn960 Python tests: where the fixtures, the shared test data and
the ``pgn960`` command are, and skipping that fails in CI (``$CI`` set), as the Rust tests
do."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


def need(what: str) -> None:
    """Skips the test for want of ``what``; in CI a missing requirement fails."""
    if os.environ.get("CI"):
        pytest.fail(f"CI is set and {what} is missing")
    pytest.skip(f"{what} is missing")


def shared_data() -> Path:
    """The shared test data directory (``$PGN960_SHARED_DATA`` or ``../shared/data``)."""
    path = Path(os.environ.get("PGN960_SHARED_DATA", ROOT.parent / "shared" / "data"))
    if not path.is_dir():
        need(f"the shared test data ({path})")
    return path


def fixture_files() -> list[Path]:
    """Every PGN fixture of the repository."""
    files = [FIXTURES / "sample.pgn", FIXTURES / "check" / "reasons.pgn"]
    files += sorted((FIXTURES / "pgn").glob("*.pgn"))
    return files


def shared_files() -> list[Path]:
    """The corpus and the real Chess960 files of the shared data."""
    data = shared_data()
    files = [data / "corpus" / "lichess-style-4000.pgn"]
    files += sorted(p for p in (data / "pgn").rglob("*.pgn") if p.is_file())
    return files


def cli() -> Path:
    """The ``pgn960`` binary of this checkout (``$PGN960_BIN`` or target/debug)."""
    path = Path(os.environ.get("PGN960_BIN", ROOT / "target" / "debug" / "pgn960"))
    if not path.is_file():
        need(f"the pgn960 binary ({path}; cargo build)")
    return path


def run_cli(*args: str | Path) -> subprocess.CompletedProcess:
    """Runs ``pgn960`` (exit 0 or 1: 1 means some games were invalid)."""
    done = subprocess.run(
        [str(cli()), *map(str, args)], capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done


def cli_check(path: Path) -> dict:
    """``pgn960 check --json`` of a file."""
    return json.loads(run_cli("check", "-q", "--json", path).stdout)


def module(name: str):
    """Imports an optional test dependency (python-chess, polars, DuckDB), skipping
    without it (failing in CI)."""
    try:
        return __import__(name)
    except ImportError:
        need(f"the Python module {name}")


def cli_wdl(*inputs: str | Path) -> list[tuple[int, int, int, int, int]]:
    """``(sp, games, white_wins, draws, black_wins)`` of every SP with games in
    ``pgn960 stats`` of ``inputs``."""
    import csv
    import io

    rows = csv.DictReader(io.StringIO(run_cli("stats", "-q", *inputs).stdout))
    return [
        (int(r["sp"]), int(r["games"]), int(r["white_wins"]), int(r["draws"]),
         int(r["black_wins"]))
        for r in rows
        if int(r["games"]) > 0
    ]


#: Per-SP W/D/L in SQL over a game table called ``games`` (Spark SQL and DuckDB alike):
#: valid Chess960 games of one start position (no Double Chess960) with a decisive or
#: drawn Result, as ``pgn960 stats`` counts them.
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
