"""Seed corpora for the `selection` and `parquet_rows` fuzz targets (needs pyarrow).

Usage (from fuzz/): python3 seeds.py  -> corpus/selection/*, corpus/parquet_rows/*
Parquet seeds are small tables of games in the lichess dataset schema: a `movetext`
column (string, large string, string view, binary, dictionary; one null), tag columns of
several types, every compression, both data page versions, several row groups.
"""

import datetime
import io
import os

import pyarrow as pa
import pyarrow.parquet as pq

HERE = os.path.dirname(os.path.abspath(__file__))

SELECTION = [
    "0-959", "1,5,10-20", "518", "+7", "007", "959-0", "1000", "",
    "White=Magnus", "Event~Rapid", "WhiteElo=2500", "=x", "a~",
    "2024.01.15", "2024.01", "2024", "2024.01.01-2024.03.31", "2024.??.??",
    "bullet", "blitz", "rapid", "classical", "correspondence", "ultrabullet",
    "180+2", "600+0", "-", "1/86400", "57777777+0399",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf -",
]

GAMES = [
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0",
    "1. d4 { a comment\nover lines } d5 ; rest of line\n2. c4 *",
    "1. g3 g6 2. Bg2 Bg7 1/2-1/2",
    "",
    "1. e4 (1. d4 d5) e5 0-1",
]
FENS = ["", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1", "", "", ""]


def table(movetext_type):
    movetext = pa.array(GAMES, type=pa.string()).cast(movetext_type)
    return pa.table({
        "Event": pa.array(["Rated Blitz game", "Casual", None, "Rated Rapid", "x"]),
        "White": pa.array(["a", "b\"q\\", "c", "d", "e"]).dictionary_encode(),
        "WhiteElo": pa.array([1500, 2000, None, 2900, 0], type=pa.int32()),
        "BlackRatingDiff": pa.array([-5, 3, 0, None, 12], type=pa.int16()),
        "Result": pa.array(["1-0", "*", "1/2-1/2", "0-1", "?"]),
        "UTCDate": pa.array([datetime.date(2024, 1, d) for d in range(1, 6)]),
        "UTCTime": pa.array([datetime.time(h, 5, 7) for h in range(5)]),
        "Rated": pa.array([True, False, True, None, False]),
        "Score": pa.array([0.5, 1.0, float("nan"), None, -2.5], type=pa.float32()),
        "FEN": pa.array(FENS),
        "movetext": movetext,
    })


def write(dir_, name, tbl, **kw):
    buf = io.BytesIO()
    pq.write_table(tbl, buf, **kw)
    with open(os.path.join(dir_, name), "wb") as f:
        f.write(buf.getvalue())


def varint(n):
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def claiming_huge_chunks(tbl, **kw):
    """A file whose footer claims each column chunk holds 1 GiB uncompressed (field 6 of
    the compact-Thrift ColumnMetaData, an i64 after field 5): the reader then reads the
    chunk's page headers (`parquet/pages.rs`) before decoding, so mutations reach them."""
    buf = io.BytesIO()
    pq.write_table(tbl, buf, **kw)
    data = buf.getvalue()
    size = int.from_bytes(data[-8:-4], "little")
    footer = data[-8 - size:-8]
    meta = pq.ParquetFile(io.BytesIO(data)).metadata
    claimed = b"\x16" + varint((1 << 30) * 2)  # zigzag of 1 GiB
    for g in range(meta.num_row_groups):
        for c in range(meta.num_columns):
            col = meta.row_group(g).column(c)
            # Fields 5, 6, 7 (num_values, total_uncompressed_size, total_compressed_size).
            fields = [b"\x16" + varint(2 * n) for n in
                      (col.num_values, col.total_uncompressed_size, col.total_compressed_size)]
            footer = footer.replace(b"".join(fields), fields[0] + claimed + fields[2], 1)
    body = data[:-8 - size]
    return body + footer + len(footer).to_bytes(4, "little") + b"PAR1"


def main():
    sel = os.path.join(HERE, "corpus", "selection")
    os.makedirs(sel, exist_ok=True)
    for i, text in enumerate(SELECTION):
        with open(os.path.join(sel, f"seed-{i:02}"), "w") as f:
            f.write(text)
    out = os.path.join(HERE, "corpus", "parquet_rows")
    os.makedirs(out, exist_ok=True)
    types = {
        "string": pa.string(), "large": pa.large_string(), "view": pa.string_view(),
        "binary": pa.binary(), "large-binary": pa.large_binary(),
    }
    for tname, t in types.items():
        write(out, f"type-{tname}.parquet", table(t))
    write(out, "dictionary.parquet",
          table(pa.string()).set_column(10, "movetext", pa.array(GAMES).dictionary_encode()))
    for codec in ["none", "snappy", "gzip", "zstd", "lz4", "brotli"]:
        write(out, f"codec-{codec}.parquet", table(pa.string()), compression=codec)
    write(out, "page-v2.parquet", table(pa.string()), data_page_version="2.0")
    write(out, "row-groups.parquet", table(pa.string()), row_group_size=2)
    write(out, "no-dictionary.parquet", table(pa.string()), use_dictionary=False)
    write(out, "no-stats-no-arrow-schema.parquet", table(pa.string()),
          write_statistics=False, store_schema=False)
    write(out, "movetext-only.parquet", pa.table({"movetext": pa.array(GAMES)}))
    write(out, "null-movetext.parquet",
          pa.table({"movetext": pa.array([None, "1. e4 *"]), "Site": pa.array(["x", None])}))
    write(out, "lists-skipped.parquet",
          pa.table({"movetext": pa.array(["1. e4 *"]), "clocks": pa.array([[1, 2]])}))
    write(out, "no-movetext.parquet", pa.table({"Event": pa.array(["x"])}))
    for codec in ["none", "zstd"]:
        with open(os.path.join(out, f"claims-huge-chunks-{codec}.parquet"), "wb") as f:
            f.write(claiming_huge_chunks(table(pa.string()), compression=codec,
                                         data_page_size=64, row_group_size=3))


if __name__ == "__main__":
    main()
