"""The typed front: every public name has a stub, every native function a native stub."""

from __future__ import annotations

import ast
from pathlib import Path

import pgn960
from pgn960 import _native

PACKAGE = Path(pgn960.__file__).parent


def stub_names(path: Path) -> set[str]:
    """The names a stub file defines at its top level."""
    names = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.ImportFrom):
            names.update(a.asname or a.name for a in node.names)
    return names


def test_every_public_name_has_a_stub():
    missing = set(pgn960.__all__) - stub_names(PACKAGE / "__init__.pyi")
    assert not missing, f"no stub in __init__.pyi for {sorted(missing)}"


def test_every_native_function_has_a_native_stub():
    native = {n for n in dir(_native) if not n.startswith("_") and callable(getattr(_native, n))}
    missing = native - stub_names(PACKAGE / "_native.pyi")
    assert not missing, f"no stub in _native.pyi for {sorted(missing)}"
