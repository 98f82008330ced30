"""Trajectory: did the agent take the expected path, step by step?

Step ``i`` of the actual calls is compared with step ``i`` of the expected calls: it matches
when the tool is the same and the arguments agree under the comparison rule (matchers
honoured, ``args=None`` checks the tool alone). Extra steps lower the path efficiency.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> m = calculate_trajectory_accuracy(
    ...     [ToolCall("search", {"q": "x"}), ToolCall("open", {"id": 1})],
    ...     [ToolCall("search", {"q": "x"}), ToolCall("open", {"id": 2}), ToolCall("close")])
    >>> m["correct_steps"], m["step_match_rate"], round(m["trajectory_accuracy"], 4)
    (1, 0.5, 0.3333)
"""

from toolscore._engine.score.metrics.steps import Calls as Calls
from toolscore._engine.score.metrics.steps import (
    calculate_partial_trajectory_accuracy,
    calculate_trajectory_accuracy,
    trajectory_metrics,
)

__all__ = [
    "calculate_partial_trajectory_accuracy",
    "calculate_trajectory_accuracy",
    "trajectory_metrics",
]
