"""The report writers (JSON, Markdown, dispatch), the cost estimate and the stats merge."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from scorekit.report import (
    Evidence,
    ReportError,
    RunScore,
    TextScoreRow,
    ToolScoreRow,
    judge_totals,
    row_from_dict,
    write_json,
    write_report,
)
from scorekit.report._prices import estimate_cost


def _text(score: float | None = 0.85, outcome: str = "passed") -> TextScoreRow:
    return TextScoreRow(
        "t.py::test_a",
        "texts_agg_recall_median",
        "recall",
        "median",
        score,
        0.8,
        1.0,
        outcome,
        runs=[RunScore(0, 0, 0.9, 0.8, 0.85), RunScore(1, 1, 1.0, 0.9, 0.95)],
        evidence=[Evidence("recall", "Is the sky | blue?", 0.5, [1, 1])],
        judge="fake",
        expected="The sky is blue.",
        given="Blue sky.",
        seconds=0.25,
    )


def _tool() -> ToolScoreRow:
    return ToolScoreRow(
        "t.py::test_b",
        "assert_tools",
        0.75,
        0.9,
        "failed",
        metrics={"tool_f1": 0.8},
        missing=["search"],
        extra=["book"],
    )


def test_json_report_holds_every_field_and_round_trips(tmp_path: Path) -> None:
    stats = {
        "calls": 4,
        "cache_hits": 1,
        "judge_seconds": 0.5,
        "prompt_tokens": 2_000_000,
        "completion_tokens": 0,
        "model": "gpt-4o-mini",
        "judge": "openai",
    }
    path = write_json([_text(), _tool()], stats, tmp_path / "deep" / "er" / "r.json")
    doc = json.loads(path.read_text())
    assert doc["schema"] == "llm-scorekit-report/1"
    assert doc["summary"] == {
        "texts": {"total": 1, "passed": 1, "failed": 0, "error": 0},
        "tools": {"total": 1, "passed": 0, "failed": 1, "error": 0},
    }
    assert doc["judge"]["calls"] == 4 and doc["judge"]["cache_hits"] == 1
    assert doc["judge"]["estimated_cost_usd"] == pytest.approx(0.30)
    assert row_from_dict(doc["texts"][0]) == _text()
    assert row_from_dict(doc["tools"][0]) == _tool()


def test_json_report_without_usage_says_null_not_zero(tmp_path: Path) -> None:
    doc = json.loads(write_json([_text()], {"calls": 2}, tmp_path / "r.json").read_text())
    assert doc["judge"]["prompt_tokens"] is None
    assert doc["judge"]["estimated_cost_usd"] is None


def test_json_report_never_writes_nan(tmp_path: Path) -> None:
    row = _text(score=math.nan)
    text = write_json([row], None, tmp_path / "r.json").read_text()
    assert "NaN" not in text
    assert json.loads(text)["texts"][0]["score"] is None


def test_markdown_report_escapes_table_cells(tmp_path: Path) -> None:
    row = _text()
    row.test_id = "t.py::test_a[x|y]"
    text = write_report([row, _tool()], None, tmp_path / "r.md", "md").read_text()
    assert "| t.py::test_a\\[x\\|y\\] | recall median | 0.8500 | 0.0500 |" in text
    assert "| t.py::test_b | assert_tools | 0.7500 | 0.9 | failed | search | book |" in text


@pytest.mark.parametrize(
    ("fmt", "start"),
    [
        ("json", "{"),
        ("html", "<!doctype html>"),
        ("HTML", "<!doctype html>"),
        ("md", "# LLM score report"),
        ("markdown", "# LLM score report"),
    ],
)
def test_write_report_dispatches_on_format(tmp_path: Path, fmt: str, start: str) -> None:
    text = write_report([_text()], None, tmp_path / f"r.{fmt}", fmt).read_text()
    assert text.startswith(start) and "recall" in text


def test_write_report_rejects_unknown_format(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"fmt must be one of json, html, md, csv; got 'xml'"):
        write_report([], None, tmp_path / "r.xml", "xml")


def test_unwritable_path_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(ReportError, match=r"cannot write report .*file/r.json"):
        write_json([], None, tmp_path / "file" / "r.json")


def test_failed_write_leaves_no_partial_file(tmp_path: Path) -> None:
    target = tmp_path / "r.json"
    target.write_text("old")
    target.chmod(0o444)
    write_json([_text()], None, target)  # replaced atomically, even read-only
    assert json.loads(target.read_text())["summary"]["texts"]["total"] == 1
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


@pytest.mark.parametrize(
    ("model", "tokens", "expected"),
    [
        ("gpt-4o", (1_000_000, 1_000_000), 12.5),
        ("gpt-4o-mini-2024-07-18", (1_000_000, 0), 0.15),
        ("openai/gpt-4.1-mini", (0, 1_000_000), 1.6),
        ("llama3:8b", (1000, 1000), None),
        (None, (1000, 1000), None),
        ("gpt-4o", (0, 0), None),
    ],
)
def test_cost_estimate(model: str | None, tokens: tuple[int, int], expected: float | None) -> None:
    cost = estimate_cost(model, *tokens)
    assert cost == (pytest.approx(expected) if expected is not None else None)


def test_judge_totals_line_reports_na_without_usage() -> None:
    totals = judge_totals({"calls": 1, "cache_hits": 2, "judge_seconds": 1.0, "judge": "local"})
    assert totals is not None
    assert totals.line() == (
        "judge local: 1 call, 2 cache hits, 1.00 s judge time, tokens n/a, est. cost n/a"
    )


def test_row_from_dict_rejects_unknown_kind() -> None:
    with pytest.raises(ValueError, match="kind 'other'"):
        row_from_dict({"kind": "other"})
