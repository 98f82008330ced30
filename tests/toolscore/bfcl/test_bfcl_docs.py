"""The BFCL documentation runs as written and shows its true output.

docs/toolscore/bfcl.md: the ``>>>`` examples run as doctests, every ``$ toolscore bfcl ...``
block (also in README.md) prints exactly what follows it, the pytest example is
examples/bfcl/bfcl_suite.py, and running it shows the failure text the page quotes.
"""

from __future__ import annotations

import doctest
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from toolscore.cli import main

ROOT = Path(__file__).resolve().parents[3]
DOCS = ROOT / "docs" / "toolscore" / "bfcl.md"
README = ROOT / "README.md"


def blocks(path: Path) -> list[tuple[str, str]]:
    """(info string, body) of every fenced code block."""
    return re.findall(r"^```(\w*)\n(.*?)^```", path.read_text(), flags=re.S | re.M)


def test_the_python_examples_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    outcome = doctest.testfile(str(DOCS), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert outcome.failed == 0 and outcome.attempted >= 10


def console_examples() -> list[tuple[str, str, str]]:
    found = []
    for path in (DOCS, README):
        for info, body in blocks(path):
            if info == "console" and body.startswith("$ toolscore bfcl"):
                command, _, output = body.partition("\n")
                found.append((path.name, command[2:], output))
    return found


@pytest.mark.parametrize(("where", "command", "output"), console_examples())
def test_the_command_examples_print_what_they_show(
    where: str,
    command: str,
    output: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.chdir(ROOT)
    main(shlex.split(command)[1:])
    assert capsys.readouterr().out == output


def test_both_pages_have_a_command_example() -> None:
    assert {where for where, _, _ in console_examples()} == {"bfcl.md", "README.md"}


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
