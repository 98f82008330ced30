"""Invocation and selection accuracy: did the agent use tools, and the expected ones?

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> gold = [ToolCall("search"), ToolCall("summarize")]
    >>> calculate_selection_accuracy(gold, [ToolCall("search"), ToolCall("translate")])
    0.5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.read.inputs import read_pair
from toolscore._engine.score.metrics.tool_names import invocation_accuracy, selection_accuracy
from toolscore.adapters.base import ToolCall

__all__ = ["calculate_invocation_accuracy", "calculate_selection_accuracy"]

Calls = Sequence[ToolCall | Mapping[str, Any]]


def calculate_invocation_accuracy(gold_calls: Calls, trace_calls: Calls) -> float:
    """Whether tools were used when expected (and not otherwise), and the right set of them.

    1.0 when both sides are empty, 0.0 when exactly one is; otherwise the share of expected
    tool names called, minus 0.5 per name called but not expected and per name expected but
    never called, clamped to ``[0, 1]``.

    Example:
        >>> calculate_invocation_accuracy([ToolCall("a"), ToolCall("b")], [ToolCall("a")])
        0.25
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    return invocation_accuracy(gold.tools, trace.tools)


def calculate_selection_accuracy(gold_calls: Calls, trace_calls: Calls) -> float:
    """Share of the actual calls whose tool is among the expected tools.

    With no actual calls: 1.0 when nothing was expected either, else 0.0.
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    return selection_accuracy(gold.tools, trace.tools)
