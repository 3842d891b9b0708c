"""Type stubs of pgn960.spark."""

from typing import Any, Iterator, Literal, Mapping, Optional, Sequence, Union, overload

import pyarrow as pa
from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition
from pyspark.sql.types import StructType

def register(spark: Any) -> None: ...
def spark_schema(options: Optional[Mapping[str, object]] = None) -> StructType: ...

class RangesPartition(InputPartition):
    ranges: list[tuple[str, int, int, int]]
    def __init__(self, ranges: list[tuple[str, int, int, int]]) -> None: ...

class Pgn960DataSource(DataSource):
    @classmethod
    def name(cls) -> str: ...
    def schema(self) -> StructType: ...
    def reader(self, schema: StructType) -> "Pgn960Reader": ...

class Pgn960Reader(DataSourceReader):
    def __init__(self, options: dict[str, object]) -> None: ...
    def partitions(self) -> list[RangesPartition]: ...
    def read(self, partition: RangesPartition) -> Iterator[pa.RecordBatch]: ...

@overload
def stats(
    spark: Any,
    paths: Union[str, Sequence[str]],
    *,
    partitions: Optional[int] = None,
    target_bytes: Optional[int] = None,
    as_csv: Literal[False] = False,
    **options: Any,
) -> pa.Table: ...
@overload
def stats(
    spark: Any,
    paths: Union[str, Sequence[str]],
    *,
    partitions: Optional[int] = None,
    target_bytes: Optional[int] = None,
    as_csv: Literal[True],
    **options: Any,
) -> bytes: ...
