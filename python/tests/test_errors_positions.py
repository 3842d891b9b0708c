"""Errors carry where; the position helpers agree with python-chess."""

from __future__ import annotations

import random

import pyarrow as pa
import pytest

import pgn960
from conftest import fixture_files, module


def test_a_missing_file_is_an_io_error_with_its_path(tmp_path):
    path = str(tmp_path / "nope.pgn")
    with pytest.raises(pgn960.IoError) as err:
        list(pgn960.read(path))
    assert err.value.path == path
    assert isinstance(err.value, pgn960.Error)


def test_a_file_of_no_games_is_an_input_error_at_line_1(tmp_path):
    path = tmp_path / "picture.pgn"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(100))
    for call in (lambda: list(pgn960.read(str(path))), lambda: pgn960.to_arrow(str(path))):
        with pytest.raises(pgn960.InputError) as err:
            call()
        assert err.value.path == str(path)
        assert err.value.line == 1 and err.value.offset == 0


def test_bad_options_are_option_errors():
    sample = str(fixture_files()[0])
    with pytest.raises(pgn960.OptionError) as err:
        pgn960.to_arrow(sample, columns="sp,nope")
    assert "moves_san" in str(err.value)
    with pytest.raises(pgn960.OptionError):
        pgn960.to_arrow(sample, per="move")
    with pytest.raises(pgn960.OptionError):
        pgn960.to_arrow(sample, per="ply", include_invalid=True)
    with pytest.raises(pgn960.OptionError):
        pgn960.start_fen(960)


def test_rejected_games_say_where():
    games = [g for g in pgn960.read(str(fixture_files()[1])) if not g.valid and g.location]
    assert games
    for game in games:
        line, column = game.location.split(":")
        assert int(line) >= game.line and int(column) >= 1


def random_position(chess, rng):
    """A position a few random moves after a random Chess960 start."""
    board = chess.Board.from_chess960_pos(rng.randrange(960))
    for _ in range(rng.randrange(12)):
        moves = list(board.legal_moves)
        if not moves:
            break
        board.push(rng.choice(moves))
    return board


def test_helpers_agree_with_python_chess():
    chess = module("chess")
    rng = random.Random(518)
    for _ in range(500):
        sp = rng.randrange(960)
        fen = pgn960.start_fen(sp)
        assert chess.Board(fen, chess960=True) == chess.Board.from_chess960_pos(sp)
        assert pgn960.sp_of(fen) == sp
        board = random_position(chess, rng)
        expected = board.chess960_pos()
        assert pgn960.sp_of(board.fen()) == expected, board.fen()
        assert pgn960.to_shredder(board.fen()) == board.fen(shredder=True)
        assert pgn960.to_xfen(board.fen(shredder=True)) == board.fen()
        assert chess.Board(pgn960.to_xfen(board.fen()), chess960=True) == board


def test_helpers_take_lists_and_arrow_arrays():
    fens = [pgn960.start_fen(sp) for sp in (0, 518, 959)] + [None]
    assert pgn960.sp_of(fens) == [0, 518, 959, None]
    got = pgn960.sp_of(pa.array(fens))
    assert isinstance(got, pa.Array) and got.to_pylist() == [0, 518, 959, None]
    assert pgn960.to_shredder(fens)[1].split()[2] == "HAha"
    assert pgn960.to_xfen(pa.chunked_array([fens])).to_pylist()[1].split()[2] == "KQkq"
    with pytest.raises(pgn960.InputError):
        pgn960.sp_of(["not a fen"])
    dfrc = pgn960.start_fen(0, 959)
    assert pgn960.sp_of(dfrc) is None
