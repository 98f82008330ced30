"""A command whose reader leaves (``| head -1``) ends quietly with 141, in both packages: the
output was cut, so no verdict (0 or 1) is claimed, and no traceback or "error" is printed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"


def _with_reader_gone(*argv: str) -> tuple[int, str]:
    env = {**os.environ, "PYTHONWARNINGS": "default"}
    proc = subprocess.Popen(
        [sys.executable, "-c", f"import sys; from {argv[0]} import main; sys.exit(main())",
         *argv[1:]],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line
    try:
        err = proc.stderr.read()
        return proc.wait(timeout=120), err
    finally:
        proc.stderr.close()


@pytest.mark.parametrize(
    "argv",
    [
        ["pytest_texts_score.cli", "compare", str(EXAMPLES / "texts" / "expected.txt"),
         str(EXAMPLES / "texts" / "given.txt")],
        ["toolscore.cli", "eval", str(EXAMPLES / "toolscore" / "gold.json"),
         str(EXAMPLES / "toolscore" / "trace_anthropic.json")],
    ],
    ids=["texts-score", "toolscore"],
)  # fmt: skip
def test_a_reader_that_leaves_early_ends_the_command_quietly_with_141(argv: list[str]) -> None:
    code, err = _with_reader_gone(*argv)
    assert (code, err) == (141, "")
