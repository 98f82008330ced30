"""Trajectory: did the agent take the expected path, step by step?

Behind :mod:`toolscore.metrics.trajectory`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.compare.counts import count_pair
from toolscore._engine.read.inputs import CallList, read_pair
from toolscore._engine.read.tool_call import ToolCall

__all__ = [
    "calculate_partial_trajectory_accuracy",
    "calculate_trajectory_accuracy",
    "trajectory_metrics",
]

Calls = Sequence[ToolCall | Mapping[str, Any]]


def trajectory_metrics(
    gold: CallList, trace: CallList, strict: bool = False, named_only: bool = False
) -> dict[str, Any]:
    """Toolscore's ``trajectory_metrics`` for two read call lists."""
    n_e, n_a = len(gold), len(trace)
    if not n_e:
        return {
            "trajectory_accuracy": 1.0 if not n_a else 0.0,
            "step_match_rate": 1.0 if not n_a else 0.0,
            "path_efficiency": 1.0,
            "correct_steps": 0,
            "total_expected_steps": 0,
            "trajectory_details": [],
        }
    details: list[dict[str, Any]] = []
    correct = 0
    for i in range(max(n_e, n_a)):
        e_tool, e_args = (gold.tools[i], gold.args[i]) if i < n_e else (None, None)
        a_tool, a_args = (trace.tools[i], trace.args[i]) if i < n_a else (None, None)
        ok = i < n_e and i < n_a and e_tool == a_tool
        ok = ok and count_pair(e_args, a_args, strict, named_only).all_ok
        correct += ok
        step: dict[str, Any] = {
            "step": i + 1,
            "expected_tool": e_tool,
            "actual_tool": a_tool,
            "matches": ok,
            "expected_args": e_args or {},
            "actual_args": a_args or {},
        }
        if i >= n_a:
            step["error"] = "the agent stopped before this step"
        elif i >= n_e:
            step["error"] = "an extra step, not in the expected path"
        details.append(step)
    step_rate = correct / n_e
    efficiency = n_e / n_a if n_a > n_e else (1.0 if n_a else 0.0)
    return {
        "trajectory_accuracy": step_rate * efficiency,
        "step_match_rate": step_rate,
        "path_efficiency": efficiency,
        "correct_steps": correct,
        "total_expected_steps": n_e,
        "trajectory_details": details,
    }


def calculate_trajectory_accuracy(
    gold_calls: Calls, trace_calls: Calls, strict: bool = False
) -> dict[str, Any]:
    """Step-by-step comparison of the actual path with the expected one.

    Returns:
        ``trajectory_accuracy`` (step_match_rate x path_efficiency), ``step_match_rate``
        (matching steps / expected steps), ``path_efficiency`` (expected / actual steps when
        the agent took more, else 1; 0 when it took none), ``correct_steps``,
        ``total_expected_steps`` and ``trajectory_details`` (one dict per step).
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    return trajectory_metrics(gold, trace, strict)


def _loose_name(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "")


def calculate_partial_trajectory_accuracy(
    gold_calls: Calls, trace_calls: Calls, allow_tool_name_variations: bool = False
) -> dict[str, float]:
    """Credit for the right tools in any order: expected calls whose tool was called, one to
    one (repeats count), over the expected calls.

    ``allow_tool_name_variations``: compare names ignoring case, ``_`` and ``-``
    (``web_search`` = ``WebSearch``).

    Example:
        >>> calculate_partial_trajectory_accuracy([ToolCall("a"), ToolCall("b")],
        ...                                       [ToolCall("b"), ToolCall("a")])
        {'partial_trajectory_accuracy': 1.0}
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    if not gold:
        return {"partial_trajectory_accuracy": 1.0 if not trace else 0.0}
    name = _loose_name if allow_tool_name_variations else str
    wanted = Counter(name(t) for t in gold.tools)
    made = Counter(name(t) for t in trace.tools)
    return {"partial_trajectory_accuracy": sum((wanted & made).values()) / len(gold)}
