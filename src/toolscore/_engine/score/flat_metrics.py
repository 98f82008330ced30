"""Score two read call lists: one alignment, every flat metric derived from it, and the
``metrics`` dict in Toolscore's layout."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from toolscore._engine.align.pairing import Alignment, align
from toolscore._engine.compare.counts import prf
from toolscore._engine.read.inputs import CallList
from toolscore._engine.score.metrics.correctness import required_recall
from toolscore._engine.score.metrics.efficiency import efficiency_metrics
from toolscore._engine.score.metrics.secrets import secret_findings
from toolscore._engine.score.metrics.sequence import sequence_metrics
from toolscore._engine.score.metrics.steps import trajectory_metrics
from toolscore._engine.score.metrics.tool_names import (
    edit_distance,
    invocation_accuracy,
    selection_accuracy,
    sequence_accuracy,
    tool_correctness,
)
from toolscore._engine.score.weights import DEFAULT_WEIGHTS

__all__ = ["COMPONENTS", "Evaluation", "metrics_dict", "score_calls", "weighted_score"]

#: The order of weighted_score's components.
COMPONENTS = tuple(DEFAULT_WEIGHTS)


class Evaluation:
    """The alignment of two call lists and the flat metrics computed from it (read-only)."""

    __slots__ = (
        "alignment",
        "argument_f1",
        "argument_precision",
        "argument_recall",
        "edit_distance",
        "gold",
        "named_only",
        "redundant_rate",
        "required_call_recall",
        "selection_accuracy",
        "sequence_accuracy",
        "strict",
        "tool_f1",
        "tool_precision",
        "tool_recall",
        "trace",
        "unfiltered",
    )

    gold: CallList
    trace: CallList
    alignment: Alignment
    strict: bool
    named_only: bool
    selection_accuracy: float
    tool_precision: float
    tool_recall: float
    tool_f1: float
    argument_precision: float
    argument_recall: float
    argument_f1: float
    edit_distance: int
    sequence_accuracy: float
    redundant_rate: float
    required_call_recall: float | None
    unfiltered: CallList  # the actual calls as read, hand-offs included (``trace`` may drop them)


def score_calls(gold: CallList, trace: CallList, strict: bool, named_only: bool) -> Evaluation:
    """Align ``gold`` with ``trace`` and compute every flat metric from that alignment."""
    alignment = align(gold.tools, gold.args, trace.tools, trace.args, strict, named_only)
    ev = Evaluation()
    ev.gold, ev.trace, ev.unfiltered, ev.alignment = gold, trace, trace, alignment
    ev.strict, ev.named_only = strict, named_only
    e_tools, a_tools = gold.tools, trace.tools
    n_gold, n_trace = len(gold), len(trace)
    # Tool names count like argument units: aligned pairs agree, each side its calls.
    ev.tool_precision, ev.tool_recall, ev.tool_f1 = prf(len(alignment.pairs), n_gold, n_trace)
    ev.argument_precision, ev.argument_recall, ev.argument_f1 = prf(
        alignment.agree, alignment.expected_units, alignment.actual_units
    )
    ev.selection_accuracy = selection_accuracy(e_tools, a_tools)
    ev.edit_distance = 0 if e_tools == a_tools else edit_distance(e_tools, a_tools)
    ev.sequence_accuracy = sequence_accuracy(e_tools, a_tools, ev.edit_distance)
    ev.redundant_rate = len(alignment.extra) / n_trace if n_trace else 0.0
    ev.required_call_recall = required_recall(gold, trace, alignment, strict, named_only)
    return ev


def weighted_score(
    weights: Mapping[str, float],
    tool_f1: float,
    argument_f1: float,
    sequence_accuracy: float,
    redundant_rate: float,
    required_call_recall: float | None,
) -> float:
    """The composite score: the weighted mean of the components (``selection_accuracy`` is
    scored as ``tool_f1``, ``redundant_rate`` as ``1 - redundant_rate``, no required call as
    1.0); exactly 1.0 when every weighted component is 1.0.

    ``weights`` are resolved (:func:`~toolscore._engine.score.weights.resolve_weights`).
    """
    values = (
        tool_f1,
        argument_f1,
        sequence_accuracy,
        1.0 - redundant_rate,
        1.0 if required_call_recall is None else required_call_recall,
    )
    shares = [weights[k] for k in COMPONENTS]
    if all(v == 1.0 for v, w in zip(values, shares, strict=True) if w > 0):
        return 1.0
    total = math.fsum(w * v for v, w in zip(values, shares, strict=True))
    return min(1.0, max(0.0, total))


def metrics_dict(
    ev: Evaluation, policy: Mapping[str, Any] | None, extra: Mapping[str, Any] | None
) -> dict[str, Any]:
    """Every metric of an evaluation, in Toolscore's layout (plus ours): the ``metrics`` dict
    of a result, built on first access of ``EvaluationResult.metrics`` (most evaluations never
    ask for it). ``policy_metrics`` only when forbidden rules were given; ``extra``: what
    ``evaluate_trace`` adds (side effects, latency, cost, judge)."""
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
