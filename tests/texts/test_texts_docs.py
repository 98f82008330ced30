"""The documentation of pytest_texts_score runs as written and shows its true output.

A Markdown page is read as examples: fenced ``python`` blocks whose first line is a comment
naming a file (``# test_thresholds.py``) are the files of an example; the ``console`` block
after them runs the ``$ pytest ...`` line in a fresh folder holding those files and compares
every line of its output, durations aside.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGE = ROOT / "docs" / "texts" / "testing-without-a-judge.md"

_FENCE = re.compile(r"^```(\w+)\n(.*?)^```$", re.M | re.S)
_FILE = re.compile(r"^# (\S+\.py)\n")


@dataclass
class Example:
    files: dict[str, str] = field(default_factory=dict)
    command: list[str] = field(default_factory=list)
    output: list[str] = field(default_factory=list)


def examples(markdown: str) -> list[Example]:
    out: list[Example] = []
    current = Example()
    for lang, body in _FENCE.findall(markdown):
        if lang == "python" and (name := _FILE.match(body)):
            current.files[name.group(1)] = body[name.end() :]
        elif lang == "console" and body.startswith("$ pytest"):
            first, *rest = body.rstrip("\n").split("\n")
            current.command = first.split()[2:]
            current.output = rest
            out.append(current)
            current = Example()
    return out


def section(markdown: str, title: str) -> str:
    start = markdown.index(f"\n{title}\n")
    following = re.compile(r"^#{2,3} ", re.M).search(markdown, start + len(title) + 2)
    return markdown[start : following.start() if following else len(markdown)]


def _pattern(line: str) -> str:
    line = line.replace("[", "\x00").replace("]", "[]]").replace("\x00", "[[]")
    line = re.sub(r"\bin \d+\.\d+s\b", "in *s", line)  # how long the run took
    return re.sub(r"\b\d+\.\d+ s judge time", "* s judge time", line)


def _run(pytester: pytest.Pytester, example: Example) -> None:
    for name, text in example.files.items():
        pytester.path.joinpath(name).write_text(text)
    # A fresh process: a conftest.py that configures a judge must not touch this run.
    result = pytester.runpytest_subprocess("-p", "no:randomly", *example.command)
    result.stdout.fnmatch_lines([_pattern(line) for line in example.output], consecutive=True)


PAGE_EXAMPLES = examples(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_its_examples() -> None:
    assert [e.command for e in PAGE_EXAMPLES] == [
        ["-q", "test_thresholds.py"],
        ["-q", "test_seams.py"],
        ["-q", "test_retries.py"],
        ["-q", "test_summary.py"],
    ]


@pytest.mark.parametrize("example", PAGE_EXAMPLES, ids=lambda e: e.command[-1])
def test_the_page_examples_run_as_shown(pytester: pytest.Pytester, example: Example) -> None:
    _run(pytester, example)


def test_the_readme_section_runs_as_shown(pytester: pytest.Pytester) -> None:
    text = section(README.read_text(encoding="utf-8"), "### Testing without a judge")
    assert len(text.splitlines()) <= 35  # a short section; the page has the rest
    assert "docs/texts/testing-without-a-judge.md" in text
    assert "configure(backend=" in text
    (example,) = examples(text)
    _run(pytester, example)


def test_the_readme_says_where_the_constants_live() -> None:
    # Where the reference document puts them: MINIMAL_EXPECTED_MAX_DELTA in `api` (the
    # assertions' tolerance), MAXIMAL_RETRY_ON_ERROR in `evaluate_score` (the scoring retries).
    text = README.read_text(encoding="utf-8")
    homes = set(
        re.findall(
            r"pytest_texts_score\.(\w+)\.(MINIMAL_EXPECTED_MAX_DELTA|MAXIMAL_RETRY_ON_ERROR)", text
        )
    )
    assert homes == {
        ("api", "MINIMAL_EXPECTED_MAX_DELTA"),
        ("evaluate_score", "MAXIMAL_RETRY_ON_ERROR"),
    }
    assert "`pytest_texts_score.api.MINIMAL_EXPECTED_MAX_DELTA = 0.05`" in text
    assert "`pytest_texts_score.evaluate_score.MAXIMAL_RETRY_ON_ERROR = 5`" in text
