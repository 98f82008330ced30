"""Tool-name metrics: which tools were called, how often, in which order (arguments aside)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "edit_distance",
    "invocation_accuracy",
    "selection_accuracy",
    "sequence_accuracy",
    "tool_correctness",
]


def selection_accuracy(expected_tools: Sequence[str], actual_tools: Sequence[str]) -> float:
    """Share of actual calls whose tool appears among the expected tools.

    With no actual calls: 1.0 when nothing was expected either, else 0.0 (nothing selected).
    """
    if not actual_tools:
        return 1.0 if not expected_tools else 0.0
    wanted = set(expected_tools)
    hits = sum(1 for tool in actual_tools if tool in wanted)
    return hits / len(actual_tools)


def edit_distance(expected_tools: Sequence[str], actual_tools: Sequence[str]) -> int:
    """Levenshtein distance between the two tool-name sequences (one edit per call)."""
    if not expected_tools or not actual_tools:
        return max(len(expected_tools), len(actual_tools))
    from rapidfuzz.distance import Levenshtein

    codes: dict[str, int] = {}
    e = [codes.setdefault(t, len(codes)) for t in expected_tools]
    a = [codes.setdefault(t, len(codes)) for t in actual_tools]
    return int(Levenshtein.distance(e, a))


def sequence_accuracy(
    expected_tools: Sequence[str], actual_tools: Sequence[str], distance: int | None = None
) -> float:
    """1 - Levenshtein distance of the two tool-name sequences / the longer length."""
    longest = max(len(expected_tools), len(actual_tools))
    if longest == 0:
        return 1.0
    if distance is None:
        distance = edit_distance(expected_tools, actual_tools)
    return 1.0 - distance / longest


def invocation_accuracy(expected_tools: Sequence[str], actual_tools: Sequence[str]) -> float:
    """Did the agent use tools when it should, and the right set of them?

    1.0 when both sides are empty, 0.0 when exactly one is; otherwise the share of expected
    tool names that were called, minus half a point per name called but not expected and per
    name expected but not called, clamped to ``[0, 1]`` (Toolscore's definition, on names).
    """
    if not expected_tools or not actual_tools:
        return 1.0 if not expected_tools and not actual_tools else 0.0
    wanted, called = set(expected_tools), set(actual_tools)
    penalty = len(called - wanted) + len(wanted - called)
    value = (len(wanted & called) - 0.5 * penalty) / len(wanted)
    return min(1.0, max(0.0, value))


def tool_correctness(
    expected_tools: Sequence[str], actual_tools: Sequence[str], strict_order: bool = False
) -> dict[str, Any]:
    """Which expected tool names were called at least once (or at their position).

    Returns Toolscore's ``tool_correctness_metrics`` dict: ``tool_correctness``,
    ``expected_tools``, ``called_tools``, ``missing_tools``, ``extra_tools`` (sorted names),
    ``correct_count``, ``total_expected`` and ``strict_order``; with ``strict_order`` the
    share of positions holding the expected tool, plus both sequences.
    """
    wanted, called = set(expected_tools), set(actual_tools)
    out: dict[str, Any] = {
        "expected_tools": sorted(wanted),
        "called_tools": sorted(called),
        "missing_tools": sorted(wanted - called),
        "extra_tools": sorted(called - wanted),
    }
    if strict_order:
        correct = sum(1 for e, a in zip(expected_tools, actual_tools, strict=False) if e == a)
        total = len(expected_tools)
    else:
        correct, total = len(wanted & called), len(wanted)
    out["tool_correctness"] = correct / total if total else float(not actual_tools)
    if strict_order and expected_tools:
        out.update(expected_sequence=list(expected_tools), called_sequence=list(actual_tools))
    out.update(correct_count=correct, total_expected=total, strict_order=strict_order)
    return out
