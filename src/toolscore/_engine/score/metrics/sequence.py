"""Order of the calls: edit distance between the expected and the actual tool-name sequence.

Behind :mod:`toolscore.metrics.sequence`, which re-exports it (the same objects).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from toolscore._engine.read.inputs import read_pair
from toolscore._engine.read.tool_call import ToolCall
from toolscore._engine.score.metrics.tool_names import edit_distance

__all__ = ["calculate_edit_distance", "sequence_metrics"]


def sequence_metrics(
    expected_tools: Sequence[str], actual_tools: Sequence[str]
) -> dict[str, float]:
    """Toolscore's ``sequence_metrics`` of two tool-name sequences."""
    distance = edit_distance(expected_tools, actual_tools)
    longest = max(len(expected_tools), len(actual_tools))
    normalized = distance / longest if longest else 0.0
    return {
        "edit_distance": float(distance),
        "normalized_distance": normalized,
        "sequence_accuracy": 1.0 - normalized,
    }


def calculate_edit_distance(
    gold_calls: Sequence[ToolCall | Mapping[str, Any]],
    trace_calls: Sequence[ToolCall | Mapping[str, Any]],
) -> dict[str, float]:
    """Levenshtein distance of the tool-name sequences (one edit per call), normalised.

    Returns:
        ``edit_distance`` (edits), ``normalized_distance`` (edits / the longer length) and
        ``sequence_accuracy`` (1 - normalized_distance; 1.0 for two empty sequences).
    """
    gold, trace = read_pair(gold_calls, trace_calls)
    return sequence_metrics(gold.tools, trace.tools)
