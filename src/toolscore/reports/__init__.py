"""Reports of one evaluation: JSON, HTML, CSV, Markdown files and a terminal summary.

Every file goes through the shared writers of ``scorekit.report`` (the same ones the pytest
plugin and ``toolscore eval --report`` use): written atomically, readable, and with every
credential found in the trace's arguments replaced by ``[redacted]``. Besides the score and
metrics, each report lists the findings the score does not show: forbidden calls,
credentials passed to tools, failed calls and unchanged retries.

Example:
    >>> import json, tempfile, os
    >>> from toolscore import evaluate
    >>> result = evaluate([{"tool": "search", "args": {"q": "x"}}],
    ...                   [{"tool": "search", "args": {"q": "y"}}])
    >>> path = generate_json_report(result, os.path.join(tempfile.mkdtemp(), "r.json"))
    >>> data = json.loads(path.read_text())
    >>> round(data["summary"]["score"], 3), data["metrics"]["argument_metrics"]["f1"]
    (0.7, 0.0)
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolscore._engine.check.failure import check_min_score, score_row
from toolscore._engine.score.details import jsonable
from toolscore.metrics.security import secret_values
from toolscore.reports._console import (
    print_error,
    print_evaluation_summary,
    print_progress,
    print_validation_result,
)
from toolscore.reports._findings import behavior_findings

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow
    from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "generate_csv_report",
    "generate_html_report",
    "generate_json_report",
    "generate_markdown_report",
    "print_error",
    "print_evaluation_summary",
    "print_progress",
    "print_validation_result",
]

PathLike = str | os.PathLike[str]


def _row(
    result: EvaluationResult, name: str | None, min_score: float | None, details: dict[str, Any]
) -> ToolScoreRow:
    threshold = None if min_score is None else check_min_score(min_score)
    details = {**details, "findings": behavior_findings(result)}
    return score_row(
        result,
        test_id=name,
        function="evaluate",
        threshold=threshold,
        passed=threshold is None or result.score >= threshold,
        details=details,
    )


def _call_record(call: Any) -> dict[str, Any]:
    return {
        "tool": call.tool,
        "args": jsonable(call.args),
        "result": jsonable(call.result),
        "timestamp": call.timestamp,
        "duration": call.duration,
        "cost": call.cost,
        "metadata": jsonable(call.metadata or {}),
    }


def generate_json_report(
    result: EvaluationResult,
    output_path: PathLike = "toolscore.json",
    *,
    name: str | None = None,
    min_score: float | None = None,
) -> Path:
    """Write the evaluation as JSON: the shared report document (``schema``, ``summary``,
    ``tools`` rows) with Toolscore's keys beside it: ``timestamp``, ``summary`` counts
    (``gold_calls_count``, ``trace_calls_count``, ``score``, ``grade``, ``weights``,
    ``required_call_recall``, ``failed_calls``, ``policy_violations``, ``secrets``),
    ``metrics``, ``gold_calls``, ``trace_calls``; and ``findings``.

    Args:
        result: the evaluation.
        output_path: the file to write (folders are created).
        name: a label for the evaluation (the row's test id), e.g. the trace's file name.
        min_score: a passing score; the report then says passed or failed against it.

    Returns:
        The path written.

    Raises:
        ReportError: (an ``OSError``) the file cannot be written.
    """
    from scorekit.report import report_document, write_text

    row = _row(result, name, min_score, {})
    doc = report_document([row], None)
    doc["timestamp"] = datetime.now().astimezone().isoformat(timespec="seconds")
    doc["summary"].update(
        gold_calls_count=len(result.gold_calls),
        trace_calls_count=len(result.trace_calls),
        score=result.score,
        grade=result.grade,
        weights=dict(result.weights),
        required_call_recall=result.required_call_recall,
        failed_calls=(result.metrics.get("efficiency_metrics") or {}).get("error_count", 0),
        policy_violations=len(result.policy_violations),
        secrets=(result.metrics.get("security_metrics") or {}).get("secret_count", 0),
    )
    doc["metrics"] = jsonable(result.metrics)
    doc["findings"] = row.details["findings"]
    doc["gold_calls"] = [_call_record(c) for c in result.gold_calls]
    doc["trace_calls"] = [_call_record(c) for c in result.trace_calls]
    text = json.dumps(doc, indent=2, ensure_ascii=False, default=repr) + "\n"
    return write_text(output_path, text, secret_values(result.trace))


def generate_html_report(
    result: EvaluationResult,
    output_path: PathLike = "toolscore.html",
    *,
    name: str | None = None,
    min_score: float | None = None,
) -> Path:
    """Write the evaluation as the shared self-contained HTML report (score, metrics,
    findings, every call and argument compared). Same arguments as
    :func:`generate_json_report`."""
    from scorekit.report import write_html

    row = _row(result, name, min_score, result.to_dict())
    return write_html([row], None, output_path, secrets=secret_values(result.trace))


def generate_markdown_report(
    result: EvaluationResult,
    output_path: PathLike = "toolscore.md",
    *,
    name: str | None = None,
    min_score: float | None = None,
) -> Path:
    """Write the evaluation as Markdown tables (for CI job summaries and pull requests).
    Same arguments as :func:`generate_json_report`."""
    from scorekit.report import write_markdown

    row = _row(result, name, min_score, result.to_dict())
    return write_markdown([row], None, output_path, secrets=secret_values(result.trace))


def generate_csv_report(
    result: EvaluationResult,
    output_path: PathLike = "toolscore.csv",
    *,
    name: str | None = None,
    min_score: float | None = None,
) -> Path:
    """Write the evaluation as CSV, one line per number (``kind, test, function, outcome,
    category, metric, value``; every nested metric flattened). Same arguments as
    :func:`generate_json_report`."""
    from scorekit.report import write_csv

    row = _row(result, name, min_score, {"metrics": result.metrics})
    return write_csv([row], None, output_path, secrets=secret_values(result.trace))
