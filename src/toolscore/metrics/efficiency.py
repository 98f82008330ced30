"""Efficiency: redundant calls, identical repeats, failed calls and blind retries.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> m = calculate_redundant_call_rate(
    ...     [ToolCall("search", {"q": "x"})],
    ...     [ToolCall("search", {"q": "x"}), ToolCall("search", {"q": "x"})])
    >>> m["redundant_count"], m["identical_count"], m["redundant_rate"]
    (1, 1, 0.5)
"""

from toolscore._engine.score.metrics.efficiency import (
    calculate_redundant_call_rate,
    efficiency_metrics,
)

__all__ = ["calculate_redundant_call_rate", "efficiency_metrics"]
