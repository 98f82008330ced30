"""Read tool calls out of provider responses and agent-framework results.

Every reader returns ``[{"tool": name, "args": {...}}, ...]`` in call order. They accept SDK
objects (anything with ``model_dump()``, dataclasses, plain objects) as well as plain dicts,
and lists that mix them. Arguments that arrive as JSON text are parsed; text that is not a
JSON object raises a :class:`MalformedArgumentsWarning` naming the tool and quoting the text,
and the call is kept with empty arguments (never dropped). A response of no known shape (or
with a field of the wrong kind, such as ``"choices": 1``) raises ``TypeError``; a call
without a tool name, or a response nested past Python's recursion limit, ``ValueError``.

Shapes read:

* OpenAI Chat Completions: ``choices[].message.tool_calls[].function`` and the legacy
  ``message.function_call``; also bare messages and message lists.
* OpenAI Responses API: ``output[]`` items of type ``function_call`` (also ``mcp_call``,
  ``custom_tool_call`` with ``{"input": text}``, and hosted tools such as ``web_search_call``
  as ``web_search`` with the call's ``action`` as arguments).
* Anthropic Messages: ``content[]`` blocks of type ``tool_use``.
* Gemini: ``candidates[].content.parts[].functionCall`` (or ``function_call``).
* LangChain / LangGraph: ``{"messages": [...]}`` states and message lists, with
  ``AIMessage.tool_calls`` (``name``/``args``) or OpenAI wire format; agent actions
  (``tool``/``tool_input``, ``action``/``action_input``; a text input is ``{"input": text}``).
* OpenAI Agents SDK: ``RunResult.new_items`` of type ``tool_call_item`` (``raw_item``).
* Pydantic AI: ``result.all_messages()`` parts with ``part_kind == "tool-call"``.
* Claude Agent SDK: message lists whose ``content`` holds ``ToolUseBlock``/``tool_use``.
* OpenTelemetry GenAI spans (``execute_tool``, MCP ``tools/call``): an OTLP/JSON export, span
  dicts or SDK span objects (:func:`from_otel`; these calls also carry ``result``,
  ``is_error``, ``error``, ``duration`` and ``id``).
* CrewAI: ``tools_results`` entries (``tool_name``, ``tool_args``).

Streamed responses (chunks and events, not one response) are read by :func:`from_stream`.

Example:
    >>> from toolscore.integrations import from_anthropic
    >>> from_anthropic({"content": [{"type": "tool_use", "id": "t1", "name": "search",
    ...                              "input": {"q": "cats"}}]})
    [{'tool': 'search', 'args': {'q': 'cats'}}]
"""

from toolscore._engine.read.providers import Call as Call
from toolscore._engine.read.providers import (
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
)
from toolscore._engine.read.shapes import MalformedArgumentsWarning
from toolscore._engine.read.streams import from_stream

__all__ = [
    "MalformedArgumentsWarning",
    "auto_extract",
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
]
