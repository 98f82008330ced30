"""Tool-level metrics: which tools were called, how often, in which order."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["selection_accuracy", "sequence_accuracy"]


def selection_accuracy(expected_tools: Sequence[str], actual_tools: Sequence[str]) -> float:
    """Share of actual calls whose tool appears among the expected tools.

    With no actual calls: 1.0 when nothing was expected either, else 0.0 (nothing selected).
    """
    if not actual_tools:
        return 1.0 if not expected_tools else 0.0
    wanted = set(expected_tools)
    hits = sum(1 for tool in actual_tools if tool in wanted)
    return hits / len(actual_tools)


def sequence_accuracy(expected_tools: Sequence[str], actual_tools: Sequence[str]) -> float:
    """1 - Levenshtein distance of the two tool-name sequences / the longer length."""
    longest = max(len(expected_tools), len(actual_tools))
    if longest == 0:
        return 1.0
    from rapidfuzz.distance import Levenshtein

    codes: dict[str, int] = {}
    e = [codes.setdefault(t, len(codes)) for t in expected_tools]
    a = [codes.setdefault(t, len(codes)) for t in actual_tools]
    distance = int(Levenshtein.distance(e, a))
    return 1.0 - distance / longest
