"""What the score does not say: forbidden calls, credentials in arguments, failed calls and
unchanged retries of failed calls, as report findings."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["behavior_findings"]


def behavior_findings(result: EvaluationResult) -> list[dict[str, str]]:
    """``{"severity", "message"}`` findings, errors (forbidden calls, credentials) first.

    Call numbers are 1-based positions in the actual trace.
    """
    m = result.metrics
    errors = [
        f"call {v['index'] + 1} ({v['tool']}) breaks forbidden rule {v['rule'] + 1}"
        + (f": {v['reason']}" if v.get("reason") else "")
        for v in result.policy_violations
    ]
    security: Any = m.get("security_metrics") or {}
    errors += [
        f"call {s['index'] + 1} ({s['tool']}) passes a credential ({s['kind']}) in "
        f"'{s['path']}': {s['preview']}"
        for s in security.get("secrets", [])
    ]
    warnings = []
    failed = Counter(c.tool for c in result.trace_calls if c.is_error)
    if failed:
        tools = ", ".join(f"{t} x{n}" if n > 1 else t for t, n in failed.most_common())
        calls = len(result.trace_calls)
        warnings.append(f"{sum(failed.values())} of {calls} tool calls failed ({tools})")
    efficiency: Any = m.get("efficiency_metrics") or {}
    retries = efficiency.get("retry_after_error_count", 0)
    if retries:
        warnings.append(f"{retries} call(s) repeat the failed call just before them unchanged")
    return [{"severity": "error", "message": text} for text in errors] + [
        {"severity": "warning", "message": text} for text in warnings
    ]
