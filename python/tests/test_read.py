"""``pgn960.read`` and ``pgn960.to_arrow`` against the ``pgn960`` command (``check`` and
``export``) and python-chess, on the fixtures, the corpus and the real files of the shared
data."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

import pgn960
from conftest import cli_check, fixture_files, run_cli, shared_files, module

COLUMNS = [
    "valid",
    "reason",
    "location",
    "source",
    "offset",
    "variant",
    "sp",
    "black_sp",
    "start_xfen",
    "final_xfen",
    "plies",
    "moves_san",
    "moves_uci",
    "outcome",
    "clocks",
    "evals",
    "evals_mate",
]


def all_files():
    return fixture_files() + shared_files()


def exported(path, tmp_path, *args):
    """The table ``pgn960 export`` writes for ``path``."""
    out = tmp_path / "out.parquet"
    run_cli("export", path, "-o", out, *args)
    return pq.read_table(out)


def game_row(game: pgn960.Game) -> dict:
    """A game as the columns of an exported row."""
    return {
        "valid": game.valid,
        "reason": game.reason,
        "location": game.location,
        "source": game.source,
        "offset": game.offset,
        "variant": game.variant,
        "sp": game.sp,
        "black_sp": game.black_sp,
        "start_xfen": game.start_xfen,
        "final_xfen": game.final_xfen,
        "plies": game.plies,
        "moves_san": game.moves("san") if game.valid else None,
        "moves_uci": game.moves("uci") if game.valid else None,
        "outcome": game.outcome,
    }


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_every_game_of_read_is_the_exported_row(which, tmp_path):
    files = fixture_files() if which == "fixtures" else shared_files()
    for path in files:
        table = exported(path, tmp_path, "--include-invalid", "--columns", ",".join(COLUMNS))
        rows = table.to_pylist()
        games = [game_row(g) for g in pgn960.read(str(path), threads=2)]
        assert len(games) == len(rows), path
        for game, row in zip(games, rows):
            expected = {k: row[k] for k in game}
            assert game == expected, path


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_to_arrow_is_the_exported_table(which, tmp_path):
    files = fixture_files() if which == "fixtures" else shared_files()
    for path in files:
        for args, kwargs in [
            (["--include-invalid", "--movetext", "--tags", "ECO,Opening"],
             dict(include_invalid=True, movetext=True, tags="ECO,Opening")),
            (["--per", "ply"], dict(per="ply")),
            ([], {}),
        ]:
            expected = exported(path, tmp_path, *args)
            got = pgn960.to_arrow(str(path), threads=2, **kwargs)
            assert got.schema.equals(expected.schema, check_metadata=False), path
            assert got.schema.equals(pgn960.schema(**{k: v for k, v in kwargs.items()
                                                       if k != "include_invalid"}))
            assert got.equals(expected), (path, args)


@pytest.mark.parametrize("which", ["fixtures", "shared"])
def test_check_counts_are_the_commands(which):
    files = fixture_files() if which == "fixtures" else shared_files()
    for path in files:
        summary = pgn960.check(str(path))
        report = cli_check(path)
        assert summary.games == report["games_read"]
        assert summary.valid == report["valid"]
        assert summary.invalid == report["rejected"]
        assert summary.unsupported == report["unsupported_variant"]
        reasons = {k: v for k, v in summary.reasons.items() if k != "unsupported-variant"}
        assert reasons == report["rejected_by_reason"]
        assert summary.games == sum(1 for _ in pgn960.read(str(path)))


def test_python_chess_replays_every_valid_game():
    chess = module("chess")
    checked = 0
    for path in all_files():
        for game in pgn960.read(str(path), include_invalid=False):
            board = chess.Board(game.start_xfen, chess960=True)
            for san, uci in zip(game.moves("san"), game.moves("uci")):
                move = board.parse_uci(uci)
                assert board.san(move) == san, (path, game.offset)
                board.push(move)
            final = chess.Board(game.final_xfen, chess960=True)
            assert board.board_fen() == final.board_fen()
            assert board.turn == final.turn
            assert board.clean_castling_rights() == final.clean_castling_rights()
            assert game.board().fen() == board.fen()
            if game.sp is not None and game.black_sp is None:
                start = chess.Board(game.start_xfen, chess960=True)
                assert start.chess960_pos() in (game.sp, None)
            checked += 1
    assert checked > 4000


def test_games_carry_tags_text_and_annotations():
    games = list(pgn960.read(str(fixture_files()[0])))
    assert games, "sample.pgn has games"
    first = games[0]
    assert isinstance(first.tags, dict) and "Event" in first.tags
    assert first.to_pgn().lstrip().startswith("[")
    assert len(first.clocks()) == len(first.moves()) == (first.plies or 0)
    assert len(first.evals()) == len(first.evals_mate()) == len(first.clocks())
    assert "valid=" in repr(first)
    invalid = [g for g in pgn960.read(str(fixture_files()[1])) if not g.valid]
    assert invalid and all(g.reason for g in invalid)
    assert all(g.moves() == [] for g in invalid)
    with pytest.raises(pgn960.OptionError):
        first.moves("lan")
