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

from toolscore._trace import evaluate_trace
from toolscore.core import (
    EvaluationResult,
    ToolScoreAssertionError,
    assert_tools,
    cases,
    evaluate,
    letter_grade,
    test_agent,
    test_agent_async,
)
from toolscore.expect import Expectation, expect
from toolscore.integrations import (
    auto_extract,
    from_anthropic,
    from_claude_agent_sdk,
    from_gemini,
    from_langgraph,
    from_openai,
    from_openai_agents,
    from_pydantic_ai,
)
from toolscore.matchers import ANY, Approx, Contains, IsType, Matcher, OneOf, Regex

if TYPE_CHECKING:
    from toolscore._dataset import evaluate_dataset

__version__ = "0.1.0"

__all__ = [
    "ANY",
    "Approx",
    "Contains",
    "EvaluationResult",
    "Expectation",
    "IsType",
    "Matcher",
    "OneOf",
    "Regex",
    "ToolScoreAssertionError",
    "__version__",
    "assert_tools",
    "auto_extract",
    "cases",
    "evaluate",
    "evaluate_dataset",
    "evaluate_trace",
    "expect",
    "from_anthropic",
    "from_claude_agent_sdk",
    "from_gemini",
    "from_langgraph",
    "from_openai",
    "from_openai_agents",
    "from_pydantic_ai",
    "letter_grade",
    "test_agent",
    "test_agent_async",
]


def __getattr__(name: str) -> Any:
    # The dataset layer (numpy, the batch engines) loads on first use, not with the package.
    if name == "evaluate_dataset":
        from toolscore._dataset import evaluate_dataset

        globals()[name] = evaluate_dataset
        return evaluate_dataset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
