"""Trace-format adapters and the normalised tool-call record (:class:`ToolCall`).

Each adapter's ``parse(trace_data)`` reads parsed JSON of one format into ``ToolCall``
objects with their run data; :func:`toolscore.core.load_trace` picks one by ``format``.

Example:
    >>> from toolscore.adapters import MCPAdapter
    >>> calls = MCPAdapter().parse([
    ...     {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
    ...      "params": {"name": "search", "arguments": {"q": "x"}}},
    ...     {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "ok"}]}}])
    >>> [(c.tool, c.args, c.result) for c in calls]
    [('search', {'q': 'x'}, 'ok')]
"""

from toolscore.adapters.anthropic import AnthropicAdapter
from toolscore.adapters.base import BaseAdapter, ToolCall
from toolscore.adapters.crewai import CrewAIAdapter
from toolscore.adapters.custom import CustomAdapter
from toolscore.adapters.gemini import GeminiAdapter
from toolscore.adapters.langchain import LangChainAdapter
from toolscore.adapters.mcp import MCPAdapter
from toolscore.adapters.openai import OpenAIAdapter
from toolscore.adapters.otel import OTelAdapter

__all__ = [
    "AnthropicAdapter",
    "BaseAdapter",
    "CrewAIAdapter",
    "CustomAdapter",
    "GeminiAdapter",
    "LangChainAdapter",
    "MCPAdapter",
    "OTelAdapter",
    "OpenAIAdapter",
    "ToolCall",
]
