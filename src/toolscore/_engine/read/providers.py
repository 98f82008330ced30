"""Read tool calls out of provider responses and agent-framework results.

Behind :mod:`toolscore.integrations`, which re-exports it (the same objects) with
``from_stream`` (:mod:`~toolscore._engine.read.streams`) and ``MalformedArgumentsWarning``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toolscore._engine.read.otel import looks_like_otel, otel_calls
from toolscore._engine.read.shapes import action_input, first_set, plain, read_arguments

__all__ = [
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
]

Call = dict[str, Any]


class _Unrecognised(Exception):
    pass


def _seq(value: Any, where: str) -> list[Any]:
    """A list field of a response (missing or empty: no items); any other value is a shape
    no provider sends."""
    if isinstance(value, (list, tuple)):
        return list(value)
    if value is None or value == "" or value == {}:
        return []
    raise _Unrecognised(f"{where} is {_a(value)}, not a list")


def _object(value: Any, where: str) -> Mapping[str, Any]:
    """An object field of a response (missing: empty); any other value is an unknown shape."""
    value = plain(value)
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return value
    raise _Unrecognised(f"{where} is {_a(value)}, not an object")


def _a(value: Any) -> str:
    """``a str``, ``an int``: the kind of ``value`` for a message."""
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def _call(name: Any, raw_args: Any) -> Call:
    tool = str(name) if name is not None else ""
    return {"tool": tool, "args": read_arguments(raw_args, tool)}


# Keys of messages, blocks and parts that can legitimately hold no tool call.
_MESSAGE_KEYS = ("role", "type", "content", "parts", "part_kind", "kind", "text", "subtype")
_TOOL_USE_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
# Claude Agent SDK dataclasses carry no "type" field: known by their class name.
_SDK_TOOL_USE = ("ToolUseBlock", "ServerToolUseBlock")
_SDK_OTHER = ("ToolResultBlock", "ServerToolResultBlock", "TextBlock", "ThinkingBlock")


def _extract(obj: Any) -> list[Call]:  # noqa: C901 (one dispatch over the provider shapes, read top to bottom; a branch per shape)
    """Calls in one object; raises _Unrecognised when the shape is unknown."""
    if isinstance(obj, (list, tuple)):
        out: list[Call] = []
        for item in obj:
            out.extend(_extract(item))
        return out
    all_messages = getattr(obj, "all_messages", None)
    if callable(all_messages) and not isinstance(obj, Mapping):  # Pydantic AI run result
        return _extract(list(all_messages()))
    d = plain(obj)
    if not isinstance(d, Mapping):
        raise _Unrecognised(type(obj).__name__)

    tool = d.get("tool")
    if isinstance(tool, str) and "tool_input" in d:  # a LangChain AgentAction
        return [{"tool": tool, "args": action_input(d.get("tool_input"), tool)}]
    if isinstance(tool, str) and "__type__" not in d:  # already a call dict
        return [{"tool": tool, "args": read_arguments(d.get("args"), tool)}]
    if isinstance(d.get("action"), str) and "action_input" in d:  # a LangChain agent step
        return [{"tool": d["action"], "args": action_input(d.get("action_input"), d["action"])}]
    if "choices" in d:  # OpenAI chat completion
        out = []
        for choice in _seq(d.get("choices"), "choices"):
            out.extend(_message(first_set(_object(choice, "a choice"), "message", "delta")))
        return out
    if "candidates" in d:  # Gemini
        out = []
        for cand in _seq(d.get("candidates"), "candidates"):
            content = _object(_object(cand, "a candidate").get("content"), "a candidate's content")
            out.extend(_extract(_seq(content.get("parts"), "parts")))
        return out
    if "new_items" in d:  # OpenAI Agents SDK RunResult
        return _extract(_seq(d.get("new_items"), "new_items"))
    kind = d.get("type")
    if isinstance(d.get("data"), Mapping) and isinstance(kind, str) and len(d) == 2:
        return _extract(d["data"])  # LangChain's messages_to_dict form {"type": ..., "data": ...}
    if kind == "tool_call_item" or d.get("__type__") == "ToolCallItem":
        raw = _object(d.get("raw_item"), "raw_item")
        return [_call(first_set(raw, "name", "type"), first_set(raw, "arguments", "input"))]
    fn = plain(d.get("function"))
    if isinstance(fn, Mapping) and "name" in fn:  # one OpenAI wire-format tool call
        return [_call(fn.get("name"), fn.get("arguments"))]
    if kind in ("tool_call", "invalid_tool_call") and "name" in d:  # one LangChain ToolCall
        return [_call(d.get("name"), d.get("args"))]
    if kind in ("function_call", "mcp_call") and "name" in d:  # Responses API item, remote MCP
        return [_call(d.get("name"), d.get("arguments"))]
    if kind == "custom_tool_call" and "name" in d:  # Responses API free-form tool
        return [{"tool": str(d["name"]), "args": {"input": d.get("input")}}]
    if isinstance(kind, str) and kind.endswith("_call") and "id" in d and "role" not in d:
        # Responses API hosted tools (web_search_call, file_search_call, computer_call...):
        # named after the tool, with its action when there is one.
        action = plain(d.get("action"))
        args = dict(action) if isinstance(action, Mapping) else {}
        return [{"tool": kind[: -len("_call")], "args": args}]
    if isinstance(d.get("output"), list):  # Responses API response
        return _extract(list(d["output"]))
    if kind in _TOOL_USE_BLOCKS or d.get("__type__") in _SDK_TOOL_USE:  # Anthropic, Claude SDK
        return [_call(d.get("name"), d.get("input"))]
    if d.get("part_kind") == "tool-call" or d.get("__type__") == "ToolCallPart":  # Pydantic AI
        return [_call(d.get("tool_name"), d.get("args"))]
    if d.get("part_kind") is not None or kind == "tool_result" or d.get("__type__") in _SDK_OTHER:
        return []  # other parts and blocks: prompts, tool results, text
    fc = plain(first_set(d, "functionCall", "function_call"))
    if isinstance(fc, Mapping) and "role" not in d:  # Gemini part
        return [_call(fc.get("name"), fc.get("args"))]
    if isinstance(d.get("tools_results"), (list, tuple)):  # CrewAI agent / task output
        return _extract(list(d["tools_results"]))
    if "tool_name" in d and "tool_args" in d:  # one CrewAI tool result entry
        return [_call(d.get("tool_name"), d.get("tool_args"))]
    if isinstance(d.get("messages"), (list, tuple)):  # LangGraph state
        return _extract(list(d["messages"]))
    if "author" in d and isinstance(plain(d.get("content")), Mapping):  # a Google ADK event
        return _extract(plain(d["content"]))
    if any(key in d for key in ("tool_calls", "invalid_tool_calls", "function_call")):
        return _message(d)
    if isinstance(d.get("content"), (list, tuple)):
        return _extract([b for b in d["content"] if not isinstance(b, str)])
    if isinstance(d.get("parts"), (list, tuple)):
        return _extract(list(d["parts"]))
    if any(key in d for key in _MESSAGE_KEYS):
        return []  # a message, block or part that holds no tool call (text, tool result)
    raise _Unrecognised(type(obj).__name__)


def _message(msg: Any) -> list[Call]:
    """Calls of one chat message (OpenAI wire format or LangChain ``tool_calls``)."""
    msg = plain(msg)
    if not isinstance(msg, Mapping):
        return []
    # LangChain keeps calls whose arguments failed to parse in invalid_tool_calls: keep them
    # too (their raw arguments are warned about), never drop them silently.
    tool_calls = [
        *_seq(msg.get("tool_calls"), "tool_calls"),
        *_seq(msg.get("invalid_tool_calls"), "invalid_tool_calls"),
    ]
    out: list[Call] = []
    for item in tool_calls:
        tc = _object(item, "a tool call")
        fn = plain(tc.get("function"))
        if isinstance(fn, Mapping):
            out.append(_call(fn.get("name"), fn.get("arguments")))
        else:
            out.append(_call(tc.get("name"), first_set(tc, "args", "arguments")))
    if out:
        return out
    legacy = plain(msg.get("function_call"))
    if isinstance(legacy, Mapping) and legacy.get("name"):
        return [_call(legacy.get("name"), legacy.get("arguments"))]
    content = msg.get("content")
    if isinstance(content, (list, tuple)):
        return _extract([b for b in content if not isinstance(b, str)])
    return []


def _read(response: Any, reader: str) -> list[Call]:
    try:
        calls = otel_calls(response) if looks_like_otel(response) else _extract(response)
    except RecursionError:
        raise _too_deep(reader, response) from None
    except _Unrecognised as exc:
        raise TypeError(
            f"Cannot auto-detect the provider format: {reader}() cannot read tool calls from "
            f"a {type(response).__name__} (unrecognised part: {exc}); pass a provider response "
            "(OpenAI, Anthropic, Gemini, LangGraph, OpenAI Agents, Pydantic AI, Claude Agent "
            "SDK, OpenTelemetry spans) or a list of {'tool': name, 'args': {...}} dicts"
        ) from None
    for n, call in enumerate(calls):
        if not call["tool"]:
            raise ValueError(f"{reader}(): tool call #{n + 1} has no tool name: {call!r}")
    return calls


def _too_deep(reader: str, response: Any) -> ValueError:
    return ValueError(
        f"{reader}() cannot read a {type(response).__name__} nested this deeply (past "
        "Python's recursion limit); a provider response nests a few levels only"
    )


def auto_extract(response: Any) -> list[dict[str, Any]]:
    """Detect the provider shape of ``response`` and return its tool calls.

    Args:
        response: a provider response or framework result (object or dict), a message
            list, or a list of ``{"tool", "args"}`` dicts (returned as they are); lists may
            mix these.

    Returns:
        ``[{"tool": ..., "args": {...}}, ...]`` in call order.

    Raises:
        TypeError: nothing in ``response`` has a known shape, or a part of it has a field of
            the wrong kind (``"choices": 1``).
        ValueError: a tool call has no tool name, or ``response`` is nested too deeply to
            read.

    Example:
        >>> auto_extract({"choices": [{"message": {"role": "assistant", "tool_calls": [
        ...     {"id": "c1", "type": "function",
        ...      "function": {"name": "get_weather", "arguments": '{"city": "NYC"}'}}]}}]})
        [{'tool': 'get_weather', 'args': {'city': 'NYC'}}]
    """
    return _read(response, "auto_extract")


def from_openai(response: Any) -> list[dict[str, Any]]:
    """Tool calls of an OpenAI Chat Completions or Responses API response (object or dict).

    Reads ``choices[].message.tool_calls``, the legacy ``function_call``, and Responses
    ``output[]`` items of type ``function_call``; a message or message list also works.

    Example:
        >>> from_openai({"output": [{"type": "function_call", "call_id": "c1",
        ...                          "name": "search", "arguments": '{"q": "x"}'}]})
        [{'tool': 'search', 'args': {'q': 'x'}}]
    """
    return _read(response, "from_openai")


def from_anthropic(response: Any) -> list[dict[str, Any]]:
    """Tool calls of an Anthropic Messages response: ``content[]`` ``tool_use`` blocks.

    Example:
        >>> from_anthropic({"role": "assistant", "content": [
        ...     {"type": "text", "text": "Let me check."},
        ...     {"type": "tool_use", "id": "t", "name": "get_weather", "input": {"city": "Oslo"}}]})
        [{'tool': 'get_weather', 'args': {'city': 'Oslo'}}]
    """
    return _read(response, "from_anthropic")


def from_gemini(response: Any) -> list[dict[str, Any]]:
    """Tool calls of a Gemini response: ``candidates[].content.parts[].functionCall``.

    Example:
        >>> from_gemini({"candidates": [{"content": {"role": "model", "parts": [
        ...     {"functionCall": {"name": "lights", "args": {"on": True}}}]}}]})
        [{'tool': 'lights', 'args': {'on': True}}]
    """
    return _read(response, "from_gemini")


def from_langgraph(result: Any) -> list[dict[str, Any]]:
    """Tool calls of a LangGraph state (``{"messages": [...]}``) or a LangChain message list.

    Example:
        >>> from_langgraph({"messages": [{"type": "human", "content": "hi"},
        ...     {"type": "ai", "content": "", "tool_calls": [
        ...         {"name": "search", "args": {"q": "hi"}, "id": "1", "type": "tool_call"}]}]})
        [{'tool': 'search', 'args': {'q': 'hi'}}]
    """
    return _read(result, "from_langgraph")


def from_openai_agents(result: Any) -> list[dict[str, Any]]:
    """Tool calls of an OpenAI Agents SDK ``RunResult`` (``new_items``) or a list of items.

    Example:
        >>> from_openai_agents({"new_items": [{"type": "tool_call_item", "raw_item": {
        ...     "type": "function_call", "name": "search", "arguments": "{}"}}]})
        [{'tool': 'search', 'args': {}}]
    """
    return _read(result, "from_openai_agents")


def from_pydantic_ai(result: Any) -> list[dict[str, Any]]:
    """Tool calls of a Pydantic AI run result (``all_messages()``) or a message list.

    Example:
        >>> from_pydantic_ai([{"kind": "response", "parts": [
        ...     {"part_kind": "tool-call", "tool_name": "roll", "args": '{"sides": 6}'}]}])
        [{'tool': 'roll', 'args': {'sides': 6}}]
    """
    return _read(result, "from_pydantic_ai")


def from_claude_agent_sdk(result: Any) -> list[dict[str, Any]]:
    """Tool calls of a Claude Agent SDK message list (``ToolUseBlock`` content blocks).

    Example:
        >>> from_claude_agent_sdk([{"content": [
        ...     {"type": "tool_use", "id": "t", "name": "Read", "input": {"path": "a.txt"}}]}])
        [{'tool': 'Read', 'args': {'path': 'a.txt'}}]
    """
    return _read(result, "from_claude_agent_sdk")


def from_crewai(result: Any) -> list[dict[str, Any]]:
    """Tool calls of a CrewAI run: ``tools_results`` entries (``tool_name``, ``tool_args``).

    Accepts an agent or task output (object or dict) with a ``tools_results`` list, or the list
    itself. CrewAI has no stable trace format; this reads the shape its agents record.

    Example:
        >>> from_crewai({"tools_results": [
        ...     {"tool_name": "search", "tool_args": '{"q": "crew"}', "result": "..."}]})
        [{'tool': 'search', 'args': {'q': 'crew'}}]
    """
    return _read(result, "from_crewai")


def _span_like(item: Any) -> bool:
    if isinstance(item, Mapping):
        return "attributes" in item or "resourceSpans" in item
    return hasattr(item, "attributes")


def from_otel(spans: Any) -> list[dict[str, Any]]:
    """Tool calls recorded as OpenTelemetry GenAI spans (``execute_tool``, MCP ``tools/call``).

    Args:
        spans: an OTLP/JSON export (``{"resourceSpans": [...]}``), a list of exports, a list
            of span dicts, or OpenTelemetry SDK span objects (``InMemorySpanExporter``).

    Returns:
        One dict per tool span in start-time order: ``tool``, ``args``, ``result``,
        ``is_error``, ``error``, ``duration`` (seconds) and ``id``. Spans that are not tool
        executions are skipped.

    Raises:
        TypeError: ``spans`` holds something that is not a span or an export.
        ValueError: ``spans`` is nested too deeply to read.

    Example:
        >>> span = {"name": "execute_tool search", "attributes": [
        ...     {"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}},
        ...     {"key": "gen_ai.tool.name", "value": {"stringValue": "search"}},
        ...     {"key": "gen_ai.tool.call.arguments", "value": {"stringValue": '{"q": "x"}'}}]}
        >>> [(c["tool"], c["args"], c["is_error"]) for c in from_otel([span])]
        [('search', {'q': 'x'}, False)]
    """
    items = spans if isinstance(spans, (list, tuple)) else [spans]
    for n, item in enumerate(items):
        if not _span_like(item):
            raise TypeError(
                f"from_otel() reads OpenTelemetry spans: item {n} is a {type(item).__name__} "
                "with no 'attributes'; pass an OTLP/JSON export ({'resourceSpans': [...]}), "
                "span dicts or SDK span objects"
            )
    try:
        return otel_calls(spans)
    except RecursionError:
        raise _too_deep("from_otel", spans) from None
