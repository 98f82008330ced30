"""Odd argument values a new user may pass: each gives a clear error or a shortened view,
never a hang or a crash in ``to_dict()``, the failure text or a report writer."""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from toolscore import evaluate, match_trajectory, reports
from toolscore._engine.compare.rule import SelfContainingValue, find_cycle, values_match
from toolscore._engine.score.display import MAX_DEPTH, jsonable, safe_repr
from toolscore.metrics.security import find_secrets


class BadRepr:
    def __repr__(self) -> str:
        raise RuntimeError("repr refused")


def _self_containing() -> dict[str, Any]:
    d: dict[str, Any] = {"a": 1}
    d["self"] = d
    return d


def _deep(levels: int) -> list[Any]:
    top: list[Any] = []
    cur = top
    for _ in range(levels):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    return top


@pytest.mark.parametrize("side", ["expected", "actual", "both"])
def test_self_containing_arguments_are_a_clear_error_naming_the_argument(side: str) -> None:
    d = _self_containing()
    plain = [{"tool": "save", "args": {"doc": {"a": 1}}}]
    loop = [{"tool": "save", "args": {"doc": d}}]
    expected = loop if side in ("expected", "both") else plain
    actual = loop if side in ("actual", "both") else plain
    with pytest.raises(ValueError) as info:
        evaluate(expected, actual)
    message = str(info.value)
    first = "expected" if side != "actual" else "actual"
    assert message.startswith(f"{first}[0] ('save'): argument 'doc' contains itself")
    assert "doc['self']" in message
    assert "plain data" in message


def test_a_self_containing_value_inside_a_list_names_its_path() -> None:
    d = _self_containing()
    with pytest.raises(ValueError, match=r"argument 'q' contains itself \(at q\[1\]\['self'\]\)"):
        evaluate([{"tool": "t", "args": {"q": [0, d]}}], [{"tool": "t", "args": {"q": [0, d]}}])


def test_the_comparison_rule_refuses_a_self_containing_value_instead_of_looping() -> None:
    d, e = _self_containing(), _self_containing()
    with pytest.raises(SelfContainingValue) as info:
        values_match(d, e)
    assert info.value.path == "['self']"
    with pytest.raises(ValueError, match="contains itself"):
        match_trajectory([{"tool": "t", "args": {"x": d}}], [{"tool": "t", "args": {"x": e}}])


def test_find_cycle_tells_shared_values_from_circles() -> None:
    shared = [1, 2]
    assert find_cycle({"a": shared, "b": shared, "c": (shared, shared)}) is None
    assert find_cycle(_deep(5_000)) is None
    d = _self_containing()
    assert find_cycle([{"x": d}]) == "[0]['x']['self']"


def test_deep_values_still_compare_by_the_rule() -> None:
    assert values_match(_deep(5_000), _deep(5_000))
    assert not values_match(_deep(5_000), _deep(4_999))


NASTY = {
    "deep": _deep(5_000),
    "huge": 10**5000,
    "bad_repr": BadRepr(),
}


def _result(kind: str, side: str) -> Any:
    value = NASTY[kind]
    expected = [{"tool": "t", "args": {"x": value if side == "expected" else 1, "y": 2}}]
    actual = [{"tool": "t", "args": {"x": value if side == "actual" else 1, "y": 3}}]
    return evaluate(expected, actual)


MARKERS = {
    "deep": f"<list nested deeper than {MAX_DEPTH} levels>",
    "huge": "<int of about 5,001 digits>",
    "bad_repr": "<BadRepr object: repr failed (RuntimeError)>",
}


@pytest.mark.parametrize("side", ["expected", "actual"])
@pytest.mark.parametrize("kind", sorted(NASTY))
def test_to_dict_shows_deep_huge_and_unprintable_values_with_a_marker(kind: str, side: str) -> None:
    data = _result(kind, side).to_dict()
    text = json.dumps(data)  # serialises: no RecursionError, no int-to-str ValueError
    assert MARKERS[kind] in text


@pytest.mark.parametrize("side", ["expected", "actual"])
@pytest.mark.parametrize("kind", sorted(NASTY))
def test_the_failure_text_survives_odd_values(kind: str, side: str) -> None:
    text = _result(kind, side).explain()
    assert "Tool calls scored" in text
    assert "y=2" in text or "y=3" in text  # the rest of the call is still shown


WRITERS: dict[str, Callable[..., Any]] = {
    "json": reports.generate_json_report,
    "html": reports.generate_html_report,
    "md": reports.generate_markdown_report,
    "csv": reports.generate_csv_report,
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("kind", sorted(NASTY))
def test_every_report_writer_survives_odd_values(kind: str, writer: str, tmp_path: Path) -> None:
    result = _result(kind, "actual")
    path = Path(WRITERS[writer](result, tmp_path / f"report.{writer}"))
    text = path.read_text(encoding="utf-8")
    assert text.strip()
    if writer == "json":
        doc = json.loads(text)
        assert MARKERS[kind] in json.dumps(doc["trace_calls"])


@pytest.mark.parametrize("kind", sorted(NASTY))
def test_the_console_summary_survives_odd_values(kind: str) -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        reports.print_evaluation_summary(_result(kind, "actual"))
    assert out.getvalue().strip()


def test_safe_repr_and_jsonable_never_raise() -> None:
    assert safe_repr(BadRepr()) == "<BadRepr object: repr failed (RuntimeError)>"
    assert safe_repr("x" * 5_000, limit=20) == "'" + "x" * 16 + "..."
    assert safe_repr(10**5000) == "<int of about 5,001 digits>"
    assert "..." in safe_repr(_deep(5_000))
    assert jsonable({BadRepr(): 1, 10**5000: 2}) == {
        "<BadRepr object: repr failed (RuntimeError)>": 1,
        "<int of about 5,001 digits>": 2,
    }


def test_finding_secrets_reads_any_depth_and_stops_at_a_circle() -> None:
    deep: list[Any] = _deep(3_000)
    cur = deep
    while cur:
        cur = cur[0]
    cur.append("ghp_" + "A1b2C3d4E5" * 3 + "F6g7H8")  # a GitHub token
    found = find_secrets([{"tool": "t", "args": {"x": deep, "loop": _self_containing()}}])
    assert found["secret_count"] == 1
    assert found["secrets"][0]["path"].startswith("x[0][0]")
