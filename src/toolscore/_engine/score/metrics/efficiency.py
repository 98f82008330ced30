"""Efficiency: redundant calls, identical repeats, failed calls and blind retries.

Behind :mod:`toolscore.metrics.efficiency`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from toolscore._engine.compare.rule import NOT_CANONICAL, canonical
from toolscore._engine.read.inputs import CallList, read_calls
from toolscore._engine.read.tool_call import ToolCall

__all__ = ["calculate_redundant_call_rate", "efficiency_metrics"]


def _signatures(trace: CallList) -> list[Any]:
    """One hashable signature per call: equal for calls the comparison rule calls identical.

    A call whose arguments have no canonical form (NaN, odd objects) gets a signature of its
    own: it is never counted as a repeat.
    """
    out: list[Any] = []
    for tool, args in zip(trace.tools, trace.args, strict=False):
        # canonical(), not the alignment's faster args_key: that one may tell apart values the
        # rule calls equal (" x " and "x"), which is fine for a shortcut but not for a count.
        key = canonical(args or {}, False)
        out.append((tool, key) if key is not NOT_CANONICAL else object())
    return out


def efficiency_metrics(expected_tools: Sequence[str], trace: CallList) -> dict[str, Any]:
    """Toolscore's ``efficiency_metrics`` of a trace.

    ``redundant_count``: calls beyond the number of expected calls to the same tool (the
    actual calls the one-to-one alignment leaves unpaired); ``identical_count``: calls that
    repeat an earlier call exactly (same tool, arguments equal under the comparison rule);
    ``error_count``: failed calls; ``retry_after_error_count``: calls that repeat the call
    just before them, which failed, unchanged. Rates are per actual call.
    """
    total = len(trace)
    per_call = total or 1  # an empty trace has every count and rate 0
    wanted = Counter(expected_tools)
    made = Counter(trace.tools)
    redundant = sum(max(0, n - wanted[tool]) for tool, n in made.items())
    signatures = _signatures(trace)
    identical = total - len(set(signatures))
    errors = trace.errors
    retries = sum(
        1 for j, (before, now) in enumerate(pairwise(signatures)) if j in errors and before == now
    )
    return {
        "redundant_count": redundant,
        "total_calls": total,
        "redundant_rate": redundant / per_call,
        "identical_count": identical,
        "identical_rate": identical / per_call,
        "error_count": len(errors),
        "error_rate": len(errors) / per_call,
        "retry_after_error_count": retries,
    }


def calculate_redundant_call_rate(
    gold_calls: Sequence[ToolCall | Mapping[str, Any]],
    trace_calls: Sequence[ToolCall | Mapping[str, Any]],
) -> dict[str, Any]:
    """Redundant calls, identical repeats, failed calls and blind retries of a trace.

    Returns:
        ``redundant_count``, ``total_calls``, ``redundant_rate``, ``identical_count``,
        ``identical_rate``, ``error_count``, ``error_rate``, ``retry_after_error_count``
        (see :func:`efficiency_metrics`).
    """
    gold = read_calls(list(gold_calls), expected=True)
    return efficiency_metrics(gold.tools, read_calls(list(trace_calls), expected=False))
