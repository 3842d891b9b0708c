"""Type stubs of the native part of pgn960 (use the functions of ``pgn960`` itself)."""

from typing import Any, Iterator, Optional, Union

AssumedStart = Union[int, tuple[int, int], str]

class Error(Exception):
    """A pgn960 error; ``path``, ``line`` and ``offset`` say where, when known."""

    path: Optional[str]
    line: Optional[int]
    offset: Optional[int]

class InputError(Error):
    """An input that cannot be read as games."""

class OptionError(Error):
    """A bad argument."""

class IoError(Error):
    """An input that cannot be opened or read, or that changed while it was read."""

class Game:
    """One game with its verdict."""

    @property
    def valid(self) -> bool: ...
    @property
    def reason(self) -> Optional[str]: ...
    @property
    def detail(self) -> Optional[str]: ...
    @property
    def location(self) -> Optional[str]: ...
    @property
    def source(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def line(self) -> int: ...
    @property
    def tags(self) -> dict[str, str]: ...
    @property
    def variant(self) -> Optional[str]: ...
    @property
    def sp(self) -> Optional[int]: ...
    @property
    def black_sp(self) -> Optional[int]: ...
    @property
    def start_xfen(self) -> Optional[str]: ...
    @property
    def final_xfen(self) -> Optional[str]: ...
    @property
    def plies(self) -> Optional[int]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def outcome(self) -> Optional[str]: ...
    @property
    def repairs(self) -> list[str]: ...
    def moves(self, fmt: str = "san") -> list[str]: ...
    def clocks(self) -> list[Optional[float]]: ...
    def evals(self) -> list[Optional[float]]: ...
    def evals_mate(self) -> list[Optional[int]]: ...
    def to_pgn(self) -> str: ...
    def board(self) -> Any: ...

class GameIter(Iterator[Game]):
    def __iter__(self) -> "GameIter": ...
    def __next__(self) -> Game: ...

class Summary:
    """The counts of ``check``, ``clean``, ``export``, ``filter`` or ``split`` and the
    files written."""

    verb: str
    games: int
    valid: Optional[int]
    unsupported: Optional[int]
    invalid: int
    written: int
    deduplicated: int
    not_selected: int
    rows: Optional[int]
    reasons: dict[str, int]
    variants: dict[str, int]
    repairs: dict[str, int]
    not_selected_by: dict[str, int]
    skipped: dict[str, int]
    files: dict[str, int]
    junk_bytes: int
    first_junk: Optional[str]
    bytes: int
    seconds: float
    outputs: dict[str, str]
    problems: list[dict[str, Any]]

def read(
    src: list[str],
    threads: int,
    include_invalid: bool,
    variant: str,
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> GameIter: ...
def scan(
    src: list[str],
    per: str,
    columns: Optional[list[str]],
    tags: Optional[list[str]],
    include_invalid: bool,
    movetext: bool,
    threads: int,
    variant: str,
    start: Optional[int] = None,
    end: Optional[int] = None,
    first_line: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
    max_game_bytes: Optional[int] = None,
) -> Any: ...
def to_arrow(
    src: list[str],
    per: str,
    columns: Optional[list[str]],
    tags: Optional[list[str]],
    include_invalid: bool,
    movetext: bool,
    threads: int,
    variant: str,
    start: Optional[int] = None,
    end: Optional[int] = None,
    first_line: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
    max_game_bytes: Optional[int] = None,
) -> Any: ...
def schema(
    per: str, columns: Optional[list[str]], tags: Optional[list[str]], movetext: bool
) -> Any: ...
def check(
    src: list[str],
    threads: int,
    variant: str,
    max_game_bytes: Optional[int],
    assume_sp: Optional[AssumedStart],
    max_errors: int,
) -> Summary: ...
def clean(
    src: list[str],
    output: str,
    rejects: Optional[str],
    report: Optional[str],
    fen_style: str,
    strip_comments: bool,
    keep_annotations: Optional[list[str]],
    strip_variations: bool,
    drop_bad_variations: bool,
    dedupe: bool,
    min_plies: Optional[int],
    threads: int,
    variant: str,
    max_game_bytes: Optional[int],
    assume_sp: Optional[AssumedStart],
    variant_tag: str = "chess960",
) -> Summary: ...
def export(
    src: list[str],
    output: str,
    format: Optional[str],
    per: str,
    columns: Optional[list[str]],
    tags: Optional[list[str]],
    include_invalid: bool,
    movetext: bool,
    uci_castling: str,
    row_group_mb: int,
    threads: int,
    variant: str,
    max_game_bytes: Optional[int],
    assume_sp: Optional[AssumedStart] = None,
) -> Summary: ...
def filter(
    src: list[str],
    output: Optional[str],
    rejects: Optional[str],
    report: Optional[str],
    normalise: bool,
    fen_style: Optional[str],
    variant_tag: Optional[str],
    filters: dict[str, Any],
    selection: dict[str, Any],
    threads: int,
    variant: str,
    max_game_bytes: Optional[int],
    assume_sp: Optional[AssumedStart],
) -> Summary: ...
def split(
    src: list[str],
    output: str,
    by: str,
    template: str,
    max_open: int | None,
    force: bool,
    append: bool,
    rejects: Optional[str],
    report: Optional[str],
    normalise: bool,
    fen_style: Optional[str],
    variant_tag: Optional[str],
    filters: dict[str, Any],
    selection: dict[str, Any],
    threads: int,
    variant: str,
    max_game_bytes: Optional[int],
    assume_sp: Optional[AssumedStart],
) -> Summary: ...
def partitions(paths: list[str], target_bytes: int) -> list[tuple[str, int, int, int]]: ...
def sp_of(fens: Any) -> Any: ...
def to_xfen(fens: Any) -> Any: ...
def to_shredder(fens: Any) -> Any: ...
def start_fen(sp: int, black_sp: Optional[int] = None) -> str: ...
def stats(
    src: list[str],
    threads: int,
    variant: str,
    by: list[str],
    band_width: int,
    headers_only: bool,
    include_classical: bool,
    dfrc: bool,
    filters: dict[str, Any],
    start: Optional[int] = None,
    end: Optional[int] = None,
    first_line: Optional[int] = None,
    strata: str = "event",
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> tuple[bytes, Optional[bytes]]: ...
def merge_stats(tables: list[bytes]) -> tuple[bytes, Optional[bytes]]: ...
def stats_groups(tables: list[bytes]) -> bytes: ...
def tree(
    src: list[str],
    threads: int,
    variant: str,
    depth: int,
    sp: Optional[str],
    min_games: int,
    max_nodes: int,
    include_classical: bool,
    filters: dict[str, Any],
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> bytes: ...
def pentanomials(
    src: list[str],
    threads: int,
    variant: str,
    include_classical: bool,
    filters: dict[str, Any],
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> bytes: ...
