"""Read a message history into steps: who spoke (user, assistant, tool, system) and the calls made.

One reader for the histories ``match_trajectory`` and ``evaluate_conversation`` take (and,
through :func:`chat_calls`, for the calls ``check_honesty`` reads of each chat message):

* OpenAI Chat Completions messages (``role``; assistant ``tool_calls`` / ``function_call``;
  ``tool`` and ``function`` messages);
* OpenAI Responses API input and output items (``message`` items or bare ``{"role": ...}``
  inputs, ``function_call`` / ``function_call_output``; consecutive ``function_call`` items
  are one assistant step, as the calls of one Chat Completions message are);
* Anthropic Messages (``tool_use`` blocks in assistant content; a ``user`` message holding
  ``tool_result`` blocks is a tool step, not a new user turn);
* Gemini ``contents`` (role ``model``; ``function_call`` parts; a ``user`` content of
  ``function_response`` parts is a tool step);
* LangChain messages (``HumanMessage``, ``AIMessage`` with ``tool_calls``, ``ToolMessage``,
  ``SystemMessage``, their ``messages_to_dict`` form) and ``{"messages": [...]}`` states.

SDK objects and plain dicts are read alike (:func:`~toolscore._engine.read.shapes.plain`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekit.format import shorten
from toolscore._engine.read.shapes import first_set, plain, read_arguments

__all__ = [
    "ROLES",
    "Step",
    "chat_calls",
    "message_list",
    "plain_items",
    "read_messages",
    "responses_call",
]

# The roles of every provider, mapped to the four we read.
ROLES = {
    "system": "system",
    "developer": "system",
    "user": "user",
    "human": "user",
    "assistant": "assistant",
    "ai": "assistant",
    "model": "assistant",
    "tool": "tool",
    "function": "tool",
}
# LangChain message types (BaseMessage.type) and their chunk classes.
_LANGCHAIN_TYPES = {t: ROLES[t] for t in ("human", "ai", "tool", "system", "function")} | {
    f"{name}MessageChunk": ROLES[name.lower()] for name in ("Human", "AI", "Tool", "System")
}
_TOOL_USE = ("tool_use", "server_tool_use", "mcp_tool_use")
_TOOL_RESULT = ("tool_result", "server_tool_result", "mcp_tool_result", "web_search_tool_result")
# Responses API items that are a call by the assistant, and those that carry a tool's output.
_RESPONSES_CALLS = ("function_call", "custom_tool_call", "mcp_call")
_RESPONSES_OUTPUTS = ("function_call_output", "custom_tool_call_output", "mcp_call_output")
_RESPONSES_SKIPPED = ("reasoning", "item_reference", "compaction")

_SHAPES = (
    "OpenAI chat messages ({'role': ..., 'tool_calls': [...]}), OpenAI Responses items, "
    "Anthropic messages (tool_use / tool_result blocks), Gemini contents (role / parts) or "
    "LangChain messages"
)


@dataclass
class Step:
    """One message of a history: its normalised role and the tool calls it makes."""

    role: str  # "user", "assistant", "tool" or "system"
    calls: list[dict[str, Any]] = field(default_factory=list)
    index: int = 0  # position of the (first) message in the input


def message_list(value: Any) -> list[Any] | None:
    """The messages of ``value`` when it is a message history (a list, or ``{"messages": [...]}``
    as LangGraph and ``agentevals`` take it), else ``None``."""
    if isinstance(value, Mapping) and set(value) == {"messages"}:
        messages = value["messages"]
        return list(messages) if isinstance(messages, (list, tuple)) else None
    if isinstance(value, (list, tuple)) and value and _kind(plain(value[0])) is not None:
        return list(value)
    return None


def _kind(d: Any) -> str | None:
    """``"role:<role>"``, ``"item:<type>"`` or ``"lc:<role>"``; ``None`` for no known message."""
    if not isinstance(d, Mapping) or "tool" in d:
        return None
    role = d.get("role")
    if isinstance(role, str) and role in ROLES:
        return f"role:{ROLES[role]}"
    kind = d.get("type")
    if isinstance(kind, str):
        if kind in _LANGCHAIN_TYPES and ("content" in d or "data" in d):
            return f"lc:{_LANGCHAIN_TYPES[kind]}"
        if kind in _RESPONSES_CALLS or kind in _RESPONSES_OUTPUTS or kind in _RESPONSES_SKIPPED:
            return f"item:{kind}"
    return None


def read_messages(messages: list[Any], where: str) -> list[Step]:
    """Read every message into a :class:`Step` (consecutive Responses calls merged into one);
    a ValueError names an item of no known shape, its position and the shapes read."""
    steps: list[Step] = []
    joined: Step | None = None  # the assistant step of the Responses calls just read
    for n, item in enumerate(messages):
        d = plain(item)
        kind = _kind(d)
        if kind is None:
            raise ValueError(
                f"{where}[{n}] is not a message of a known shape: got {type(item).__name__} "
                f"{shorten(repr(item), 100)}; a message history is a list of {_SHAPES}"
            )
        assert isinstance(d, Mapping)
        source, name = kind.split(":", 1)
        if source == "item" and name in _RESPONSES_SKIPPED:
            continue
        if source == "item" and name in _RESPONSES_CALLS:
            if joined is None:
                joined = Step("assistant", [], n)
                steps.append(joined)
            tool, raw, _ = responses_call(d)
            joined.calls.append(_call(tool, raw))
            continue
        joined = None
        if source == "item":
            steps.append(Step("tool", [], n))  # a call's output
            continue
        if source == "lc" and isinstance(d.get("data"), Mapping) and "content" not in d:
            d = d["data"]  # LangChain's messages_to_dict form
        steps.append(_message_step(d, name, n))
    return steps


def responses_call(d: Mapping[str, Any]) -> tuple[Any, Any, Any]:
    """``(name, raw arguments, call id)`` of a Responses API call item."""
    raw = {"input": d.get("input")} if d.get("type") == "custom_tool_call" else d.get("arguments")
    return d.get("name"), raw, d.get("call_id") or d.get("id")


def _call(name: Any, raw: Any) -> dict[str, Any]:
    tool = str(name or "")
    return {"tool": tool, "args": read_arguments(raw, tool)}


def _message_step(d: Mapping[str, Any], role: str, n: int) -> Step:
    if role == "user" and (
        any(
            isinstance(b, Mapping) and b.get("type") in _TOOL_RESULT
            for b in plain_items(d, "content")
        )
        or any(
            isinstance(p, Mapping)
            and first_set(p, "function_response", "functionResponse") is not None
            for p in plain_items(d, "parts")
        )
    ):
        return Step("tool", [], n)  # Anthropic tool results, Gemini function responses
    if role != "assistant":
        return Step(role, [], n)
    return Step("assistant", [_call(name, raw) for name, raw, _ in _message_calls(d)], n)


def _message_calls(d: Mapping[str, Any]) -> list[tuple[Any, Any, Any]]:
    """:func:`chat_calls`, then Anthropic ``tool_use`` blocks and Gemini ``function_call`` parts."""
    calls = chat_calls(d)
    for b in plain_items(d, "content"):
        if isinstance(b, Mapping) and b.get("type") in _TOOL_USE:
            calls.append((b.get("name"), b.get("input"), b.get("id")))
    for p in plain_items(d, "parts"):
        fc = (
            plain(first_set(p, "function_call", "functionCall")) if isinstance(p, Mapping) else None
        )
        if isinstance(fc, Mapping):
            calls.append((fc.get("name"), fc.get("args"), fc.get("id")))
    return calls


def chat_calls(d: Mapping[str, Any]) -> list[tuple[Any, Any, Any]]:
    """``(name, raw arguments, call id)`` of each call of an OpenAI chat or LangChain message:
    ``tool_calls`` (``invalid_tool_calls`` too, never dropped), else the legacy
    ``function_call``."""
    calls: list[tuple[Any, Any, Any]] = []
    for tc in plain_items(d, "tool_calls") + plain_items(d, "invalid_tool_calls"):
        if not isinstance(tc, Mapping):
            continue
        fn = plain(tc.get("function"))
        if isinstance(fn, Mapping):
            calls.append((fn.get("name"), fn.get("arguments"), tc.get("id")))
        else:
            raw = tc.get("args") if tc.get("args") is not None else tc.get("arguments")
            calls.append((tc.get("name"), raw, tc.get("id")))
    legacy = plain(d.get("function_call"))
    if not calls and isinstance(legacy, Mapping) and legacy.get("name"):
        calls.append((legacy["name"], legacy.get("arguments"), None))
    return calls


def plain_items(d: Mapping[str, Any], key: str) -> list[Any]:
    """``d[key]`` (content blocks, Gemini parts, tool calls) as plain values; ``[]`` when it
    is no list."""
    value = d.get(key)
    return [plain(v) for v in value] if isinstance(value, (list, tuple)) else []
