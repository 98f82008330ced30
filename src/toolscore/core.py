"""The core API: ``evaluate``, ``evaluate_trace``, ``EvaluationResult``, the assertions built
on them, and reading gold and trace files into ``ToolCall`` objects.

Example:
    >>> from toolscore.core import evaluate, letter_grade
    >>> result = evaluate([{"tool": "a", "args": {}}], [{"tool": "a", "args": {}}])
    >>> result.score, letter_grade(result.score)
    (1.0, 'A')
"""

from __future__ import annotations

import os

from toolscore._engine.check import evaluate_trace as _trace
from toolscore._engine.check.assertions import (
    ToolScoreAssertionError,
    assert_tools,
    cases,
    test_agent,
    test_agent_async,
)
from toolscore._engine.check.conversation import (
    ConversationResult,
    TurnResult,
    assert_conversation,
    evaluate_conversation,
)
from toolscore._engine.check.evaluate_trace import evaluate_trace
from toolscore._engine.check.streams import assert_stream_matches
from toolscore._engine.check.trajectory import TrajectoryMatch, assert_trajectory, match_trajectory
from toolscore._engine.read.inputs import actual_calls, expected_calls
from toolscore._engine.score.details import ArgumentDetail, PairDetail
from toolscore._engine.score.evaluate import evaluate
from toolscore._engine.score.result import EvaluationResult
from toolscore._engine.score.weights import DEFAULT_WEIGHTS
from toolscore.adapters import (
    AnthropicAdapter,
    BaseAdapter,
    CrewAIAdapter,
    CustomAdapter,
    GeminiAdapter,
    LangChainAdapter,
    MCPAdapter,
    OpenAIAdapter,
    OTelAdapter,
    ToolCall,
)
from toolscore.verdict import letter_grade

__all__ = [
    "DEFAULT_WEIGHTS",
    "AnthropicAdapter",
    "ArgumentDetail",
    "BaseAdapter",
    "ConversationResult",
    "CrewAIAdapter",
    "CustomAdapter",
    "EvaluationResult",
    "GeminiAdapter",
    "LangChainAdapter",
    "MCPAdapter",
    "OTelAdapter",
    "OpenAIAdapter",
    "PairDetail",
    "ToolCall",
    "ToolScoreAssertionError",
    "TrajectoryMatch",
    "TurnResult",
    "assert_conversation",
    "assert_stream_matches",
    "assert_tools",
    "assert_trajectory",
    "cases",
    "evaluate",
    "evaluate_conversation",
    "evaluate_trace",
    "letter_grade",
    "load_gold_standard",
    "load_trace",
    "match_trajectory",
    "test_agent",
    "test_agent_async",
]


def load_gold_standard(file_path: str | os.PathLike[str]) -> list[ToolCall]:
    """The expected calls of a gold file as ``ToolCall`` objects, matchers decoded.

    A call's ``side_effects`` and ``description`` go to its ``metadata``; ``args`` omitted or
    ``null`` stays ``None`` ("do not check arguments").

    Raises:
        FileNotFoundError: the file does not exist (a ``TraceFileError`` too).
        ValueError: the file is empty, not JSON, or not a list of calls (the message says
            where).

    Example:
        >>> import json, os, tempfile
        >>> path = os.path.join(tempfile.mkdtemp(), "gold.json")
        >>> gold = [{"tool": "search", "args": {"q": {"$any": True}}}]
        >>> _ = open(path, "w").write(json.dumps(gold))
        >>> load_gold_standard(path)[0].args
        {'q': ANY}
    """
    return expected_calls(_trace.load_gold(file_path)).tool_calls()


def load_trace(file_path: str | os.PathLike[str], format: str = "auto") -> list[ToolCall]:
    """The calls recorded in a trace file as ``ToolCall`` objects, with their run data.

    Args:
        file_path: the trace file (JSON, or JSON Lines).
        format: ``auto`` or one of ``openai``, ``anthropic``, ``gemini``, ``langchain``,
            ``mcp``, ``otel``, ``crewai``, ``custom``.

    Raises:
        FileNotFoundError: the file does not exist.
        ValueError: an unknown ``format`` ("Unsupported format: ..."), or a file that is not
            a trace of that format.
    """
    return actual_calls(_trace.load_trace(file_path, format)).tool_calls()
