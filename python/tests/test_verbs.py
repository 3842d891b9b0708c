"""The writing verbs as functions: ``pgn960.check`` and ``pgn960.clean`` give the command's
counts and write the command's files byte for byte (fixtures, the shared corpus and the
real files of ``../shared/data``), atomically, with typed errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pgn960
from conftest import cli, fixture_files, run_cli, shared_files

#: Option sets of ``clean``: Python keywords and the command's flags.
CLEAN_OPTIONS = [
    ({}, []),
    (
        {"dedupe": True, "strip_comments": True, "keep_annotations": "clk,eval"},
        ["--dedupe", "--strip-comments", "--keep-annotations", "clk,eval"],
    ),
    (
        {"fen_style": "shredder", "strip_variations": True, "min_plies": 10},
        ["--fen-style", "shredder", "--strip-variations", "--min-plies", "10"],
    ),
    ({"drop_bad_variations": True, "variant": "chess960"},
     ["--drop-bad-variations", "--variant", "chess960"]),
]


def files_of(directory: Path) -> dict[str, bytes]:
    """Every file of ``directory`` by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(directory.iterdir())}


def without_time(report: bytes) -> dict:
    """A JSON report without its wall-clock seconds."""
    value = json.loads(report)
    value.pop("seconds")
    return value


def same_outputs(cli_dir: Path, py_dir: Path) -> None:
    """The files of both runs are the same, byte for byte (a report but for its time)."""
    made, expected = files_of(py_dir), files_of(cli_dir)
    assert sorted(made) == sorted(expected)
    for name, data in expected.items():
        if name.endswith(".json"):
            assert without_time(made[name]) == without_time(data), name
        else:
            assert made[name] == data, name


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_clean_writes_the_commands_files(tmp_path, which):
    cli()
    files = fixture_files() if which == "fixtures" else shared_files()
    for n, path in enumerate(files):
        for m, (kwargs, flags) in enumerate(CLEAN_OPTIONS):
            cli_dir, py_dir = tmp_path / f"cli-{n}-{m}", tmp_path / f"py-{n}-{m}"
            cli_dir.mkdir()
            py_dir.mkdir()
            run_cli("clean", "-q", path, "-o", cli_dir / "out.pgn",
                    "--report", cli_dir / "report.json", *flags)
            summary = pgn960.clean(str(path), py_dir / "out.pgn",
                                   report=py_dir / "report.json", **kwargs)
            same_outputs(cli_dir, py_dir)
            report = json.loads((cli_dir / "report.json").read_bytes())
            assert summary.games == report["games_read"]
            assert summary.written == report["written"]
            assert summary.invalid == report["rejected"]
            assert summary.deduplicated == report["deduplicated"]
            assert summary.reasons == report["rejected_by_reason"]
            assert summary.repairs == report["repairs"]
            assert summary.games == summary.written + summary.invalid + summary.deduplicated
            expected = {"-o", "--report"}
            if summary.invalid:
                expected |= {"rejected games", "reasons of rejected games"}
            assert set(summary.outputs) == expected
            assert all(Path(p).is_file() for p in summary.outputs.values())


def test_clean_compresses_and_names_rejects_as_the_command(tmp_path):
    sample = fixture_files()[1]  # check/reasons.pgn: every reason
    for name, rejects in [("out.pgn.zst", None), ("out.pgn.gz", "bad.pgn")]:
        cli_dir, py_dir = tmp_path / f"cli-{name}", tmp_path / f"py-{name}"
        cli_dir.mkdir()
        py_dir.mkdir()
        flags = ["--rejects", cli_dir / rejects] if rejects else []
        run_cli("clean", "-q", sample, "-o", cli_dir / name, *flags)
        summary = pgn960.clean(sample, py_dir / name,
                               rejects=py_dir / rejects if rejects else None)
        same_outputs(cli_dir, py_dir)
        assert summary.invalid > 0
        assert Path(summary.outputs["rejected games"]).parent == py_dir


def test_check_counts_and_problems_are_the_commands():
    for path in fixture_files():
        report = json.loads(run_cli("check", "-q", "--json", "--max-errors", "5", path).stdout)
        summary = pgn960.check(str(path), max_errors=5)
        assert summary.games == report["games_read"] == (
            summary.valid + summary.unsupported + summary.invalid)
        assert summary.invalid == report["rejected"]
        assert summary.reasons == report["rejected_by_reason"]
        assert summary.variants == report["unsupported_by_variant"]
        assert summary.written == 0 and summary.outputs == {}
        keys = ["game", "line", "column", "byte_offset", "game_line", "reason"]
        assert [{k: p[k] for k in keys} for p in summary.problems] == [
            {k: p[k] for k in keys} for p in report["first_problems"]]


def test_a_clean_that_fails_leaves_no_file(tmp_path):
    sample = fixture_files()[0]
    copy = tmp_path / "games.pgn"
    copy.write_bytes(sample.read_bytes())
    before = files_of(tmp_path)
    with pytest.raises(pgn960.Error, match="one of the inputs"):
        pgn960.clean(copy, copy)
    with pytest.raises(pgn960.Error, match="same file"):
        pgn960.clean(copy, tmp_path / "out.pgn", report=tmp_path / "out.pgn")
    with pytest.raises(pgn960.IoError) as missing:
        pgn960.clean(tmp_path / "absent.pgn", tmp_path / "out.pgn")
    assert missing.value.path is not None and "absent.pgn" in missing.value.path
    with pytest.raises(pgn960.IoError):
        pgn960.clean(copy, tmp_path / "no-such-dir" / "out.pgn")
    with pytest.raises(pgn960.OptionError):
        pgn960.clean(copy, tmp_path / "out.pgn", keep_annotations="clk")
    with pytest.raises(pgn960.OptionError):
        pgn960.clean(copy, tmp_path / "out.pgn", fen_style="lichess")
    assert files_of(tmp_path) == before


def test_an_input_with_no_game_is_an_input_error_naming_it(tmp_path):
    empty = tmp_path / "notes.pgn"
    empty.write_text("no games here\n")
    with pytest.raises(pgn960.InputError) as error:
        pgn960.clean(empty, tmp_path / "out.pgn")
    assert error.value.path == str(empty)
    assert not (tmp_path / "out.pgn").exists()
