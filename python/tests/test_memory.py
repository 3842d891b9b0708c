"""The heap of ``pgn960.scan`` is bounded: a subprocess scans streamed inputs of about
100 MB and 200 MB and a memory-mapped one of 100 MB, and its peak memory stays under a
stated bound whatever the input's size.

The peak is the process's ``VmHWM`` (the ``ru_maxrss`` of its own image: ``ru_maxrss``
itself keeps the high-water mark of the process it was forked from, here pytest's)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

from conftest import FIXTURES

#: Peak resident memory of the scanning process (Python, pyarrow and pgn960 loaded: about
#: 60 MB before the scan), in KiB.
MAX_RSS_KIB = 256 << 10
#: Peak anonymous memory (the heaps of Python, pyarrow and pgn960, without mapped files),
#: in KiB.
MAX_HEAP_KIB = 128 << 10
#: How much more a scan of twice the games may take at its peak, in KiB.
MAX_GROWTH_KIB = 24 << 10

SCAN = r"""
import json, sys
import pgn960

def status_kib(field):
    for line in open("/proc/self/status"):
        if line.startswith(field + ":"):
            return int(line.split()[1])
    return 0

before = status_kib("VmHWM")
rows, peak_anon = 0, 0
for batch in pgn960.scan(sys.argv[1], threads=2, include_invalid=True):
    rows += batch.num_rows
    peak_anon = max(peak_anon, status_kib("RssAnon"))
after = status_kib("VmHWM")
print(json.dumps({"rows": rows, "before": before, "maxrss": after, "anon": peak_anon}))
"""


def scan_memory(path: Path) -> dict:
    """Rows read and peak memory (KiB) of a process that scans ``path``."""
    done = subprocess.run(
        [sys.executable, "-c", SCAN, str(path)], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_scan_memory_is_bounded_whatever_the_input_size(tmp_path):
    sample = (FIXTURES / "sample.pgn").read_bytes()
    copies = (100 << 20) // len(sample) + 1
    plain = tmp_path / "bulk.pgn"
    plain.write_bytes(sample * copies)
    assert plain.stat().st_size >= 100 << 20
    streams = {}
    for times in (1, 2):
        streams[times] = tmp_path / f"bulk{times}.pgn.gz"
        with gzip.open(streams[times], "wb", compresslevel=1) as out:
            for _ in range(times):
                out.write(plain.read_bytes())
    one, two = scan_memory(streams[1]), scan_memory(streams[2])
    assert two["rows"] == 2 * one["rows"] > 0
    # A streamed input: everything resident is the scan's own memory.
    assert one["maxrss"] < MAX_RSS_KIB and two["maxrss"] < MAX_RSS_KIB, (one, two)
    assert two["maxrss"] - one["maxrss"] < MAX_GROWTH_KIB, (one, two)
    assert one["anon"] < MAX_HEAP_KIB and two["anon"] < MAX_HEAP_KIB, (one, two)
    # A mapped file: its pages count in the resident size as they are read (page cache,
    # given back under pressure), so there the bound is on the heap (anonymous memory).
    mapped = scan_memory(plain)
    assert mapped["rows"] == one["rows"]
    assert mapped["anon"] < MAX_HEAP_KIB, mapped
