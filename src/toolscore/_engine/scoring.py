"""Score two read call lists: one alignment, every flat metric derived from it."""

from __future__ import annotations

from toolscore._engine.align import Alignment, align
from toolscore._engine.calls import CallList
from toolscore._engine.counts import prf
from toolscore._engine.tool_metrics import edit_distance, selection_accuracy, sequence_accuracy
from toolscore.metrics.tool_correctness import required_recall

__all__ = ["Evaluation", "score_calls"]


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
