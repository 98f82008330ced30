"""Were the expected tools called? By name, with their arguments, and as completed requirements.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> gold = [ToolCall("search", {"q": "x"}), ToolCall("search", {"q": "y"})]
    >>> calculate_required_call_recall(gold, [ToolCall("search", {"q": "x"})])
    0.5
"""

from toolscore._engine.score.metrics.correctness import Calls as Calls
from toolscore._engine.score.metrics.correctness import (
    calculate_required_call_recall,
    calculate_tool_correctness,
    calculate_tool_correctness_with_args,
    required_recall,
)

__all__ = [
    "calculate_required_call_recall",
    "calculate_tool_correctness",
    "calculate_tool_correctness_with_args",
    "required_recall",
]
