"""Trajectory: did the agent take the expected path, step by step?

Behind :mod:`toolscore.metrics.trajectory`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.compare.counts import count_pair
from toolscore._engine.read.inputs import CallList, read_calls
from toolscore._engine.read.tool_call import ToolCall

__all__ = [
    "calculate_partial_trajectory_accuracy",
    "calculate_trajectory_accuracy",
    "trajectory_metrics",
]

Calls = Sequence[ToolCall | Mapping[str, Any]]


def _step(
    n: int,
    e_tool: str | None,
    a_tool: str | None,
    matches: bool,
    e_args: Any,
    a_args: Any,
    error: str | None,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "step": n,
        "expected_tool": e_tool,
        "actual_tool": a_tool,
        "matches": matches,
        "expected_args": e_args or {},
        "actual_args": a_args or {},
    }
    if error:
        out["error"] = error
    return out


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
        if i >= n_a:
            details.append(
                _step(
                    i + 1,
                    gold.tools[i],
                    None,
                    False,
                    gold.args[i],
                    None,
                    "the agent stopped before this step",
                )
            )
            continue
        if i >= n_e:
            details.append(
                _step(
                    i + 1,
                    None,
                    trace.tools[i],
                    False,
                    None,
                    trace.args[i],
                    "an extra step, not in the expected path",
                )
            )
            continue
        e_tool, e_args, a_args = gold.tools[i], gold.args[i], trace.args[i]
        ok = e_tool == trace.tools[i] and count_pair(e_args, a_args, strict, named_only).all_ok
        correct += ok
        details.append(_step(i + 1, e_tool, trace.tools[i], ok, e_args, a_args, None))
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
    gold = read_calls(list(gold_calls), expected=True)
    trace = read_calls(list(trace_calls), expected=False)
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
    gold = read_calls(list(gold_calls), expected=True)
    trace = read_calls(list(trace_calls), expected=False)
    if not gold:
        return {"partial_trajectory_accuracy": 1.0 if not trace else 0.0}
    name = _loose_name if allow_tool_name_variations else str
    wanted = Counter(name(t) for t in gold.tools)
    made = Counter(name(t) for t in trace.tools)
    return {"partial_trajectory_accuracy": sum((wanted & made).values()) / len(gold)}
