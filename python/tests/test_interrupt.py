"""Ctrl-C interrupts a long call: a read of a stream that never ends (a FIFO fed games
forever) raises KeyboardInterrupt within seconds, for every way of reading, and the verbs
that write (clean, export, filter, split) leave no file behind."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "sample.pgn"

CHILD = textwrap.dedent(
    """
    import signal, sys, threading, time, pgn960
    # Python keeps SIGINT ignored when it starts so (a CI launched in the background):
    # the test needs its KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    fifo, sample, how = sys.argv[1:4]
    games = open(sample, "rb").read()

    def feed():
        with open(fifo, "wb") as f:
            while True:
                f.write(games)
                f.flush()
                time.sleep(0.01)

    threading.Thread(target=feed, daemon=True).start()
    print("reading", flush=True)
    try:
        if how == "to_arrow":
            pgn960.to_arrow(fifo)
        elif how == "check":
            pgn960.check(fifo)
        elif how == "clean":
            pgn960.clean(fifo, fifo + ".clean.pgn")
        elif how == "export":
            pgn960.export(fifo, fifo + ".csv")
        elif how == "filter":
            pgn960.filter(fifo, fifo + ".out.pgn", rejects=fifo + ".bad.pgn")
        elif how == "split":
            pgn960.split(fifo, fifo + ".parts", by="sp")
        elif how == "read":
            for game in pgn960.read(fifo):
                pass
        elif how == "scan":
            for batch in pgn960.scan(fifo):
                pass
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(3)
    print("ended", flush=True)
    """
)


@pytest.mark.parametrize(
    "how", ["to_arrow", "check", "clean", "export", "filter", "split", "read", "scan"]
)
def test_ctrl_c_interrupts_a_read_of_an_endless_stream(tmp_path, how):
    fifo = tmp_path / "endless.pgn"
    os.mkfifo(fifo)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(fifo), str(SAMPLE), how],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline().strip() == "reading"
        time.sleep(1.0)  # well inside the call, which cannot end on its own
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=15)
    finally:
        child.kill()
    assert child.returncode == 3, (child.returncode, out, err[-2000:])
    assert out.strip() == "interrupted", (out, err[-2000:])
    # Nothing written, no temporary or lock file left (the verbs' outputs are atomic);
    # split's directory, made before the games are read, is left empty.
    left = {p.name for p in tmp_path.iterdir()} - {fifo.name}
    if how == "split":
        parts = tmp_path / (fifo.name + ".parts")
        assert left == {parts.name} and list(parts.iterdir()) == []
    else:
        assert left == set()
