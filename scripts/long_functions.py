#!/usr/bin/env python3
"""Lists the workspace's non-test functions longer than a limit (default 80 lines).

    scripts/long_functions.py [LIMIT]

A function is counted from its `fn` line to its closing brace. Left out: `tests/` and
`fuzz/` directories, `target/`, and everything inside a `#[cfg(test)]` item. Braces in
strings, chars and comments are skipped. Prints `lines path:line name`, longest first, and
the count; exits 0.
"""
import pathlib
import re
import sys

LIMIT = int(sys.argv[1]) if len(sys.argv) > 1 else 80
ROOT = pathlib.Path(__file__).resolve().parent.parent
FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?(extern\s+\"C\"\s+)?fn\s+(\w+)")


def code_only(line, state):
    """The line with strings, chars and comments blanked; `state` carries a block comment."""
    out, i = [], 0
    while i < len(line):
        if state["block"]:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out)
            state["block"], i = False, end + 2
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"], i = True, i + 2
            continue
        if c == '"':
            j = i + 1
            while j < len(line) and line[j] != '"':
                j += 2 if line[j] == "\\" else 1
            i = j + 1
            continue
        if c == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(path):
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    state = {"block": False}
    code = [code_only(l, state) for l in lines]
    skip_until, found = -1, []
    for n, text in enumerate(code):
        if n <= skip_until:
            continue
        if lines[n].strip().startswith("#[cfg(test)]"):
            skip_until = item_end(code, n + 1)
            continue
        m = FN.match(text)
        if m:
            end = item_end(code, n)
            if end is not None:
                found.append((end - n + 1, n + 1, m.group(7)))
    return found


def item_end(code, start):
    """The line of the brace closing the item beginning at `start` (None: no body)."""
    depth, opened = 0, False
    for n in range(start, len(code)):
        for c in code[n]:
            if c == "{":
                depth, opened = depth + 1, True
            elif c == "}":
                depth -= 1
                if opened and depth == 0:
                    return n
            elif c == ";" and not opened and depth == 0:
                return None
    return None


rows = []
for path in sorted(ROOT.rglob("*.rs")):
    parts = path.relative_to(ROOT).parts
    if {"tests", "fuzz", "target"} & set(parts) or parts[0].startswith("."):
        continue
    for length, line, name in functions(path):
        if length > LIMIT:
            rows.append((length, f"{path.relative_to(ROOT)}:{line}", name))
for length, where, name in sorted(rows, reverse=True):
    print(f"{length:5} {where} {name}")
print(f"{len(rows)} functions over {LIMIT} lines")
