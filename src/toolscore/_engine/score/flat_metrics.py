"""Score two read call lists: one alignment, every flat metric derived from it."""

from __future__ import annotations

import math
from collections.abc import Mapping

from toolscore._engine.align.pairing import Alignment, align
from toolscore._engine.compare.counts import prf
from toolscore._engine.read.inputs import CallList
from toolscore._engine.score.metrics.correctness import required_recall
from toolscore._engine.score.metrics.tool_names import (
    edit_distance,
    selection_accuracy,
    sequence_accuracy,
)
from toolscore._engine.score.weights import DEFAULT_WEIGHTS

__all__ = ["COMPONENTS", "Evaluation", "score_calls", "weighted_score"]

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


def score_calls(gold: CallList, trace: CallList, strict: bool, named_only: bool) -> Evaluation:
    """Align ``gold`` with ``trace`` and compute every flat metric from that alignment."""
    alignment = align(gold.tools, gold.args, trace.tools, trace.args, strict, named_only)
    ev = Evaluation()
    ev.gold, ev.trace, ev.alignment = gold, trace, alignment
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
