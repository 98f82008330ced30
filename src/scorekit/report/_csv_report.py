"""The CSV report: one line per number, for spreadsheets (both faces' rows alike).

Columns: ``kind`` (``texts`` / ``tools``), ``test``, ``function``, ``outcome``, ``category``,
``metric``, ``value``. Each row contributes its score, its threshold or bounds, its metrics and,
for tool rows that carry them, the nested metrics of the full evaluation (``category`` is the
dotted path: ``efficiency_metrics``, ``argument_metrics``...). Numbers stay numbers (no
percent signs), so a spreadsheet can compute with them; lists are joined with ``; ``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from scorekit.report._rows import Row, TextScoreRow

HEADER = ("kind", "test", "function", "outcome", "category", "metric", "value")


def _cell(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return "" if value is None else value
    if isinstance(value, (list, tuple)):
        return "; ".join(str(_cell(v)) for v in value)
    return str(value)


def _flat(values: Mapping[str, Any], category: str) -> Iterator[tuple[str, str, Any]]:
    for key, value in values.items():
        if isinstance(value, Mapping):
            yield from _flat(value, f"{category}.{key}" if category else str(key))
        elif isinstance(value, (list, tuple)) and value and isinstance(value[0], Mapping):
            yield category, str(key), f"{len(value)} item(s)"
        else:
            yield category, str(key), _cell(value)


def _row_lines(row: Row) -> Iterator[tuple[str, str, Any]]:
    if isinstance(row, TextScoreRow):
        yield "summary", "score", _cell(row.score)
        yield "summary", "low", row.low
        yield "summary", "high", row.high
        yield "summary", "metric", row.metric
        if row.aggregation:
            yield "summary", "aggregation", row.aggregation
        for run in row.runs:
            where = f"run {run.question_run}/{run.answer_run}"
            for name in ("precision", "recall", "f1"):
                yield where, name, _cell(getattr(run, name))
        return
    yield "summary", "score", row.score
    yield "summary", "threshold", _cell(row.threshold)
    for name, value in row.metrics.items():
        yield "metrics", name, _cell(value)
    yield "calls", "missing", _cell(row.missing)
    yield "calls", "extra", _cell(row.extra)
    details = row.details.get("metrics") if isinstance(row.details, Mapping) else None
    if isinstance(details, Mapping):
        yield from _flat(details, "")


def render_csv(rows: Sequence[Row], stats: Mapping[str, Any] | None = None) -> str:
    """The report as CSV text (``stats`` is accepted for symmetry; judge totals are not rows).

    Example:
        >>> from scorekit.report import ToolScoreRow
        >>> text = render_csv([ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")])
        >>> text.splitlines()[1]
        'tools,t::a,assert_tools,passed,summary,score,1.0'
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for row in rows:
        kind = "texts" if isinstance(row, TextScoreRow) else "tools"
        for category, metric, value in _row_lines(row):
            writer.writerow(
                (kind, row.test_id or "", row.function, row.outcome, category, metric, value)
            )
    return out.getvalue()
