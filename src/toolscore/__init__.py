"""toolscore: did the agent call the right tools, with the right arguments, in the right order?

Example:
    >>> import toolscore
    >>> result = toolscore.evaluate(
    ...     expected=[{"tool": "get_weather", "args": {"city": toolscore.Regex("NYC|JFK")}}],
    ...     actual=[{"tool": "get_weather", "args": {"city": "NYC"}}],
    ... )
    >>> result.score
    1.0
"""

from typing import TYPE_CHECKING, Any

from toolscore._engine.check.budget import assert_budget
from toolscore.capture import TraceCapture, capture_trace
from toolscore.core import (
    ConversationResult,
    EvaluationResult,
    ToolScoreAssertionError,
    TrajectoryMatch,
    TurnResult,
    assert_conversation,
    assert_stream_matches,
    assert_tools,
    assert_trajectory,
    cases,
    evaluate,
    evaluate_conversation,
    evaluate_trace,
    match_trajectory,
    test_agent,
    test_agent_async,
)
from toolscore.expect import Expectation, expect
from toolscore.honesty import Finding, HonestyReport, assert_honest, check_honesty
from toolscore.integrations import (
    auto_extract,
    from_anthropic,
    from_claude_agent_sdk,
    from_crewai,
    from_gemini,
    from_langgraph,
    from_openai,
    from_openai_agents,
    from_otel,
    from_pydantic_ai,
    from_stream,
)
from toolscore.matchers import ANY, Approx, Contains, IsType, Matcher, OneOf, Regex, Semantic
from toolscore.metrics.llm_judge import JudgeConfig
from toolscore.snapshots import Snapshot, SnapshotStore, snapshot_check
from toolscore.verdict import FixSuggestion, letter_grade


def __getattr__(name: str) -> Any:
    # __version__ is read from the installed distribution's metadata on first use:
    # importlib.metadata is slow to import, and every pytest run imports this package.
    if name == "__version__":
        from toolscore._engine.version import package_version

        value = package_version()
        globals()["__version__"] = value
        return value
    if name == "evaluate_dataset":
        # The dataset layer (numpy, the batch engines) loads on first use, not with the package.
        from toolscore._dataset import evaluate_dataset

        globals()[name] = evaluate_dataset
        return evaluate_dataset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if TYPE_CHECKING:
    from toolscore._dataset import evaluate_dataset

__all__ = [
    "ANY",
    "Approx",
    "Contains",
    "ConversationResult",
    "EvaluationResult",
    "Expectation",
    "Finding",
    "FixSuggestion",
    "HonestyReport",
    "IsType",
    "JudgeConfig",
    "Matcher",
    "OneOf",
    "Regex",
    "Semantic",
    "Snapshot",
    "SnapshotStore",
    "ToolScoreAssertionError",
    "TraceCapture",
    "TrajectoryMatch",
    "TurnResult",
    "__version__",
    "assert_budget",
    "assert_conversation",
    "assert_honest",
    "assert_stream_matches",
    "assert_tools",
    "assert_trajectory",
    "auto_extract",
    "capture_trace",
    "cases",
    "check_honesty",
    "evaluate",
    "evaluate_conversation",
    "evaluate_dataset",
    "evaluate_trace",
    "expect",
    "from_anthropic",
    "from_claude_agent_sdk",
    "from_crewai",
    "from_gemini",
    "from_langgraph",
    "from_openai",
    "from_openai_agents",
    "from_otel",
    "from_pydantic_ai",
    "from_stream",
    "letter_grade",
    "match_trajectory",
    "snapshot_check",
    "test_agent",
    "test_agent_async",
]
