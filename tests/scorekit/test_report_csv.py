"""The CSV report: one line per number, both kinds of rows, nested metrics by dotted path."""

from __future__ import annotations

import csv
import io

from scorekit.report import RunScore, TextScoreRow, ToolScoreRow, render_csv


def _lines(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_a_text_row_gives_its_bounds_aggregation_and_every_run() -> None:
    row = TextScoreRow(
        test_id="t.py::test_summary",
        function="texts_agg_f1_min",
        metric="f1",
        aggregation="min",
        score=0.5,
        low=0.5,
        high=1.0,
        outcome="passed",
        runs=[RunScore(0, 0, f1=0.5), RunScore(1, 0, precision=1.0, recall=0.5, f1=2 / 3)],
    )
    head = ["texts", "t.py::test_summary", "texts_agg_f1_min", "passed"]
    assert _lines(render_csv([row])) == [
        ["kind", "test", "function", "outcome", "category", "metric", "value"],
        [*head, "summary", "score", "0.5"],
        [*head, "summary", "low", "0.5"],
        [*head, "summary", "high", "1.0"],
        [*head, "summary", "metric", "f1"],
        [*head, "summary", "aggregation", "min"],
        # a run's missing side is an empty cell, not "None"
        [*head, "run 0/0", "precision", ""],
        [*head, "run 0/0", "recall", ""],
        [*head, "run 0/0", "f1", "0.5"],
        [*head, "run 1/0", "precision", "1.0"],
        [*head, "run 1/0", "recall", "0.5"],
        [*head, "run 1/0", "f1", repr(2 / 3)],
    ]


def test_a_single_run_text_row_that_errored_has_no_aggregation_line_and_an_empty_score() -> None:
    row = TextScoreRow(None, "texts_expect_f1_range", "f1", None, None, 0.2, 0.9, "error")
    assert _lines(render_csv([row]))[1:] == [
        ["texts", "", "texts_expect_f1_range", "error", "summary", "score", ""],
        ["texts", "", "texts_expect_f1_range", "error", "summary", "low", "0.2"],
        ["texts", "", "texts_expect_f1_range", "error", "summary", "high", "0.9"],
        ["texts", "", "texts_expect_f1_range", "error", "summary", "metric", "f1"],
    ]


def test_a_tool_row_flattens_nested_metrics_and_summarises_lists_of_objects() -> None:
    row = ToolScoreRow(
        "t.py::test_agent",
        "assert_tools",
        0.47,
        0.9,
        "failed",
        metrics={"tool_f1": 0.5, "grade": "F"},
        missing=["book_flight"],
        extra=["cancel_booking", "ping"],
        details={
            "metrics": {
                "efficiency_metrics": {"redundant_rate": 0.5, "tools": ["a", "b"]},
                "pairs": [{"expected": 0, "actual": 0}, {"expected": 1, "actual": None}],
                "score": 0.47,
            }
        },
    )
    head = ["tools", "t.py::test_agent", "assert_tools", "failed"]
    assert _lines(render_csv([row]))[1:] == [
        [*head, "summary", "score", "0.47"],
        [*head, "summary", "threshold", "0.9"],
        [*head, "metrics", "tool_f1", "0.5"],
        [*head, "metrics", "grade", "F"],
        [*head, "calls", "missing", "book_flight"],
        [*head, "calls", "extra", "cancel_booking; ping"],
        [*head, "efficiency_metrics", "redundant_rate", "0.5"],
        [*head, "efficiency_metrics", "tools", "a; b"],
        [*head, "", "pairs", "2 item(s)"],
        [*head, "", "score", "0.47"],
    ]
