"""Type stubs of pgn960."""

import os
from typing import Iterator, Literal, NamedTuple, Optional, Sequence, Union, overload

import pyarrow as pa

from ._native import Error as Error
from ._native import Game as Game
from ._native import InputError as InputError
from ._native import IoError as IoError
from ._native import OptionError as OptionError
from ._native import Summary as Summary

PathLike = Union[str, os.PathLike[str]]
Source = Union[PathLike, Sequence[PathLike]]
#: An SP, a Double Chess960 pair (white SP, black SP), or ``"588,301"`` (``--assume-sp``).
AssumedStart = Union[int, tuple[int, int], str]
Names = Union[str, Sequence[str], None]

def read(
    src: Source,
    *,
    threads: int = 0,
    include_invalid: bool = True,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> Iterator[Game]: ...
def to_arrow(
    src: Source,
    *,
    per: str = "game",
    columns: Names = None,
    tags: Names = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.Table: ...
def scan(
    src: Source,
    *,
    per: str = "game",
    columns: Names = None,
    tags: Names = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.RecordBatchReader: ...
def read_range(
    path: PathLike,
    start: int,
    end: int,
    first_line: int | None = None,
    *,
    per: str = "game",
    columns: Names = None,
    tags: Names = None,
    include_invalid: bool = False,
    movetext: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.RecordBatchReader: ...

class Partition(NamedTuple):
    path: str
    start: int
    end: int
    first_line: int

def partitions(paths: Source, target_bytes: int = ...) -> list[Partition]: ...
def check(
    src: Source,
    *,
    max_errors: int = 20,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> Summary:
    """Validates every game as ``pgn960 check``: the counts (``games == valid +
    unsupported + invalid``), the first ``max_errors`` problems."""

def clean(
    src: Source,
    out: PathLike,
    *,
    rejects: Optional[PathLike] = None,
    report: Optional[PathLike] = None,
    fen_style: str = "xfen",
    strip_comments: bool = False,
    keep_annotations: Names = None,
    strip_variations: bool = False,
    drop_bad_variations: bool = False,
    dedupe: bool = False,
    min_plies: Optional[int] = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
    variant_tag: str = "chess960",
) -> Summary:
    """``pgn960 clean SRC -o OUT`` with the same options, the same files byte for byte
    (rejects beside OUT unless ``rejects``; ``report`` as JSON); atomic; returns the
    counts (``games == written + invalid + deduplicated``) and ``outputs``."""

def export(
    src: Source,
    out: PathLike,
    *,
    format: Optional[Literal["parquet", "csv", "jsonl"]] = None,
    per: Literal["game", "ply"] = "game",
    columns: Names = None,
    tags: Names = None,
    include_invalid: bool = False,
    movetext: bool = False,
    uci_castling: Literal["king-takes-rook", "king-two-squares"] = "king-takes-rook",
    row_group_mb: int = 8,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> Summary:
    """``pgn960 export SRC -o OUT`` with the same options, the same table byte for byte
    (its format from the name, or ``format``); atomic; returns the counts (``games ==
    written + sum(skipped.values())``, ``rows``) and ``outputs``."""

def filter(
    src: Source,
    out: Optional[PathLike],
    *,
    rejects: Optional[PathLike] = None,
    report: Optional[PathLike] = None,
    normalise: bool = False,
    fen_style: Optional[str] = None,
    variant_tag: Optional[str] = None,
    min_elo: Optional[int] = None,
    max_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    time_control: Names = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    sp: Union[str, int, Sequence[int], None] = None,
    black_sp: Union[str, int, Sequence[int], None] = None,
    dfrc: bool = False,
    no_dfrc: bool = False,
    game_variant: Names = None,
    player: Optional[str] = None,
    white: Optional[str] = None,
    black: Optional[str] = None,
    event: Optional[str] = None,
    site: Optional[str] = None,
    ignore_case: bool = False,
    result: Names = None,
    termination: Optional[str] = None,
    outcome: Names = None,
    tag: Names = None,
    reaches: Optional[str] = None,
    invert: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> Summary:
    """``pgn960 filter SRC -o OUT`` with the same selection, the same files byte for byte
    (``out=None``: ``--count``); atomic; returns the counts (``games == written +
    not_selected + invalid``), ``not_selected_by`` and ``outputs``."""

def split(
    src: Source,
    out_dir: PathLike,
    *,
    by: str,
    template: str = "{key}-{value}.pgn",
    max_open: int | None = None,
    force: bool = False,
    append: bool = False,
    rejects: Optional[PathLike] = None,
    report: Optional[PathLike] = None,
    normalise: bool = False,
    fen_style: Optional[str] = None,
    variant_tag: Optional[str] = None,
    min_elo: Optional[int] = None,
    max_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    max_plies: Optional[int] = None,
    time_control: Names = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    sp: Union[str, int, Sequence[int], None] = None,
    black_sp: Union[str, int, Sequence[int], None] = None,
    dfrc: bool = False,
    no_dfrc: bool = False,
    game_variant: Names = None,
    player: Optional[str] = None,
    white: Optional[str] = None,
    black: Optional[str] = None,
    event: Optional[str] = None,
    site: Optional[str] = None,
    ignore_case: bool = False,
    result: Names = None,
    termination: Optional[str] = None,
    outcome: Names = None,
    tag: Names = None,
    reaches: Optional[str] = None,
    invert: bool = False,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> Summary:
    """``pgn960 split SRC --by BY -o DIR`` with the same options, the same files byte for
    byte; every file in place or none; returns the counts (``games == written +
    not_selected + invalid``), ``files`` (name: games) and ``outputs``."""

def schema(
    *, per: str = "game", columns: Names = None, tags: Names = None, movetext: bool = False
) -> pa.Schema: ...
@overload
def sp_of(fens: str) -> Optional[int]: ...
@overload
def sp_of(fens: Sequence[Optional[str]]) -> list[Optional[int]]: ...
@overload
def sp_of(fens: pa.Array) -> pa.Array: ...
@overload
def to_xfen(fens: str) -> str: ...
@overload
def to_xfen(fens: Sequence[Optional[str]]) -> list[Optional[str]]: ...
@overload
def to_xfen(fens: pa.Array) -> pa.Array: ...
@overload
def to_shredder(fens: str) -> str: ...
@overload
def to_shredder(fens: Sequence[Optional[str]]) -> list[Optional[str]]: ...
@overload
def to_shredder(fens: pa.Array) -> pa.Array: ...
def start_fen(sp: int, black_sp: Optional[int] = None) -> str: ...

KeyNames = Union[str, Sequence[str], None]
StatsPart = Union[pa.Table, bytes, tuple[bytes, bytes]]

STRATA_METADATA: bytes

def table_from_csv(data: Union[bytes, PathLike], *, text: Sequence[str] = ()) -> pa.Table: ...
@overload
def stats(
    src: Union[Source, Partition],
    *,
    by: KeyNames = None,
    headers_only: bool = False,
    include_classical: bool = False,
    band_width: int = 200,
    double_chess960: bool = False,
    min_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    time_control: KeyNames = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    threads: int = 0,
    variant: str = "detect",
    start: Optional[int] = None,
    end: Optional[int] = None,
    first_line: Optional[int] = None,
    strata: Literal["event", "time-control", "none"] = "event",
    as_csv: Literal[False] = False,
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.Table: ...
@overload
def stats(
    src: Union[Source, Partition],
    *,
    by: KeyNames = None,
    headers_only: bool = False,
    include_classical: bool = False,
    band_width: int = 200,
    double_chess960: bool = False,
    min_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    time_control: KeyNames = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    threads: int = 0,
    variant: str = "detect",
    start: Optional[int] = None,
    end: Optional[int] = None,
    first_line: Optional[int] = None,
    strata: Literal["event", "time-control", "none"] = "event",
    as_csv: Literal[True],
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> bytes: ...
@overload
def merge_stats(
    tables: Sequence[StatsPart], *, as_csv: Literal[False] = False
) -> pa.Table: ...
@overload
def merge_stats(
    tables: Sequence[StatsPart], *, as_csv: Literal[True]
) -> bytes: ...
@overload
def sp_groups(
    tables: Union[StatsPart, Sequence[StatsPart]], *, as_csv: Literal[False] = False
) -> pa.Table:
    """The SPs grouped by back-rank features with their tests: ``pgn960 stats --groups``'s
    table, for one stats table or several added up (tested within their strata)."""
    ...
@overload
def sp_groups(
    tables: Union[StatsPart, Sequence[StatsPart]], *, as_csv: Literal[True]
) -> bytes: ...
def tree(
    src: Source,
    *,
    depth: int = 2,
    sp: Union[int, str, None] = None,
    min_games: int = 1,
    max_nodes: int = 16_000_000,
    include_classical: bool = False,
    min_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    time_control: KeyNames = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.Table: ...
def pentanomials(
    src: Source,
    *,
    include_classical: bool = False,
    min_elo: Optional[int] = None,
    max_elo_diff: Optional[int] = None,
    min_plies: Optional[int] = None,
    time_control: KeyNames = None,
    since: Optional[str] = None,
    until: Optional[str] = None,
    threads: int = 0,
    variant: str = "detect",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> pa.Table: ...
