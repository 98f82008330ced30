"""Latency and cost of the calls, from the run data recorded on them (``duration``, ``cost``).

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> calls = [ToolCall("a", duration=0.5), ToolCall("b", duration=1.5)]
    >>> calculate_latency(calls)["total_duration"]
    2.0
"""

from toolscore._engine.score.metrics.cost import Calls as Calls
from toolscore._engine.score.metrics.cost import calculate_cost_attribution, calculate_latency

__all__ = ["calculate_cost_attribution", "calculate_latency"]
