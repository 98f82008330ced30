"""report_format: the --report / -o pair of a command, one rule for every command."""

from __future__ import annotations

import pytest

from scorekit.report import report_format


@pytest.mark.parametrize(
    ("report", "output", "fmt"),
    [
        (None, None, None),
        ("html", "r.txt", "html"),
        (None, "out/report.JSON", "json"),
        (None, "r.htm", "html"),
        (None, "r.markdown", "md"),
    ],
)
def test_the_format_comes_from_report_or_else_the_suffix(
    report: str | None, output: str | None, fmt: str | None
) -> None:
    assert report_format(report, output) == fmt


def test_a_half_given_pair_says_what_is_missing() -> None:
    with pytest.raises(ValueError, match=r"--report md needs -o PATH"):
        report_format("md", None)
    with pytest.raises(ValueError, match=r"-o r\.txt: cannot tell the report format"):
        report_format(None, "r.txt")
