"""The faces reach ``scorekit`` only through its packages' public names (one door per idea).

Every import in ``src/toolscore`` and ``src/pytest_texts_score`` that names ``scorekit`` is
read with ``ast``, those inside functions and under ``TYPE_CHECKING`` included: none may name
an underscore module (``scorekit._x``, ``scorekit.judges._y``) or import an underscore name
from a package.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
FACES = ("toolscore", "pytest_texts_score")


def _scorekit_imports(path: Path) -> list[tuple[int, str]]:
    """``(line, what)`` for each import of ``scorekit`` in ``path``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [
                (node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "scorekit"
            ]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("scorekit"):
            found += [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
    return found


def _private(dotted: str) -> bool:
    return any(part.startswith("_") for part in dotted.split("."))


def _face_files() -> list[Path]:
    return sorted(p for face in FACES for p in (SRC / face).rglob("*.py"))


def test_the_walk_sees_imports_inside_functions_and_type_checking(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from scorekit.session._session import ScoreSession\n"
        "def f():\n"
        "    import scorekit._x\n"
        "    from scorekit.format import shorten\n",
        encoding="utf-8",
    )
    found = _scorekit_imports(sample)
    assert [what for _, what in found if _private(what)] == [
        "scorekit.session._session.ScoreSession",
        "scorekit._x",
    ]
    assert (6, "scorekit.format.shorten") in found


def test_the_faces_import_scorekit_through_public_names_only() -> None:
    files = _face_files()
    assert len(files) > 50  # the walk found the faces
    reached = [
        f"{path.relative_to(SRC)}:{line}: {what}"
        for path in files
        for line, what in _scorekit_imports(path)
        if _private(what)
    ]
    if reached:
        pytest.fail(
            f"{len(reached)} imports reach private parts of scorekit; import the name from its"
            " package instead (scorekit.judges, scorekit.report, scorekit.session, ...):\n"
            + "\n".join(reached)
        )
