"""Argument agreement as precision / recall / F1 over the one-to-one alignment.

How units are counted is described in ``toolscore._engine.compare.counts``: each expected argument
of a paired call is one unit of recall, each actual argument one unit of precision, "no
arguments" is one unit, an unchecked expected call (``args=None``) agrees with one unit, and
a missed expected call loses its units.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolscore._engine.align.pairing import align
from toolscore._engine.compare.counts import prf
from toolscore.adapters.base import ToolCall

__all__ = ["calculate_argument_f1"]


def calculate_argument_f1(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall], strict: bool = False
) -> dict[str, float]:
    """Argument precision, recall and F1 over the one-to-one alignment of two call lists.

    Args:
        gold_calls: the expected calls.
        trace_calls: the calls the agent made.
        strict: exact types and values instead of the lenient rule.

    Returns:
        ``{"precision": ..., "recall": ..., "f1": ...}``, each in ``[0, 1]``.

    Example:
        >>> from toolscore.adapters.base import ToolCall
        >>> calculate_argument_f1([ToolCall("a", {"x": 1})], [ToolCall("a", {"x": 1.0})])
        {'precision': 1.0, 'recall': 1.0, 'f1': 1.0}
    """
    e_tools, e_args = [c.tool for c in gold_calls], [c.args for c in gold_calls]
    a_tools, a_args = [c.tool for c in trace_calls], [c.args for c in trace_calls]
    alignment = align(e_tools, e_args, a_tools, a_args, strict)
    p, r, f = prf(alignment.agree, alignment.expected_units, alignment.actual_units)
    return {"precision": p, "recall": r, "f1": f}
