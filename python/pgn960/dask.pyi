"""Type stubs of pgn960.dask."""

import os
from typing import Optional, Sequence, Union

import dask.dataframe as dd

PathLike = Union[str, os.PathLike[str]]
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
) -> dd.DataFrame: ...
