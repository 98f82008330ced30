"""Read a message history into steps: who spoke (user, assistant, tool, system) and the calls made.

One reader for the histories ``match_trajectory`` and ``evaluate_conversation`` take:

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

__all__ = ["ROLES", "Step", "looks_like_messages", "message_list", "read_messages"]

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
_LANGCHAIN_TYPES = {
    "human": "user",
    "ai": "assistant",
    "tool": "tool",
    "system": "system",
    "function": "tool",
    "HumanMessageChunk": "user",
    "AIMessageChunk": "assistant",
    "ToolMessageChunk": "tool",
    "SystemMessageChunk": "system",
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
        if isinstance(messages, (list, tuple)):
            return list(messages)
        return None
    if isinstance(value, (list, tuple)) and value and looks_like_messages(value[0]):
        return list(value)
    return None


def looks_like_messages(item: Any) -> bool:
    """Whether ``item`` reads as one message of a history (not a call dict, not a response)."""
    d = plain(item)
    if not isinstance(d, Mapping) or "tool" in d:
        return False
    return _kind(d) is not None


def _kind(d: Mapping[str, Any]) -> str | None:
    """``"role:<role>"``, ``"item:<type>"`` or ``"lc:<role>"``; ``None`` for no known message."""
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
    """Read every message into a :class:`Step` (consecutive Responses calls merged into one).

    Raises:
        ValueError: an item is not a message of a known shape (the message names it, its
            position and the shapes read).
    """
    steps: list[Step] = []
    for n, item in enumerate(messages):
        d = plain(item)
        kind = _kind(d) if isinstance(d, Mapping) and "tool" not in d else None
        if kind is None:
            raise ValueError(
                f"{where}[{n}] is not a message of a known shape: got {type(item).__name__} "
                f"{shorten(repr(item), 100)}; a message history is a list of {_SHAPES}"
            )
        assert isinstance(d, Mapping)
        source, name = kind.split(":", 1)
        if source == "item":
            if name in _RESPONSES_SKIPPED:
                continue
            if name in _RESPONSES_OUTPUTS:
                steps.append(Step("tool", [], n))
                continue
            call = _responses_call(d, name)
            if steps and steps[-1].role == "assistant" and steps[-1].index < 0:
                steps[-1].calls.append(call)  # another call of the same assistant step
            else:
                steps.append(Step("assistant", [call], -1 - n))
            continue
        if source == "lc" and isinstance(d.get("data"), Mapping) and "content" not in d:
            d = d["data"]  # LangChain's messages_to_dict form
        steps.append(_message_step(d, name, n))
    for step in steps:
        if step.index < 0:
            step.index = -1 - step.index
    return steps


def _responses_call(d: Mapping[str, Any], kind: str) -> dict[str, Any]:
    tool = str(d.get("name") or "")
    if kind == "custom_tool_call":
        return {"tool": tool, "args": {"input": d.get("input")}}
    return {"tool": tool, "args": read_arguments(d.get("arguments"), tool)}


def _message_step(d: Mapping[str, Any], role: str, n: int) -> Step:
    content = d.get("content")
    blocks = [plain(b) for b in content] if isinstance(content, (list, tuple)) else []
    parts = d.get("parts")
    part_list = [plain(p) for p in parts] if isinstance(parts, (list, tuple)) else []
    if role == "user" and (
        any(isinstance(b, Mapping) and b.get("type") in _TOOL_RESULT for b in blocks)
        or any(
            isinstance(p, Mapping)
            and first_set(p, "function_response", "functionResponse") is not None
            for p in part_list
        )
    ):
        return Step("tool", [], n)  # Anthropic tool results, Gemini function responses
    if role != "assistant":
        return Step(role, [], n)
    calls = _chat_calls(d)
    for block in blocks:
        if isinstance(block, Mapping) and block.get("type") in _TOOL_USE:
            tool = str(block.get("name") or "")
            calls.append({"tool": tool, "args": read_arguments(block.get("input"), tool)})
    for part in part_list:
        fc = (
            plain(first_set(part, "function_call", "functionCall"))
            if isinstance(part, Mapping)
            else None
        )
        if isinstance(fc, Mapping):
            tool = str(fc.get("name") or "")
            calls.append({"tool": tool, "args": read_arguments(fc.get("args"), tool)})
    return Step("assistant", calls, n)


def _chat_calls(d: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Calls of an OpenAI chat or LangChain assistant message (``tool_calls`` and the legacy
    ``function_call``; LangChain's ``invalid_tool_calls`` too, never dropped)."""
    items: list[Any] = []
    for key in ("tool_calls", "invalid_tool_calls"):
        value = d.get(key)
        if isinstance(value, (list, tuple)):
            items.extend(value)
    calls: list[dict[str, Any]] = []
    for item in items:
        tc = plain(item)
        if not isinstance(tc, Mapping):
            continue
        fn = plain(tc.get("function"))
        if isinstance(fn, Mapping):
            tool = str(fn.get("name") or "")
            calls.append({"tool": tool, "args": read_arguments(fn.get("arguments"), tool)})
        else:
            tool = str(tc.get("name") or "")
            raw = tc.get("args") if tc.get("args") is not None else tc.get("arguments")
            calls.append({"tool": tool, "args": read_arguments(raw, tool)})
    legacy = plain(d.get("function_call"))
    if not calls and isinstance(legacy, Mapping) and legacy.get("name"):
        tool = str(legacy["name"])
        calls.append({"tool": tool, "args": read_arguments(legacy.get("arguments"), tool)})
    return calls
