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
    out: list[dict[str, str]] = []
    for v in result.policy_violations:
        reason = f": {v['reason']}" if v.get("reason") else ""
        out.append(
            {
                "severity": "error",
                "message": f"call {v['index'] + 1} ({v['tool']}) breaks forbidden rule "
                f"{v['rule'] + 1}{reason}",
            }
        )
    security: Any = m.get("security_metrics") or {}
    for s in security.get("secrets", []):
        out.append(
            {
                "severity": "error",
                "message": f"call {s['index'] + 1} ({s['tool']}) passes a credential "
                f"({s['kind']}) in '{s['path']}': {s['preview']}",
            }
        )
    efficiency: Any = m.get("efficiency_metrics") or {}
    failed = Counter(c.tool for c in result.trace_calls if c.is_error)
    if failed:
        tools = ", ".join(f"{t} x{n}" if n > 1 else t for t, n in failed.most_common())
        out.append(
            {
                "severity": "warning",
                "message": f"{sum(failed.values())} of {len(result.trace_calls)} tool calls "
                f"failed ({tools})",
            }
        )
    retries = efficiency.get("retry_after_error_count", 0)
    if retries:
        out.append(
            {
                "severity": "warning",
                "message": f"{retries} call(s) repeat the failed call just before them unchanged",
            }
        )
    return out
