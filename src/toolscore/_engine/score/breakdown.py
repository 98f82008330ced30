"""The ``metrics`` dict of a result: Toolscore's keys, computed from our one alignment.

Built on first access of ``EvaluationResult.metrics`` (most evaluations never ask for it)::

    invocation_accuracy, selection_accuracy, tool_correctness_metrics, sequence_metrics,
    trajectory_metrics, argument_metrics, efficiency_metrics, required_call_recall,
    security_metrics, policy_metrics (only when forbidden rules were given),
    tool_precision, tool_recall, tool_f1 (ours: multiset tool agreement)

plus whatever ``evaluate_trace`` adds (side effects, latency, cost, judge).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.score.flat_metrics import Evaluation
from toolscore._engine.score.metrics.efficiency import efficiency_metrics
from toolscore._engine.score.metrics.secrets import secret_findings
from toolscore._engine.score.metrics.sequence import sequence_metrics
from toolscore._engine.score.metrics.steps import trajectory_metrics
from toolscore._engine.score.metrics.tool_names import invocation_accuracy, tool_correctness

__all__ = ["metrics_dict"]


def metrics_dict(
    ev: Evaluation, policy: Mapping[str, Any] | None, extra: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Every metric of an evaluation, in Toolscore's layout (plus ours)."""
    e_tools, a_tools = ev.gold.tools, ev.trace.tools
    out: dict[str, Any] = {
        "invocation_accuracy": invocation_accuracy(e_tools, a_tools),
        "selection_accuracy": ev.selection_accuracy,
        "tool_correctness_metrics": tool_correctness(e_tools, a_tools),
        "sequence_metrics": sequence_metrics(e_tools, a_tools),
        "trajectory_metrics": trajectory_metrics(ev.gold, ev.trace, ev.strict, ev.named_only),
        "argument_metrics": {
            "precision": ev.argument_precision,
            "recall": ev.argument_recall,
            "f1": ev.argument_f1,
        },
        "efficiency_metrics": efficiency_metrics(e_tools, ev.trace),
        "required_call_recall": ev.required_call_recall,
        "security_metrics": secret_findings(ev.trace),
        "tool_precision": ev.tool_precision,
        "tool_recall": ev.tool_recall,
        "tool_f1": ev.tool_f1,
    }
    if policy is not None:
        out["policy_metrics"] = dict(policy)
    if extra:
        out.update(extra)
    return out
