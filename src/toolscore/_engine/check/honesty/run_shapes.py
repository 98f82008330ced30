"""One message, block or item of every shape a run comes in, reported to a walker.

The walker (``run._Walker``) is told of texts (``text(role, content)``), calls
(``call(tool, args, id)``) and tool results (``result(id, tool, content, is_error)``); this
module only knows where each provider keeps them (the calls of a chat message as
:mod:`~toolscore._engine.read.messages` reads them), and reports them in their order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from toolscore._engine.read.messages import ROLES, chat_calls, plain_items, responses_call
from toolscore._engine.read.shapes import plain

__all__ = ["Walker", "block_text", "content_text", "read_item"]

_LANGCHAIN = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}
_TOOL_USE = ("tool_use", "server_tool_use", "mcp_tool_use")
_TOOL_RESULT = ("tool_result", "server_tool_result", "mcp_tool_result")
_SKIPPED = ("reasoning", "item_reference", "compaction", "thinking")
_TEXTS = (None, "text", "output_text", "input_text")  # types of text blocks


class Walker(Protocol):
    """What a shape reader reports to."""

    def walk_object(self, obj: Any) -> bool: ...
    def text(self, role: str, value: Any) -> None: ...
    def call(self, tool: Any, args: Any, call_id: Any = None) -> None: ...
    def result(self, call_id: Any, tool: Any, content: Any, is_error: bool = False) -> None: ...


def block_text(block: Any) -> str | None:
    """The text of a text block (``{"type": "text", "text": ...}``), else None."""
    b = plain(block)
    if isinstance(b, Mapping) and isinstance(b.get("text"), str) and b.get("type") in _TEXTS:
        return str(b["text"])
    return None


def content_text(value: Any) -> str:
    """The text of a message's content: a string, or the text blocks/parts of a list."""
    value = plain(value)
    if isinstance(value, str):
        return value.strip()
    if not isinstance(value, (list, tuple)):
        return ""
    texts = [b if isinstance(b, str) else block_text(b) for b in map(plain, value)]
    return "\n".join(t.strip() for t in texts if t and t.strip())


def read_item(walker: Walker, d: Mapping[str, Any]) -> bool:
    """Report what ``d`` holds; False when it is of no known shape."""
    kind = d.get("type")
    if isinstance(kind, str) and isinstance(d.get("data"), Mapping) and "content" not in d:
        inner = dict(d["data"])
        inner.setdefault("type", kind)
        return read_item(walker, inner)  # LangChain's messages_to_dict form
    for reader in (_container, _responses_item, _agents_item, _pydantic_ai, _message):
        done = reader(walker, d)
        if done is not None:
            return done
    return False


def _container(walker: Walker, d: Mapping[str, Any]) -> bool | None:
    """Responses, states and results that hold messages or items."""
    if "choices" in d:  # OpenAI chat completion
        for c in plain_items(d, "choices"):
            if isinstance(c, Mapping):
                walker.walk_object(c.get("message") or c.get("delta") or {})
        return True
    if "candidates" in d:  # Gemini response
        for c in plain_items(d, "candidates"):
            if isinstance(c, Mapping) and c.get("content") is not None:
                walker.walk_object(c["content"])
        return True
    if isinstance(d.get("new_items"), (list, tuple)):  # OpenAI Agents SDK RunResult
        for item in d["new_items"]:
            walker.walk_object(item)
        if isinstance(d.get("final_output"), str):
            walker.text("assistant", d["final_output"])
        return True
    if "role" not in d and isinstance(d.get("messages"), (list, tuple)):  # LangGraph state
        for item in d["messages"]:
            walker.walk_object(item)
        return True
    if "role" not in d and isinstance(d.get("output"), list):  # Responses API response
        for item in d["output"]:
            walker.walk_object(item)
        return True
    return None


def _responses_item(walker: Walker, d: Mapping[str, Any]) -> bool | None:
    kind = d.get("type")
    if kind in _SKIPPED:
        return True
    if kind in ("function_call", "custom_tool_call", "mcp_call") and "name" in d:
        name, raw, call_id = responses_call(d)
        walker.call(name, raw, call_id)
        if kind == "mcp_call" and (d.get("output") is not None or d.get("error")):
            walker.result(call_id, name, d.get("error") or d.get("output"), bool(d.get("error")))
        return True
    if kind in ("function_call_output", "custom_tool_call_output", "mcp_call_output"):
        walker.result(
            d.get("call_id") or d.get("id"), None, d.get("output"), d.get("status") == "failed"
        )
        return True
    return None


def _agents_item(walker: Walker, d: Mapping[str, Any]) -> bool | None:
    """OpenAI Agents SDK run items (``tool_call_item``, ``tool_call_output_item``, ...)."""
    kind = d.get("type") or ""
    if not (isinstance(kind, str) and kind.endswith("_item") and "raw_item" in d):
        return None
    raw = plain(d.get("raw_item"))
    if kind == "tool_call_output_item":
        raw_map = raw if isinstance(raw, Mapping) else {}
        output = d.get("output") if d.get("output") is not None else raw_map.get("output")
        walker.result(raw_map.get("call_id") or raw_map.get("id"), None, output)
        return True
    if kind in ("tool_call_item", "message_output_item") and raw is not None:
        walker.walk_object(raw)
    return True


def _pydantic_ai(walker: Walker, d: Mapping[str, Any]) -> bool | None:
    kind = d.get("part_kind")
    if kind is None:
        if d.get("kind") in ("request", "response") and isinstance(d.get("parts"), (list, tuple)):
            for part in d["parts"]:
                walker.walk_object(part)
            return True
        return None
    if kind in ("user-prompt", "system-prompt"):
        walker.text("user", d.get("content"))
    elif kind == "text":
        walker.text("assistant", d.get("content"))
    elif kind == "tool-call":
        walker.call(d.get("tool_name"), d.get("args"), d.get("tool_call_id"))
    elif kind in ("tool-return", "retry-prompt"):
        walker.result(
            d.get("tool_call_id"), d.get("tool_name"), d.get("content"), kind == "retry-prompt"
        )
    return True


def _role(d: Mapping[str, Any]) -> str | None:
    role = d.get("role")
    if isinstance(role, str) and role in ROLES:
        return ROLES[role]
    kind = d.get("type")
    if isinstance(kind, str) and kind in _LANGCHAIN and ("content" in d or "tool_calls" in d):
        return _LANGCHAIN[kind]
    if isinstance(kind, str) and kind.endswith("MessageChunk"):
        return _LANGCHAIN.get(kind[: -len("MessageChunk")].lower())
    return "assistant" if kind == "message" and "content" in d else None


def _message(walker: Walker, d: Mapping[str, Any]) -> bool | None:
    role = _role(d)
    if role is None:
        return None
    if role == "tool":
        walker.result(
            d.get("tool_call_id") or d.get("id"),
            d.get("name"),
            d.get("content"),
            d.get("status") == "error" or d.get("is_error") is True,
        )
        return True
    walker.text(role, d.get("content"))
    for b in plain_items(d, "content"):
        if isinstance(b, Mapping) and b.get("type") in _TOOL_USE:
            walker.call(b.get("name"), b.get("input"), b.get("id"))
        elif isinstance(b, Mapping) and b.get("type") in _TOOL_RESULT:
            walker.result(b.get("tool_use_id"), None, b.get("content"), b.get("is_error") is True)
    for p in plain_items(d, "parts"):  # Gemini
        if not isinstance(p, Mapping):
            continue
        if isinstance(p.get("text"), str):
            walker.text(role, p["text"])
        fc = plain(p.get("function_call") or p.get("functionCall"))
        if isinstance(fc, Mapping):
            walker.call(fc.get("name"), fc.get("args"), fc.get("id"))
        fr = plain(p.get("function_response") or p.get("functionResponse"))
        if isinstance(fr, Mapping):
            response = plain(fr.get("response"))
            if isinstance(response, Mapping) and set(response) <= {"result", "output", "content"}:
                response = next(iter(response.values()), None) if response else None
            walker.result(fr.get("id"), fr.get("name"), response)
    if role == "assistant":
        for name, raw, call_id in chat_calls(d):
            walker.call(name, raw, call_id)
    return True
