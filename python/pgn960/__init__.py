"""Chess960 (Fischer random) PGN archives, validated in Rust.

Every function takes ``src``: a path, a list of paths, a directory (every PGN file below
it), a compressed file (``.zst``, ``.gz``, ``.bz2``, ``.xz``, recognised by content) or a
Parquet table of games in the lichess dataset schema — as the ``pgn960`` command does.

>>> import pgn960
>>> for game in pgn960.read("games.pgn.zst"):          # doctest: +SKIP
...     print(game.sp, game.valid, game.reason)
>>> table = pgn960.to_arrow("games.pgn.zst")           # doctest: +SKIP
>>> table.group_by("sp").aggregate([("plies", "mean")])  # doctest: +SKIP

Reading: :func:`read` (``Game`` objects), :func:`to_arrow` (a ``pyarrow.Table`` with the
columns and types of ``pgn960 export``), :func:`scan` (the same as a bounded-memory
``pyarrow.RecordBatchReader``), :func:`read_range` and :func:`partitions` (byte ranges for
distributed engines). The commands that write, as functions writing the same files:
:func:`check` (counts by reason), :func:`clean`, :func:`export`, :func:`filter`,
:func:`split`. Analyses (``pyarrow.Table``s with
the columns of the command's CSV): :func:`stats`, :func:`merge_stats`, :func:`tree`,
:func:`pentanomials`. Positions: :func:`sp_of`,
:func:`start_fen`, :func:`to_xfen`, :func:`to_shredder`. Errors: :class:`Error` and its
subclasses :class:`InputError`, :class:`OptionError`, :class:`IoError`.
"""

from __future__ import annotations

import os
from typing import Iterator, NamedTuple, Sequence, Union

import pyarrow as pa

from . import _native
from ._native import Error, Game, InputError, IoError, OptionError, Summary
from ._analysis import AssumedStart, filter_args, merge_stats, pentanomials, sp_groups, stats, table_from_csv, tree
from ._analysis import STRATA_METADATA

__all__ = [
    "Error",
    "Game",
    "InputError",
    "IoError",
    "OptionError",
    "Partition",
    "STRATA_METADATA",
    "Summary",
    "check",
    "clean",
    "export",
    "filter",
    "merge_stats",
    "pentanomials",
    "partitions",
    "read",
    "read_range",
    "scan",
    "schema",
    "sp_groups",
    "sp_of",
    "split",
    "start_fen",
    "stats",
    "table_from_csv",
    "to_arrow",
    "to_shredder",
    "to_xfen",
    "tree",
]

PathLike = Union[str, "os.PathLike[str]"]
Source = Union[PathLike, Sequence[PathLike]]


def _paths(src: Source) -> list[str]:
    """The inputs of ``src`` as a list of path strings."""
    if isinstance(src, (str, bytes, os.PathLike)):
        return [os.fsdecode(src)]
    paths = [os.fsdecode(p) for p in src]
    if not paths:
        raise OptionError("no input given")
    return paths


def _names(value: str | Sequence[str] | None) -> list[str] | None:
    """A list of names from a list or a comma-separated string."""
    if value is None:
        return None
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return list(value)


def read(
    src: Source,
    *,
    threads: int = 0,
    include_invalid: bool = True,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Iterator[Game]:
    """Every game of ``src`` as a :class:`Game`, in input order.

    Games are validated on ``threads`` worker threads (0: one per core) a few chunks ahead
    of the iteration, with the GIL released. ``include_invalid=False`` leaves out invalid
    games and other variants. ``variant="chess960"`` reads games without a ``Variant`` tag
    as Chess960 (the lichess Chess960 dataset), ``"double-chess960"`` as :func:`check`;
    ``"detect"`` works it out from the FEN.
    ``max_game_bytes`` and ``assume_sp`` as :func:`check`.
    """
    return _native.read(_paths(src), threads, include_invalid, variant, max_game_bytes, assume_sp)


def _table_args(src, per, columns, tags, include_invalid, movetext, threads, variant):
    return (
        _paths(src),
        per,
        _names(columns),
        _names(tags),
        include_invalid,
        movetext,
        threads,
        variant,
    )


def to_arrow(
    src: Source,
    *,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> pa.Table:
    """The games of ``src`` as a ``pyarrow.Table`` with the schema of ``pgn960 export``.

    ``per="game"`` gives one row per game, ``per="ply"`` one per ply of every valid game.
    ``columns`` picks and orders columns (see :func:`schema` for all of them); ``tags``
    adds tags as string columns; ``movetext`` adds the movetext as written;
    ``include_invalid`` keeps invalid games and other variants (per-game tables:
    ``valid`` false, ``reason``, ``location``); reading (``variant``, ``max_game_bytes``,
    ``assume_sp``) as :func:`check`. Ctrl-C interrupts it.
    """
    args = _table_args(src, per, columns, tags, include_invalid, movetext, threads, variant)
    return pa.table(_native.to_arrow(*args, assume_sp=assume_sp, max_game_bytes=max_game_bytes))


def scan(
    src: Source,
    *,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> pa.RecordBatchReader:
    """:func:`to_arrow` as a stream: a ``pyarrow.RecordBatchReader`` of about 4 MB of PGN
    per batch, made on worker threads a few batches ahead; memory stays bounded whatever
    the size of ``src``. DuckDB and polars read it without a copy
    (``__arrow_c_stream__``)."""
    args = _table_args(src, per, columns, tags, include_invalid, movetext, threads, variant)
    return _interruptible(pa.RecordBatchReader.from_stream(_native.scan(*args, assume_sp=assume_sp, max_game_bytes=max_game_bytes)))


def _interruptible(reader: pa.RecordBatchReader) -> pa.RecordBatchReader:
    """``reader``'s batches, a Ctrl-C while the native stream waits raised as
    ``KeyboardInterrupt`` (the stream itself can only end with an Arrow error)."""

    def batches():
        while True:
            try:
                batch = reader.read_next_batch()
            except StopIteration:
                return
            except pa.ArrowInvalid as error:
                if str(error) == "External error: interrupted":
                    raise KeyboardInterrupt from None
                raise
            yield batch

    return pa.RecordBatchReader.from_batches(reader.schema, batches())


def read_range(
    path: PathLike,
    start: int,
    end: int,
    first_line: int | None = None,
    *,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> pa.RecordBatchReader:
    """The games of bytes ``[start, end)`` of a plain PGN file, as :func:`scan` gives them.

    The range holds the games from the first game boundary at or after ``start`` to the
    first at or after ``end``, so ranges that meet (such as those of :func:`partitions`)
    hold every game exactly once, with the offsets and locations of a whole read. A
    compressed file or a Parquet table is read whole: its only range is ``(0, size)``.
    ``first_line``, the line of byte ``start`` (a :class:`Partition`'s, so that
    ``read_range(*partition)`` reads one), spares counting the lines before the range;
    without it they are counted (a pass over the bytes before ``start``).
    """
    args = _table_args(path, per, columns, tags, include_invalid, movetext, threads, variant)
    stream = _native.scan(
        *args, start, end, first_line, assume_sp=assume_sp, max_game_bytes=max_game_bytes
    )
    return _interruptible(pa.RecordBatchReader.from_stream(stream))


class Partition(NamedTuple):
    """A byte range of one input, as :func:`partitions` cuts them: read it with
    ``read_range(*p)`` (or ``read_range(p.path, p.start, p.end, first_line=p.first_line)``)."""

    #: The file.
    path: str
    #: First byte (a game boundary, or 0).
    start: int
    #: End (a game boundary, or the file's size).
    end: int
    #: The line of byte ``start`` (1-based), counted once while planning.
    first_line: int


def partitions(paths: Source, target_bytes: int = 256 << 20) -> list[Partition]:
    """:class:`Partition` ranges ``(path, start, end, first_line)`` of about
    ``target_bytes`` covering every game of ``paths`` exactly once, in input order, each
    starting at a game boundary; a compressed file or a Parquet table is one partition.
    The lines of each file are counted once here, so that reading the ranges with
    :func:`read_range` (``first_line=``) costs the size of the file, not the number of
    ranges times it."""
    return [Partition(*p) for p in _native.partitions(_paths(paths), target_bytes)]


def check(
    src: Source,
    *,
    max_errors: int = 20,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Summary:
    """Validates every game of ``src`` as ``pgn960 check`` does; returns a
    :class:`Summary` of the command's counts (``games == valid + unsupported + invalid``,
    ``reasons`` the rejected games by reason) with the first ``max_errors`` problems
    (``--max-errors``) in ``problems``.

    ``variant="chess960"`` reads games without a ``Variant`` tag as Chess960
    (``--variant``), ``"double-chess960"`` those and the games tagged Chess960 as Double
    Chess960 (a start not in the file searched among the pairs only); ``max_game_bytes`` rejects larger games as ``too-large`` (default
    64 MiB, 0: no limit); ``assume_sp`` is the start taken for a game whose start is
    ambiguous (``--assume-sp``): an SP, or a Double Chess960 pair as ``(white SP, black
    SP)`` or ``"588,301"``. Ctrl-C interrupts it.
    """
    return _native.check(_paths(src), threads, variant, max_game_bytes, assume_sp, max_errors)


def clean(
    src: Source,
    out: PathLike,
    *,
    rejects: PathLike | None = None,
    report: PathLike | None = None,
    fen_style: str = "xfen",
    strip_comments: bool = False,
    keep_annotations: str | Sequence[str] | None = None,
    strip_variations: bool = False,
    drop_bad_variations: bool = False,
    dedupe: bool = False,
    min_plies: int | None = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
    variant_tag: str = "chess960",
) -> Summary:
    """Writes every valid game of ``src`` normalised to ``out`` and quarantines the rest,
    as ``pgn960 clean SRC -o OUT`` with the same options writes the same files, byte for
    byte: ``out`` compressed as its name says (``.zst``, ``.gz``, ``.bz2``, ``.xz``);
    rejected games as they were read to ``rejects`` with their reasons beside it
    (``NAME.tsv``), by default ``OUT.rejects.pgn`` and ``OUT.rejects.tsv`` (written only
    when a game was rejected); ``report`` the counts as JSON (``--report``).

    Options as the command's flags: ``fen_style`` (``"xfen"`` or ``"shredder"``),
    ``variant_tag`` (the ``Variant`` tag of written Chess960 games: ``"chess960"`` as
    lichess, ``"fischerandom"`` as cutechess and TCEC, ``"chess 960"`` as pychess),
    ``strip_comments``, ``keep_annotations`` (with ``strip_comments``: the ``[%...]``
    commands kept, such as ``"clk,eval"``; ``"all"``), ``strip_variations``,
    ``drop_bad_variations``, ``dedupe`` (same start and moves: the first kept),
    ``min_plies``; reading as :func:`check`.

    Every output is planned and checked first (none an input, no two the same file),
    written under a temporary name and renamed into place only when all are complete: on
    an error or Ctrl-C no output is left. Returns a :class:`Summary` (``games == written +
    invalid + deduplicated``; ``outputs`` the files written).
    """
    return _native.clean(
        _paths(src),
        os.fspath(out),
        None if rejects is None else os.fspath(rejects),
        None if report is None else os.fspath(report),
        fen_style,
        strip_comments,
        _names(keep_annotations),
        strip_variations,
        drop_bad_variations,
        dedupe,
        min_plies,
        threads,
        variant,
        max_game_bytes,
        assume_sp,
        variant_tag,
    )


def _path(path: PathLike | None) -> str | None:
    """A path as a string (None stays None)."""
    return None if path is None else os.fspath(path)


def export(
    src: Source,
    out: PathLike,
    *,
    format: str | None = None,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    include_invalid: bool = False,
    movetext: bool = False,
    uci_castling: str = "king-takes-rook",
    row_group_mb: int = 8,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Summary:
    """Writes every game of ``src`` as a row of the table ``out``, as ``pgn960 export SRC
    -o OUT`` with the same options writes it, byte for byte: Parquet, CSV or JSON Lines
    by the name's extension (after a compression suffix: ``games.csv.zst``), or
    ``format`` (``"parquet"``, ``"csv"``, ``"jsonl"``; it must agree with the name).

    The table is the one of :func:`to_arrow` with the same options: ``per`` (``"game"``,
    or ``"ply"``: one row per ply of every valid game), ``columns`` (only these, in this
    order), ``tags`` (more tags as columns), ``include_invalid`` (invalid games and other
    variants too, ``valid`` false), ``movetext`` (the movetext as written);
    ``uci_castling`` (``"king-takes-rook"``, UCI_Chess960, or ``"king-two-squares"``:
    e1g1/e1c1 where the king castles from e1/e8 with the rook on h/a); ``row_group_mb``
    (MB of PGN per Parquet row group); reading (``assume_sp`` included) as :func:`check`.

    The table is written under a temporary name and renamed into place when complete: on
    an error or Ctrl-C there is none. Returns a :class:`Summary` (``games == written +
    sum(skipped.values())``; ``rows``; ``reasons`` the invalid games by reason, exported
    or not; ``outputs``).
    """
    return _native.export(
        _paths(src),
        os.fspath(out),
        format,
        per,
        _names(columns),
        _names(tags),
        include_invalid,
        movetext,
        uci_castling,
        row_group_mb,
        threads,
        variant,
        max_game_bytes,
        assume_sp,
    )


def _sp_list(value) -> str | None:
    """A list of SPs as ``--sp`` takes it: ``"518,0-10"``, a number, or numbers."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    return ",".join(str(v) for v in value)


def _selection(kw: dict) -> tuple[dict, dict]:
    """The filters of the analyses and the rest of the selection, for the native
    functions, from the keywords of :func:`filter` or :func:`split`."""
    filters = filter_args(
        kw["min_elo"], kw["max_elo_diff"], kw["min_plies"], kw["time_control"],
        kw["since"], kw["until"],
    )
    tag = kw["tag"]
    selection = {
        "max_elo": kw["max_elo"],
        "max_plies": kw["max_plies"],
        "sp": _sp_list(kw["sp"]),
        "black_sp": _sp_list(kw["black_sp"]),
        "dfrc": kw["dfrc"],
        "no_dfrc": kw["no_dfrc"],
        "game_variant": _names(kw["game_variant"]),
        "player": kw["player"],
        "white": kw["white"],
        "black": kw["black"],
        "ignore_case": kw["ignore_case"],
        "event": kw["event"],
        "site": kw["site"],
        "result": _names(kw["result"]),
        "termination": kw["termination"],
        "outcome": _names(kw["outcome"]),
        # A tag's value may hold commas: a string is one condition.
        "tag": [tag] if isinstance(tag, str) else (None if tag is None else list(tag)),
        "reaches": kw["reaches"],
        "invert": kw["invert"],
    }
    return filters, selection


_SELECTION_DOC = """
    The selection, as the command's flags (a game must pass every filter given):
    ``min_elo``, ``max_elo`` (both players), ``max_elo_diff``; ``min_plies``,
    ``max_plies``; ``time_control`` (speeds, ``"blitz,rapid"``); ``since``, ``until``
    (``"YYYY.MM.DD"``); ``sp``, ``black_sp`` (``"518,0-10"``, a number or a list);
    ``dfrc`` / ``no_dfrc`` (only / no Double Chess960); ``game_variant`` (``"chess960"``,
    ``"classical"``, ``"other"``); ``player``, ``white``, ``black`` (exact names);
    ``event``, ``site`` (substrings); ``ignore_case``; ``result`` (``"1-0"``, ``"0-1"``,
    ``"1/2-1/2"``, ``"*"``); ``termination`` (the tag); ``outcome`` (the final position
    as replayed: ``"checkmate"``, ``"stalemate"``, ``"insufficient-material"``,
    ``"seventy-five-moves"``, ``"fivefold-repetition"``, ``"fifty-moves"``,
    ``"threefold-repetition"``, ``"none"``); ``tag`` (``"NAME=VALUE"`` exact or
    ``"NAME~TEXT"`` substring, or a list of them: all must hold); ``reaches`` (a FEN the
    main line passes through); ``invert`` (the valid games the other filters drop).
    Invalid games are never selected.
"""


def filter(
    src: Source,
    out: PathLike | None,
    *,
    rejects: PathLike | None = None,
    report: PathLike | None = None,
    normalise: bool = False,
    fen_style: str | None = None,
    variant_tag: str | None = None,
    min_elo: int | None = None,
    max_elo: int | None = None,
    max_elo_diff: int | None = None,
    min_plies: int | None = None,
    max_plies: int | None = None,
    time_control: str | Sequence[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    sp: str | int | Sequence[int] | None = None,
    black_sp: str | int | Sequence[int] | None = None,
    dfrc: bool = False,
    no_dfrc: bool = False,
    game_variant: str | Sequence[str] | None = None,
    player: str | None = None,
    white: str | None = None,
    black: str | None = None,
    event: str | None = None,
    site: str | None = None,
    ignore_case: bool = False,
    result: str | Sequence[str] | None = None,
    termination: str | None = None,
    outcome: str | Sequence[str] | None = None,
    tag: str | Sequence[str] | None = None,
    reaches: str | None = None,
    invert: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Summary:
    """Writes the games of ``src`` the selection keeps to ``out``, byte for byte as read
    (or, with ``normalise``, as :func:`clean` writes them, in ``fen_style`` with
    ``variant_tag``), as ``pgn960 filter SRC -o OUT`` with the same options writes
    them; ``out=None`` only counts them (``--count``). ``rejects`` takes the invalid
    games as read, their reasons beside it (``NAME.tsv``); ``report`` the counts as JSON.

    {selection}

    Reading as :func:`check`. Outputs are atomic as :func:`clean`'s. Returns a
    :class:`Summary`: ``games == written + not_selected + invalid``, ``not_selected_by``
    the games each filter dropped first, ``reasons``, ``outputs``.
    """
    kw = locals()
    filters, selection = _selection(kw)
    return _native.filter(
        _paths(src),
        _path(out),
        _path(rejects),
        _path(report),
        normalise,
        fen_style,
        variant_tag,
        filters,
        selection,
        threads,
        variant,
        max_game_bytes,
        assume_sp,
    )


def split(
    src: Source,
    out_dir: PathLike,
    *,
    by: str,
    template: str = "{key}-{value}.pgn",
    max_open: int | None = None,
    force: bool = False,
    append: bool = False,
    rejects: PathLike | None = None,
    report: PathLike | None = None,
    normalise: bool = False,
    fen_style: str | None = None,
    variant_tag: str | None = None,
    min_elo: int | None = None,
    max_elo: int | None = None,
    max_elo_diff: int | None = None,
    min_plies: int | None = None,
    max_plies: int | None = None,
    time_control: str | Sequence[str] | None = None,
    since: str | None = None,
    until: str | None = None,
    sp: str | int | Sequence[int] | None = None,
    black_sp: str | int | Sequence[int] | None = None,
    dfrc: bool = False,
    no_dfrc: bool = False,
    game_variant: str | Sequence[str] | None = None,
    player: str | None = None,
    white: str | None = None,
    black: str | None = None,
    event: str | None = None,
    site: str | None = None,
    ignore_case: bool = False,
    result: str | Sequence[str] | None = None,
    termination: str | None = None,
    outcome: str | Sequence[str] | None = None,
    tag: str | Sequence[str] | None = None,
    reaches: str | None = None,
    invert: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: int | None = None,
    assume_sp: AssumedStart | None = None,
) -> Summary:
    """Writes the games of ``src`` the selection keeps into the directory ``out_dir``, one
    file per value of ``by``, as ``pgn960 split SRC --by BY -o DIR`` with the same
    options writes them, byte for byte.

    ``by``: ``"sp"``, ``"sp-pair"``, ``"month"``, ``"year"``, ``"event"``,
    ``"time-control"``, ``"white"``, ``"result"``, or ``"games:N"`` (files of N games).
    ``template`` names the files (``{key}`` the key's name, ``{value}`` the value made
    safe: ``sp-0518.pgn``); at most ``max_open`` files are open at once (by default half the
    process's open-file limit, at most 4096). A directory that
    holds files already is refused unless ``force`` (they are removed once the new files
    are in place) or ``append`` (games are added to the files of the same name).
    ``rejects``, ``report``, ``normalise``, ``fen_style``, ``variant_tag`` as
    :func:`filter`.

    {selection}

    Every file is written in a staging directory and renamed into place when the run is
    complete: on an error or Ctrl-C none is. Returns a :class:`Summary`: ``games ==
    written + not_selected + invalid``, ``files`` (each file's name with its games),
    ``outputs``.
    """
    kw = locals()
    filters, selection = _selection(kw)
    return _native.split(
        _paths(src),
        os.fspath(out_dir),
        by,
        template,
        max_open,
        force,
        append,
        _path(rejects),
        _path(report),
        normalise,
        fen_style,
        variant_tag,
        filters,
        selection,
        threads,
        variant,
        max_game_bytes,
        assume_sp,
    )


# One text for the selection of both (no docstrings under ``python -OO``).
for _verb in (filter, split):
    if _verb.__doc__:
        _verb.__doc__ = _verb.__doc__.replace("{selection}", _SELECTION_DOC.strip())


def schema(
    *,
    per: str = "game",
    columns: str | Sequence[str] | None = None,
    tags: str | Sequence[str] | None = None,
    movetext: bool = False,
) -> pa.Schema:
    """The Arrow schema :func:`to_arrow` gives for these options (every column
    nullable)."""
    return pa.schema(_native.schema(per, _names(columns), _names(tags), movetext))


def _vectorised(native, fens):
    """Applies ``native`` to a FEN, a list of them or a pyarrow string array."""
    if isinstance(fens, str):
        return native(fens)
    if isinstance(fens, (pa.Array, pa.ChunkedArray)):
        out = native(fens.to_pylist())
        return pa.array(out)
    return native(list(fens))


def sp_of(fens):
    """The SP number (0..959, 518 the classical start) of a Chess960 start position with
    white to move and full castling rights, else None; over a FEN, a list or a pyarrow
    string array (None stays None). A FEN that cannot be read raises InputError."""
    return _vectorised(_native.sp_of, fens)


def to_xfen(fens):
    """The position in X-FEN (``KQkq``, a file letter only for an inner rook); over a FEN,
    a list or a pyarrow string array."""
    return _vectorised(_native.to_xfen, fens)


def to_shredder(fens):
    """The position in Shredder-FEN (castling by rook files, ``HAha``); over a FEN, a list
    or a pyarrow string array."""
    return _vectorised(_native.to_shredder, fens)


def start_fen(sp: int, black_sp: int | None = None) -> str:
    """The X-FEN of start position ``sp`` (0..959); with ``black_sp``, the Double
    Chess960 start with black's arrangement ``black_sp``."""
    return _native.start_fen(sp, black_sp)


def _board(self):
    """The game as a python-chess ``Board`` (``chess960=True``) with its moves played
    from the start position (needs python-chess: ``pip install chess``)."""
    try:
        import chess
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("Game.board() needs python-chess: pip install chess") from e
    if not self.valid:
        raise OptionError(f"an invalid game has no board ({self.reason})")
    board = chess.Board(self.start_xfen, chess960=True)
    for uci in self.moves("uci"):
        board.push_uci(uci)
    return board
