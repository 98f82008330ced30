"""The MCP server scorecard: does every tool do what it advertises, survive bad arguments,
and describe itself well enough for a model, and what do its definitions cost in context?

Built on the official ``mcp`` SDK (``pip install 'llm-scorekit[mcp]'``): stdio and Streamable
HTTP servers, protocol version negotiation, a timeout on every call, and a server that crashes
or hangs costs the scenario, never the run.

Example:
    >>> import sys
    >>> from toolscore.mcp import MCPStdioClient, score_server
    >>> with MCPStdioClient([sys.executable, "-m", "toolscore.mcp.sample_server"]) as client:
    ...     card = score_server(client, seed=1)
    >>> card.grade, card.happy_pass_rate < 1.0
    ('B', True)
"""

from toolscore.mcp._tokens import estimate_tokens, tool_definition_tokens
from toolscore.mcp.client import (
    MCPClient,
    MCPError,
    MCPHttpClient,
    MCPServerExitedError,
    MCPStdioClient,
    MCPTimeoutError,
    MCPToolDef,
    MCPToolResult,
)
from toolscore.mcp.config import MCPServerSpec, load_mcp_config
from toolscore.mcp.content import content_to_text
from toolscore.mcp.harness import Scenario, ScenarioResult, generate_scenarios, run_scenarios
from toolscore.mcp.lint_rules import LintIssue, lint_tools
from toolscore.mcp.recorder import MCPRecorder
from toolscore.mcp.scorecard import (
    FixSuggestion,
    MCPScorecard,
    build_fix_list,
    grade_meets,
    print_scorecard,
    score_server,
    scorecard_to_json,
    scorecard_to_markdown,
)

__all__ = [
    "FixSuggestion",
    "LintIssue",
    "MCPClient",
    "MCPError",
    "MCPHttpClient",
    "MCPRecorder",
    "MCPScorecard",
    "MCPServerExitedError",
    "MCPServerSpec",
    "MCPStdioClient",
    "MCPTimeoutError",
    "MCPToolDef",
    "MCPToolResult",
    "Scenario",
    "ScenarioResult",
    "build_fix_list",
    "content_to_text",
    "estimate_tokens",
    "generate_scenarios",
    "grade_meets",
    "lint_tools",
    "load_mcp_config",
    "print_scorecard",
    "run_scenarios",
    "score_server",
    "scorecard_to_json",
    "scorecard_to_markdown",
    "tool_definition_tokens",
]
