"""The diff table, the fix list, the explainer and the reports of one evaluation."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from toolscore import Regex, evaluate
from toolscore.adapters.base import ToolCall
from toolscore.diff import build_diff_table, build_eval_fix_list, render_failure
from toolscore.explainer import generate_explanations, get_all_tips, get_top_issues
from toolscore.reports import (
    generate_csv_report,
    generate_html_report,
    generate_json_report,
    generate_markdown_report,
    print_evaluation_summary,
)

AWS = "AKIA" + "Q3EXAMPLE7KEY9ZZ"  # credential-shaped, built at run time


def call(tool: str, **args: Any) -> dict[str, Any]:
    return {"tool": tool, "args": args}


EXPECTED = [call("search", q="cats"), call("summarize", style="short"), call("save", path="a")]
ACTUAL = [
    call("summarise", style="short"),  # a wrong tool where summarize was expected
    call("search", q="dogs", token=AWS),
    call("save", path="a"),
    {"tool": "rm", "args": {"path": "/"}, "error": "denied"},
]


def _result() -> Any:
    return evaluate(EXPECTED, ACTUAL, forbidden=[{"tool": "rm", "reason": "destructive"}])


def _text(table: Any, color: bool = False) -> str:
    console = Console(file=io.StringIO(), width=120, force_terminal=color, record=True)
    console.print(table)
    return console.export_text()


def test_fix_list_ranks_missing_wrong_tool_arguments_extra() -> None:
    fixes = build_eval_fix_list(
        [ToolCall("a", {"x": 1}), ToolCall("b"), ToolCall("c")],
        [ToolCall("a", {"x": 2}), ToolCall("z")],
    )
    assert [(f.priority, f.tool) for f in fixes] == [(0, "c"), (1, "z"), (2, "a")]
    assert fixes[1].problem == "called 'z' where 'b' was expected"
    assert "x: 1 != 2" in fixes[2].problem
    assert (
        build_eval_fix_list([ToolCall("a", {"x": Regex("\\d")})], [ToolCall("a", {"x": "7"})]) == []
    )


def test_the_diff_table_pairs_by_alignment_not_position() -> None:
    # The reordered search is compared with the expected search, not with summarise.
    text = _text(build_diff_table(_result().gold_calls, _result().trace_calls))
    lines = [line for line in text.splitlines() if "│" in line]
    assert any("search(q='cats')" in line and "q: 'cats' != 'dogs'" in line for line in lines)
    assert any("summarize(style='short')" in line and "MISSING" in line for line in lines)
    assert sum("EXTRA" in line for line in lines) == 2


def test_render_failure_has_the_table_and_the_explanation() -> None:
    text = render_failure(_result(), 0.9, width=100)
    assert "Expected vs actual tool calls" in text
    assert "below the required 0.9." in text and "Hint:" in text
    assert "\x1b[" not in text
    assert "\x1b[" in render_failure(_result(), 0.9, color=True)


def test_explanations_over_the_alignment() -> None:
    explanations = generate_explanations(_result())
    selection = explanations["selection_accuracy"]
    assert [i.category for i in selection.items] == ["missing", "extra", "extra"]
    messages = [i.message for i in explanations["argument_metrics"].items]
    assert "search.q: value differs, expected 'cats', got 'dogs'" in messages
    assert "'search': unexpected argument 'token'" in messages
    tips = get_all_tips(explanations)
    assert any("'summarize' and 'summarise' look alike" in t for t in tips)
    top = get_top_issues(explanations, max_issues=2)
    assert [i.severity for i in top] == ["error", "error"]


def test_json_report_has_both_layouts_and_no_credentials(tmp_path: Path) -> None:
    result = _result()
    path = generate_json_report(result, tmp_path / "out" / "r.json", name="trace.json")
    text = path.read_text()
    assert AWS not in text
    data = json.loads(text)
    assert data["schema"] == "llm-scorekit-report/1"
    assert data["tools"][0]["test_id"] == "trace.json"
    summary = data["summary"]
    assert (summary["gold_calls_count"], summary["trace_calls_count"]) == (3, 4)
    assert (summary["failed_calls"], summary["policy_violations"], summary["secrets"]) == (1, 1, 1)
    assert summary["score"] == result.score and summary["grade"] == result.grade
    assert data["metrics"]["policy_metrics"]["violation_count"] == 1
    assert [c["tool"] for c in data["trace_calls"]] == ["summarise", "search", "save", "rm"]
    assert [f["severity"] for f in data["findings"]] == ["error", "error", "warning"]


def test_html_markdown_csv_reports(tmp_path: Path) -> None:
    result = _result()
    html = generate_html_report(result, tmp_path / "r.html").read_text()
    md = generate_markdown_report(result, tmp_path / "r.md", min_score=0.9).read_text()
    table = generate_csv_report(result, tmp_path / "r.csv").read_text()
    for text in (html, md, table):
        assert AWS not in text
    assert "breaks forbidden rule 1: destructive" in html
    assert "passes a credential (aws_access_key_id) in &#x27;token&#x27;" in html
    assert "| failed |" in md and "breaks forbidden rule 1: destructive" in md
    rows = list(csv.DictReader(io.StringIO(table)))
    by_metric = {(r["category"], r["metric"]): r["value"] for r in rows}
    assert by_metric[("summary", "score")] == str(result.score)
    assert by_metric[("efficiency_metrics", "error_count")] == "1"
    assert by_metric[("argument_metrics", "f1")] == str(result.argument_f1)
    with pytest.raises(OSError, match="cannot write report"):
        generate_json_report(result, tmp_path / "r.html" / "nested.json")


def test_print_evaluation_summary() -> None:
    console = Console(file=io.StringIO(), width=120, record=True)
    print_evaluation_summary(_result(), console=console, verbose=True)
    text = console.export_text()
    assert (
        "Top issues to fix" in text and "called 'summarise' where 'summarize' was expected" in text
    )
    assert "breaks forbidden rule 1: destructive" in text
    assert AWS not in text and "[REDACTED aws_access_key_id" in text
    assert "Expected 3 call(s); the agent made 4." in text  # verbose: the full explanation
    quiet = Console(file=io.StringIO(), width=120, record=True)
    print_evaluation_summary(evaluate(EXPECTED, EXPECTED), console=quiet)
    assert "No issues" in quiet.export_text()
