"""Answer the tool calls of a provider response with that provider's tool-result messages.

Each call keeps its id, so the provider pairs every result with its call: Chat Completions
``tool`` messages (``tool_call_id``), Responses ``function_call_output`` items (``call_id``),
an Anthropic ``user`` message of ``tool_result`` blocks (``tool_use_id``, ``is_error``), a
Gemini ``user`` content of ``function_response`` parts, LangChain ``tool`` messages (with
``status="error"`` on failure), a Pydantic AI request of ``tool-return`` / ``retry-prompt``
parts, and ``{"tool", "args", "result"}`` dicts for plain call lists.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from toolscore._engine.read.shapes import plain, read_arguments

__all__ = ["answer", "result_text"]


class _Answering(Protocol):
    """What ``answer()`` needs of the fakes (``FakeTools``; no import of it: no circle)."""

    def outcome(self, tool: str, args: Any, call_id: str | None = None) -> tuple[bool, Any]: ...


@dataclass
class _Pending:
    kind: str
    call_id: str | None
    name: str
    args: dict[str, Any]


def result_text(value: Any) -> str:
    """A tool's result as the text a provider message carries (JSON unless a string)."""
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str, ensure_ascii=False)


def _one(d: Mapping[str, Any]) -> _Pending | None:
    """One tool call in one of the shapes toolscore reads, or None when ``d`` is not one."""
    kind = d.get("type")
    fn = plain(d.get("function"))
    if isinstance(fn, Mapping) and "name" in fn:  # Chat Completions tool call
        return _Pending("openai", d.get("id"), str(fn["name"]), _args(fn.get("arguments"), fn))
    if kind == "function_call" and "name" in d:  # Responses API item
        call_id = d.get("call_id") or d.get("id")
        return _Pending("responses", call_id, str(d["name"]), _args(d.get("arguments"), d))
    if kind == "tool_use" and "name" in d:  # Anthropic block
        return _Pending("anthropic", d.get("id"), str(d["name"]), _args(d.get("input"), d))
    if kind == "tool_call" and "name" in d:  # LangChain ToolCall
        return _Pending("langchain", d.get("id"), str(d["name"]), _args(d.get("args"), d))
    if d.get("part_kind") == "tool-call":  # Pydantic AI part
        name = str(d.get("tool_name"))
        return _Pending("pydantic", d.get("tool_call_id"), name, _args(d.get("args"), d, name))
    fc = plain(d.get("function_call") or d.get("functionCall"))
    if isinstance(fc, Mapping) and "role" not in d and fc.get("name"):  # Gemini part
        return _Pending("gemini", fc.get("id"), str(fc["name"]), _args(fc.get("args"), fc))
    if isinstance(d.get("tool"), str) and d["tool"]:  # a toolscore call dict
        return _Pending("plain", d.get("id"), d["tool"], _args(d.get("args"), d, d["tool"]))
    return None


def _args(raw: Any, where: Mapping[str, Any], name: str | None = None) -> dict[str, Any]:
    tool = name or str(where.get("name") or "?")
    return read_arguments(plain(raw), tool) if raw is not None else {}


_CONTAINERS = ("choices", "candidates", "output", "tool_calls", "content", "parts", "messages")


def _walk(obj: Any, out: list[_Pending]) -> bool:
    """Collect the calls in ``obj``; False when nothing in it has a shape toolscore reads."""
    if isinstance(obj, (list, tuple)):
        return all([_walk(item, out) for item in obj if not isinstance(item, str)])
    d = plain(obj)
    if not isinstance(d, Mapping):
        return False
    found = _one(d)
    if found is not None:
        out.append(found)
        return True
    known = False
    for key in _CONTAINERS:
        value = plain(d.get(key))
        if not isinstance(value, (list, tuple)):
            continue
        known = True
        if key == "choices":
            value = [plain(choice).get("message") or {} for choice in value]
        elif key == "candidates":
            value = [plain(plain(candidate).get("content")) or {} for candidate in value]
        _walk(value, out)
    return known or any(k in d for k in ("role", "type", "kind", "part_kind", "text"))


def _openai(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    content = f"Error: {value}" if failed else result_text(value)
    return {"role": "tool", "tool_call_id": p.call_id, "content": content}


def _langchain(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    message = _openai(p, failed, value)
    message["name"] = p.name
    if failed:
        message["status"] = "error"
    return message


def _responses(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    output = f"Error: {value}" if failed else result_text(value)
    return {"type": "function_call_output", "call_id": p.call_id, "output": output}


def _anthropic(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": p.call_id}
    block["content"] = str(value) if failed else result_text(value)
    if failed:
        block["is_error"] = True
    return block


def _gemini(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    response = {"error": value} if failed else {"result": value}
    part: dict[str, Any] = {"name": p.name, "response": response}
    if p.call_id:
        part["id"] = p.call_id
    return {"function_response": part}


def _pydantic(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    kind = "retry-prompt" if failed else "tool-return"
    return {"part_kind": kind, "tool_name": p.name, "content": value, "tool_call_id": p.call_id}


def _plain(p: _Pending, failed: bool, value: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"tool": p.name, "args": p.args}
    if failed:
        out.update(is_error=True, error=value)
    else:
        out["result"] = value
    if p.call_id is not None:
        out["id"] = p.call_id
    return out


# Each shape's result builder; where results share one message, its list field and head.
_SHAPES: dict[str, tuple[Callable[[_Pending, bool, Any], dict[str, Any]], str, dict[str, Any]]] = {
    "openai": (_openai, "", {}),
    "langchain": (_langchain, "", {}),
    "responses": (_responses, "", {}),
    "plain": (_plain, "", {}),
    "anthropic": (_anthropic, "content", {"role": "user"}),
    "gemini": (_gemini, "parts", {"role": "user"}),
    "pydantic": (_pydantic, "parts", {"kind": "request"}),
}


def answer(fakes: _Answering, tool_calls: Any) -> list[dict[str, Any]]:
    """Call the fakes for every tool call in ``tool_calls`` and return the result messages."""
    pending: list[_Pending] = []
    if not _walk(tool_calls, pending):
        raise TypeError(
            f"answer() cannot read tool calls from a {type(tool_calls).__name__}: pass a "
            "provider response, a message, or a list of tool calls (OpenAI, Anthropic, Gemini, "
            "LangChain, Pydantic AI, or {'tool': name, 'args': {...}} dicts)"
        )
    out: list[dict[str, Any]] = []
    groups: dict[str, dict[str, Any]] = {}
    for p in pending:
        failed, value = fakes.outcome(p.name, p.args, None if p.call_id is None else str(p.call_id))
        build, field, head = _SHAPES[p.kind]
        if not field:  # one message per result
            out.append(build(p, failed, value))
            continue
        if p.kind not in groups:
            groups[p.kind] = {**head, field: []}
            out.append(groups[p.kind])
        groups[p.kind][field].append(build(p, failed, value))
    return out
