"""Side effects: did the paired actual calls achieve what the gold file says they should?

An expected call may carry ``metadata["side_effects"]`` (gold files: a ``"side_effects"``
object), for example ``{"file_exists": "out.txt"}``. Each entry is one check, run by the
validator registered under its name on the actual call paired with the expected call by the
one-to-one alignment (so a missing or reordered call never shifts which call is checked). A
validator is ``fn(actual_call: ToolCall, expected_value) -> bool``.

Example:
    >>> from toolscore.adapters.base import ToolCall
    >>> gold = [ToolCall("save", {"path": "a.txt"}, metadata={"side_effects": {"ok": True}})]
    >>> m = calculate_side_effect_success_rate(
    ...     gold, [ToolCall("save", {"path": "a.txt"}, result="saved")],
    ...     {"ok": lambda call, want: (call.result == "saved") == want})
    >>> m["passed_checks"], m["success_rate"]
    (1, 1.0)
"""

from toolscore._engine.score.metrics.side_effects import Validator as Validator
from toolscore._engine.score.metrics.side_effects import (
    calculate_side_effect_success_rate,
    default_side_effect_validators,
)

__all__ = ["calculate_side_effect_success_rate", "default_side_effect_validators"]
