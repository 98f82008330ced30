"""Modules stay small enough to read: one over 400 lines says why in its docstring.

A long module is allowed where its length is one idea (one function per public name of a
reference API, one recursive generator, data); its docstring says so in a sentence beginning
"Over 400 lines". At most twelve such modules exist (issue 36); a thirteenth means one of them
holds two ideas and wants splitting.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
LIMIT = 400
MOST_LONG_MODULES = 12


def _long_modules() -> dict[str, int]:
    found: dict[str, int] = {}
    for path in sorted(SRC.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").count("\n")
        if lines > LIMIT:
            found[str(path.relative_to(SRC))] = lines
    return found


def test_each_long_module_says_why() -> None:
    silent = [
        name
        for name in _long_modules()
        if "Over 400 lines" not in (ast.get_docstring(ast.parse((SRC / name).read_text())) or "")
    ]
    assert not silent, (
        f"These modules are over {LIMIT} lines and their docstrings do not say why "
        f"('Over 400 lines: ...'): {', '.join(silent)}. Split them, or give the reason."
    )


def test_few_long_modules() -> None:
    long_ones = _long_modules()
    assert len(long_ones) <= MOST_LONG_MODULES, (
        f"{len(long_ones)} modules are over {LIMIT} lines (at most {MOST_LONG_MODULES}): "
        + ", ".join(f"{name} ({n})" for name, n in sorted(long_ones.items()))
    )
