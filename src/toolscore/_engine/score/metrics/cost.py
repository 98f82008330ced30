"""Latency and cost of the calls, from the run data recorded on them (``duration``, ``cost``).

Behind :mod:`toolscore.metrics.cost`, which re-exports it (the same objects).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.read.inputs import read_calls
from toolscore._engine.read.tool_call import ToolCall

__all__ = ["calculate_cost_attribution", "calculate_latency"]

Calls = Sequence[ToolCall | Mapping[str, Any]]


def _numbers(values: list[Any], what: str) -> list[float]:
    out: list[float] = []
    for n, value in enumerate(values):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"call {n}: {what} must be a number of seconds or None, got {value!r}")
        if not math.isfinite(value) or value < 0:
            raise ValueError(f"call {n}: {what} must be a finite number >= 0, got {value!r}")
        out.append(float(value))
    return out


def calculate_latency(trace_calls: Calls) -> dict[str, float]:
    """Total, average, longest and shortest call duration (seconds) over calls that record one.

    All four are 0.0 when no call records a duration.
    """
    calls = read_calls(list(trace_calls), expected=False).tool_calls()
    durations = _numbers([c.duration for c in calls], "duration")
    total = math.fsum(durations)
    return {
        "total_duration": total,
        "average_duration": total / len(durations) if durations else 0.0,
        "max_duration": max(durations, default=0.0),
        "min_duration": min(durations, default=0.0),
    }


def calculate_cost_attribution(trace_calls: Calls) -> dict[str, Any]:
    """Total and average cost (USD) over calls that record one, and the total per tool.

    Example:
        >>> calculate_cost_attribution([ToolCall("a", cost=0.25), ToolCall("a", cost=0.5)])
        {'total_cost': 0.75, 'average_cost': 0.375, 'cost_by_tool': {'a': 0.75}}
    """
    calls = read_calls(list(trace_calls), expected=False).tool_calls()
    costs = _numbers([c.cost for c in calls], "cost")
    by_tool: dict[str, float] = {}
    for call in calls:
        if call.cost is not None:
            by_tool[call.tool] = by_tool.get(call.tool, 0.0) + float(call.cost)
    total = math.fsum(costs)
    return {
        "total_cost": total,
        "average_cost": total / len(costs) if costs else 0.0,
        "cost_by_tool": by_tool,
    }
