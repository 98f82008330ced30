"""The core API: ``evaluate``, ``EvaluationResult``, and the assertions built on them.

Example:
    >>> from toolscore.core import evaluate, letter_grade
    >>> result = evaluate([{"tool": "a", "args": {}}], [{"tool": "a", "args": {}}])
    >>> result.score, letter_grade(result.score)
    (1.0, 'A')
"""

from toolscore._assertions import (
    ToolScoreAssertionError,
    assert_tools,
    cases,
    test_agent,
    test_agent_async,
)
from toolscore._evaluate import evaluate
from toolscore._result import ArgumentDetail, EvaluationResult, PairDetail, letter_grade
from toolscore._weights import DEFAULT_WEIGHTS
from toolscore.adapters.base import ToolCall

__all__ = [
    "DEFAULT_WEIGHTS",
    "ArgumentDetail",
    "EvaluationResult",
    "PairDetail",
    "ToolCall",
    "ToolScoreAssertionError",
    "assert_tools",
    "cases",
    "evaluate",
    "letter_grade",
    "test_agent",
    "test_agent_async",
]
