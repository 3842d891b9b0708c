"""Type stubs of pgn960.dask."""

import os
from typing import Any, Literal, Optional, Sequence, Union, overload

import dask.dataframe as dd
import pyarrow as pa

PathLike = Union[str, os.PathLike[str]]
AssumedStart = Union[int, tuple[int, int], str]
Names = Union[str, Sequence[str], None]

def read(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    partitions: Optional[int] = None,
    target_bytes: Optional[int] = None,
    per: str = "game",
    columns: Names = None,
    tags: Names = None,
    include_invalid: bool = False,
    movetext: bool = False,
    variant: str = "detect",
    threads: int = 1,
    max_game_bytes: Optional[int] = None,
    assume_sp: Optional[AssumedStart] = None,
) -> dd.DataFrame: ...
@overload
def stats(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    partitions: Optional[int] = None,
    target_bytes: Optional[int] = None,
    as_csv: Literal[False] = False,
    **options: Any,
) -> pa.Table: ...
@overload
def stats(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    partitions: Optional[int] = None,
    target_bytes: Optional[int] = None,
    as_csv: Literal[True],
    **options: Any,
) -> bytes: ...
