"""The core API: ``evaluate``, ``EvaluationResult``, and the assertions built on them.

Example:
    >>> from toolscore.core import evaluate, letter_grade
    >>> result = evaluate([{"tool": "a", "args": {}}], [{"tool": "a", "args": {}}])
    >>> result.score, letter_grade(result.score)
    (1.0, 'A')
"""

from toolscore._engine.assertions import (
    ToolScoreAssertionError,
    assert_tools,
    cases,
    test_agent,
    test_agent_async,
)
from toolscore._engine.evaluate import evaluate
from toolscore._engine.result import ArgumentDetail, EvaluationResult, PairDetail
from toolscore._engine.weights import DEFAULT_WEIGHTS
from toolscore.adapters.base import ToolCall
from toolscore.verdict import letter_grade

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
