"""The writing verbs as functions: ``pgn960.check``, ``clean``, ``export``, ``filter`` and
``split`` give the command's counts and write the command's files byte for byte
(fixtures, the shared corpus and the real files of ``../shared/data``), atomically, with
typed errors."""

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
    ({"variant_tag": "fischerandom", "fen_style": "shredder"},
     ["--variant-tag", "fischerandom", "--fen-style", "shredder"]),
]


def files_of(directory: Path) -> dict[str, bytes | None]:
    """Every file of ``directory`` by name, with its bytes (None for a directory)."""
    return {p.name: None if p.is_dir() else p.read_bytes() for p in sorted(directory.iterdir())}


def without_time(report: bytes) -> dict:
    """A JSON report without its wall-clock seconds (and, for split's, the directory,
    which differs between the two runs)."""
    value = json.loads(report)
    value.pop("seconds")
    value.pop("directory", None)
    return value


def same_outputs(cli_dir: Path, py_dir: Path) -> None:
    """The files of both runs are the same, byte for byte (a report but for its time)."""
    made, expected = files_of(py_dir), files_of(cli_dir)
    assert sorted(made) == sorted(expected)
    for name, data in expected.items():
        if data is not None and name.endswith(".json"):
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


def sources(which: str) -> list[Path]:
    """The fixtures, or the shared corpus and real files."""
    return fixture_files() if which == "fixtures" else shared_files()


def run_pair(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """Two new directories for a run of the command and one of the function."""
    cli_dir, py_dir = tmp_path / f"cli-{name}", tmp_path / f"py-{name}"
    cli_dir.mkdir()
    py_dir.mkdir()
    return cli_dir, py_dir


#: Option sets of ``export``: the table's name, Python keywords and the command's flags.
EXPORT_OPTIONS = [
    ("games.csv", {}, []),
    ("plies.jsonl", {"per": "ply", "columns": "source,offset,ply,san,uci,clock,eval"},
     ["--per", "ply", "--columns", "source,offset,ply,san,uci,clock,eval"]),
    ("all.parquet", {"include_invalid": True, "tags": "Opening,ECO", "movetext": True},
     ["--include-invalid", "--tags", "Opening,ECO", "--movetext"]),
    ("moves.csv.zst", {"columns": ["Site", "sp", "moves_uci"], "uci_castling": "king-two-squares",
                       "row_group_mb": 1},
     ["--columns", "Site,sp,moves_uci", "--uci-castling", "king-two-squares",
      "--row-group-mb", "1"]),
    ("table.out", {"format": "jsonl", "variant": "chess960"},
     ["--format", "jsonl", "--variant", "chess960"]),
]


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_export_writes_the_commands_table(tmp_path, which):
    cli()
    for n, path in enumerate(sources(which)):
        for name, kwargs, flags in EXPORT_OPTIONS:
            cli_dir, py_dir = run_pair(tmp_path, f"{n}-{name}")
            run_cli("export", "-q", path, "-o", cli_dir / name, *flags)
            summary = pgn960.export(path, py_dir / name, **kwargs)
            same_outputs(cli_dir, py_dir)
            assert summary.verb == "export"
            assert summary.games == summary.written + sum(summary.skipped.values())
            assert summary.games == summary.valid + summary.unsupported + summary.invalid
            assert sum(summary.reasons.values()) == summary.invalid
            assert summary.outputs == {"-o": str(py_dir / name)}
            if name.endswith(".parquet"):
                import pyarrow.parquet as pq

                assert pq.read_metadata(py_dir / name).num_rows == summary.rows
                assert summary.rows == summary.games  # every game, invalid ones too


#: Option sets of ``filter`` and ``split``: Python keywords and the command's flags.
SELECTIONS = [
    ({}, []),
    ({"min_elo": 1500, "time_control": "blitz,rapid"},
     ["--min-elo", "1500", "--time-control", "blitz,rapid"]),
    ({"sp": [518, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], "invert": True, "normalise": True,
      "fen_style": "shredder", "variant_tag": "chess 960"},
     ["--sp", "518,0,1,2,3,4,5,6,7,8,9,10", "--invert", "--normalise", "--fen-style",
      "shredder", "--variant-tag", "chess 960"]),
    ({"outcome": ["checkmate", "stalemate"], "tag": "Event~Rated", "result": "1-0,0-1",
      "ignore_case": True},
     ["--outcome", "checkmate,stalemate", "--tag", "Event~Rated", "--result", "1-0,0-1",
      "--ignore-case"]),
    ({"game_variant": "chess960", "max_plies": 80, "since": "2000.01.01", "no_dfrc": True},
     ["--game-variant", "chess960", "--max-plies", "80", "--since", "2000.01.01",
      "--no-dfrc"]),
]


def check_picked(summary, report: dict) -> None:
    """A filter or split summary has the counts of the command's report."""
    assert summary.games == report["games_read"]
    assert summary.written == report["selected"]
    assert summary.not_selected == report["not_selected"]
    assert summary.invalid == report["rejected"]
    assert summary.reasons == report["rejected_by_reason"]
    assert summary.not_selected_by == report["not_selected_by"]
    assert summary.games == summary.written + summary.not_selected + summary.invalid
    assert summary.valid is None and summary.unsupported is None


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_filter_writes_the_commands_files(tmp_path, which):
    cli()
    for n, path in enumerate(sources(which)):
        for m, (kwargs, flags) in enumerate(SELECTIONS):
            cli_dir, py_dir = run_pair(tmp_path, f"{n}-{m}")
            run_cli("filter", "-q", path, "-o", cli_dir / "out.pgn", "--rejects",
                    cli_dir / "bad.pgn", "--report", cli_dir / "report.json", *flags)
            summary = pgn960.filter(path, py_dir / "out.pgn", rejects=py_dir / "bad.pgn",
                                    report=py_dir / "report.json", **kwargs)
            same_outputs(cli_dir, py_dir)
            check_picked(summary, json.loads((cli_dir / "report.json").read_bytes()))
            assert set(summary.outputs) == {
                "-o", "--rejects", "reasons of rejected games", "--report"}


def test_filter_without_an_output_only_counts(tmp_path):
    for n, path in enumerate(fixture_files()):
        cli_dir, py_dir = run_pair(tmp_path, str(n))
        run_cli("filter", "-q", path, "--count", "--min-elo", "1800",
                "--report", cli_dir / "report.json")
        summary = pgn960.filter(path, None, min_elo=1800, report=py_dir / "report.json")
        same_outputs(cli_dir, py_dir)
        check_picked(summary, json.loads((cli_dir / "report.json").read_bytes()))
        assert set(summary.outputs) == {"--report"}


#: Keys and file options of ``split``: Python keywords and the command's flags.
SPLIT_KEYS = [
    ({"by": "sp"}, ["--by", "sp"]),
    ({"by": "month", "template": "m{value}.pgn"},
     ["--by", "month", "--template", "m{value}.pgn"]),
    ({"by": "games:7", "max_open": 1}, ["--by", "games:7", "--max-open", "1"]),
    ({"by": "event", "max_open": 2}, ["--by", "event", "--max-open", "2"]),
    ({"by": "time_control"}, ["--by", "time-control"]),
]


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_split_writes_the_commands_files(tmp_path, which):
    cli()
    cases = list(zip(SPLIT_KEYS, SELECTIONS))
    for n, path in enumerate(sources(which)):
        for m, ((key_kwargs, key_flags), (kwargs, flags)) in enumerate(cases):
            cli_dir, py_dir = run_pair(tmp_path, f"{n}-{m}")
            run_cli("split", "-q", path, "-o", cli_dir / "parts", "--rejects",
                    cli_dir / "bad.pgn", "--report", cli_dir / "report.json",
                    *key_flags, *flags)
            summary = pgn960.split(path, py_dir / "parts", rejects=py_dir / "bad.pgn",
                                   report=py_dir / "report.json", **key_kwargs, **kwargs)
            same_outputs(cli_dir, py_dir)
            same_outputs(cli_dir / "parts", py_dir / "parts")
            report = json.loads((cli_dir / "report.json").read_bytes())
            check_picked(summary, report)
            assert summary.files == report["files"]
            assert sum(summary.files.values()) == summary.written
            assert summary.outputs["-o"] == str(py_dir / "parts")


def test_split_refuses_a_full_directory_unless_told_and_appends_as_the_command(tmp_path):
    sample = fixture_files()[0]
    cli_dir, py_dir = run_pair(tmp_path, "append")
    for d in (cli_dir, py_dir):
        (d / "notes.txt").write_text("kept\n")
    with pytest.raises(pgn960.Error, match="--force|--append") as full:
        pgn960.split(sample, py_dir, by="result")
    assert not isinstance(full.value, pgn960.OptionError)
    for _ in range(2):
        run_cli("split", "-q", sample, "-o", cli_dir, "--by", "result", "--append")
        pgn960.split(sample, py_dir, by="result", append=True)
    same_outputs(cli_dir, py_dir)
    run_cli("split", "-q", sample, "-o", cli_dir, "--by", "year", "--force")
    summary = pgn960.split(sample, py_dir, by="year", force=True)
    same_outputs(cli_dir, py_dir)
    assert sorted(p.name for p in py_dir.iterdir()) == sorted(summary.files)


def test_bad_options_are_option_errors_and_write_nothing(tmp_path):
    sample = fixture_files()[0]
    bad = [
        lambda: pgn960.export(sample, tmp_path / "t.txt"),
        lambda: pgn960.export(sample, tmp_path / "t.csv", format="jsonl"),
        lambda: pgn960.export(sample, tmp_path / "t.csv", format="tsv"),
        lambda: pgn960.export(sample, tmp_path / "t.csv", columns="nope"),
        lambda: pgn960.export(sample, tmp_path / "t.csv", per="ply", include_invalid=True),
        lambda: pgn960.export(sample, tmp_path / "t.csv", uci_castling="e1g1"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", sp="960"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", sp="5-2"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", fen_style="shredder"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", outcome="mate"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", result="2-0"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", tag="Event"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", dfrc=True, no_dfrc=True),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", since="2024.13.01"),
        lambda: pgn960.filter(sample, tmp_path / "o.pgn", reaches="not a fen"),
        lambda: pgn960.split(sample, tmp_path / "d", by="colour"),
        lambda: pgn960.split(sample, tmp_path / "d", by="games:0"),
        lambda: pgn960.split(sample, tmp_path / "d", by="sp", template="all.pgn"),
        lambda: pgn960.split(sample, tmp_path / "d", by="sp", force=True, append=True),
        lambda: pgn960.clean(sample, tmp_path / "o.pgn", variant_tag="960"),
    ]
    for call in bad:
        with pytest.raises(pgn960.OptionError):
            call()
    assert list(tmp_path.iterdir()) == []


def test_a_refused_plan_or_a_missing_input_leaves_no_file(tmp_path):
    copy = tmp_path / "games.pgn"
    copy.write_bytes(fixture_files()[0].read_bytes())
    before = files_of(tmp_path)
    with pytest.raises(pgn960.Error, match="one of the inputs"):
        pgn960.filter(copy, copy)
    with pytest.raises(pgn960.Error, match="one of the inputs"):
        pgn960.filter(copy, tmp_path / "o.pgn", rejects=copy)
    with pytest.raises(pgn960.Error, match="same file"):
        pgn960.filter(copy, tmp_path / "o.pgn", report=tmp_path / "o.pgn")
    with pytest.raises(pgn960.Error, match="inside"):
        pgn960.split(copy, tmp_path / "d", by="sp", report=tmp_path / "d" / "r.json")
    with pytest.raises(pgn960.IoError) as missing:
        pgn960.export(tmp_path / "absent.pgn", tmp_path / "t.csv")
    assert missing.value.path is not None and "absent.pgn" in missing.value.path
    with pytest.raises(pgn960.IoError):
        pgn960.export(copy, tmp_path / "no-such-dir" / "t.csv")
    assert files_of(tmp_path) == before


def test_help_names_every_keyword_of_the_selection():
    import inspect

    reading = {"threads", "variant", "max_game_bytes", "assume_sp"}
    for verb in (pgn960.filter, pgn960.split):
        doc = verb.__doc__
        assert "{selection}" not in doc
        names = set(inspect.signature(verb).parameters) - reading - {"src", "out", "out_dir"}
        missing = [n for n in sorted(names) if f"``{n}``" not in doc]
        assert missing == [], (verb.__name__, missing)


def test_assume_sp_settles_an_ambiguous_start_in_the_tables_too(tmp_path):
    # Several starts fit `1. Nb3 Nb6`, SP 1 among them: start-ambiguous unless assumed.
    src = tmp_path / "ambiguous.pgn"
    src.write_text('[Variant "Chess960"]\n[FEN "?"]\n[Result "1-0"]\n\n1. Nb3 Nb6 1-0\n')
    size = src.stat().st_size
    tables = {
        "to_arrow": lambda **kw: pgn960.to_arrow(src, **kw),
        "scan": lambda **kw: pgn960.scan(src, **kw).read_all(),
        "read_range": lambda **kw: pgn960.read_range(src, 0, size, **kw).read_all(),
    }
    for name, table in tables.items():
        assert table(columns=["sp"]).num_rows == 0, name
        assert table(columns=["sp"], assume_sp=1).column("sp").to_pylist() == [1], name
    assert pgn960.export(src, tmp_path / "t.csv").written == 0
    assert pgn960.export(src, tmp_path / "t.csv", assume_sp=1).written == 1
    with pytest.raises(pgn960.Error, match="assume_sp"):
        pgn960.to_arrow(src, assume_sp=960)
