"""The BFCL page's pytest example is the example file, and running it shows the quoted failure.

The page's ``>>>`` sessions and ``$ toolscore bfcl ...`` commands (also in README.md) are run
by the docs runner in ``tests/docs``, like every other page's examples.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "toolscore" / "bfcl.md"


def blocks(path: Path) -> list[tuple[str, str]]:
    """(language, body) of every fenced code block (attributes after the language ignored)."""
    return re.findall(r"^```(\w*)[^\n]*\n(.*?)^```", path.read_text(), flags=re.S | re.M)


def test_the_pytest_example_is_the_example_file_and_fails_as_shown() -> None:
    suite = (ROOT / "examples" / "bfcl" / "bfcl_suite.py").read_text()
    python_blocks = [body for info, body in blocks(DOCS) if info == "python"]
    assert suite in python_blocks
    quoted = next(body for info, body in blocks(DOCS) if info == "" and "parallel_7" in body)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "examples/bfcl/bfcl_suite.py", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    start = lines.index(quoted.splitlines()[0].rstrip())
    assert lines[start : start + len(quoted.splitlines())] == [
        line.rstrip() for line in quoted.splitlines()
    ]
    assert "3 failed, 22 passed" in lines[-1]
