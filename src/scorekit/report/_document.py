"""The report as one plain document: what the JSON file holds and the other formats read.

Schema ``llm-scorekit-report/1``::

    {"schema": ..., "created": ISO-8601 UTC,
     "summary": {"texts": {total, passed, failed, error}, "tools": {...}},
     "judge": {judge, model, calls, cache_hits, retries, judge_seconds, prompt_tokens,
               completion_tokens, estimated_cost_usd} or null,
     "texts": [TextScoreRow.to_dict()...], "tools": [ToolScoreRow.to_dict()...],
     "tests": {test id: {"repeat": {runs, passed, pass_rate, pass_rate_ci: [low, high],
                                    pass_at_k: {k: value}, pass_hat_k: {k: value}, ...}}}}

``tests`` is there only when a test carried ``@pytest.mark.llm_repeat``.

Text scores (``score``, per-run ``precision``/``recall``/``f1``, evidence ``answer``) are rounded
to 4 decimal places, as every output shows them (``scorekit.format._rounding``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from typing import Any

from scorekit.format._rounding import rounded_scores
from scorekit.report._rows import Row
from scorekit.report._totals import judge_totals, outcome_counts, split_rows

SCHEMA = "llm-scorekit-report/1"


def finite(value: Any) -> Any:
    """``value`` with every NaN or infinity replaced by None: JSON has neither, and null
    keeps the document valid."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def created_stamp(when: datetime | None = None) -> str:
    """When a report was made: ISO-8601 UTC to the second (now, unless ``when`` is given)."""
    return (when or datetime.now(timezone.utc)).isoformat(timespec="seconds")


def report_document(
    rows: Sequence[Row],
    stats: Mapping[str, Any] | None,
    *,
    created: datetime | None = None,
    repeats: Mapping[str, Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """Build the report document of some rows and judge counters.

    Example:
        >>> from scorekit.report import ToolScoreRow
        >>> doc = report_document([ToolScoreRow("t::a", "assert_tools", 1.0, 0.9, "passed")], None)
        >>> doc["summary"]["tools"]["passed"], doc["judge"]
        (1, None)
    """
    texts, tools = split_rows(rows)
    totals = judge_totals(stats)
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "created": created_stamp(created),
        "summary": {"texts": outcome_counts(texts), "tools": outcome_counts(tools)},
        "judge": totals.to_dict() if totals is not None else None,
        "texts": [rounded_scores(r.to_dict()) for r in texts],
        "tools": [r.to_dict() for r in tools],
    }
    if repeats:
        doc["tests"] = {tid: {"repeat": dict(rep)} for tid, rep in sorted(repeats.items())}
    result: dict[str, Any] = finite(doc)
    return result
