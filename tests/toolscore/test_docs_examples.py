"""The code examples of the toolscore docs pages run and print what the pages show."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "toolscore"
PAGES = ["reports-and-metrics.md"]
_EXAMPLE = re.compile(r"```python\n(.*?)```\n\n```\n(.*?)```", re.S)


def _examples() -> list[tuple[str, int, str, str]]:
    out = []
    for page in PAGES:
        for n, (code, shown) in enumerate(_EXAMPLE.findall((DOCS / page).read_text()), 1):
            out.append((page, n, code, shown))
    return out


@pytest.mark.parametrize(("page", "n", "code", "shown"), _examples(), ids=lambda v: str(v)[:30])
def test_example_prints_what_the_page_shows(page: str, n: int, code: str, shown: str) -> None:
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, f"{page} example {n}", "exec"), {})
    assert printed.getvalue() == shown
