"""Trace files: read JSON or JSON Lines and turn any supported shape into a call list.

Formats (``format=``): ``openai``, ``anthropic``, ``gemini``, ``langchain`` (provider
responses or message lists, read by :mod:`toolscore.integrations`), ``mcp`` (JSON-RPC
``tools/call`` requests, one per line or a list), ``custom`` (a plain list of
``{"tool": name, "args": {...}}``), or ``auto`` (the default: detect).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

TRACE_FORMATS = ("auto", "openai", "anthropic", "gemini", "langchain", "mcp", "custom")

# format name -> the toolscore.integrations function that reads it
_EXTRACTORS = {
    "auto": "auto_extract",
    "openai": "from_openai",
    "anthropic": "from_anthropic",
    "gemini": "from_gemini",
    "langchain": "from_langgraph",
}


class TraceFileError(ValueError):
    """A gold or trace file cannot be used; the message names the file and the problem."""


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """Parse a JSON file, or a JSON Lines file (then a list of its documents).

    Raises:
        TraceFileError: missing, unreadable, empty or not JSON (the message names the file).
    """
    name = os.fspath(path)
    p = Path(path)
    if not p.exists():
        raise TraceFileError(f"{name}: no such file")
    if p.is_dir():
        raise TraceFileError(f"{name}: is a folder, not a JSON file")
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise TraceFileError(f"{name}: not a text file (expected UTF-8 JSON)") from None
    except OSError as exc:
        raise TraceFileError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    if not text.strip():
        raise TraceFileError(f"{name}: the file is empty (expected JSON)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as whole:
        if whole.msg != "Extra data":
            raise TraceFileError(
                f"{name}: not valid JSON ({whole.msg} at line {whole.lineno}, column {whole.colno})"
            ) from None
    # "Extra data": one document parsed and more follow, so read it as JSON Lines.
    docs = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            docs.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise TraceFileError(
                f"{name}: line {n} is not valid JSON ({exc.msg} at column {exc.colno}); "
                "a JSON Lines file holds one JSON document per line"
            ) from None
    return docs


def _is_jsonrpc(item: Any) -> bool:
    return isinstance(item, dict) and "jsonrpc" in item


def _flatten(data: Any) -> list[Any]:
    items = data if isinstance(data, list) else [data]
    out: list[Any] = []
    for item in items:
        # A JSON-RPC batch is itself a list of messages.
        out.extend(item if isinstance(item, list) else [item])
    return out


def _mcp_calls(data: Any, name: str) -> list[dict[str, Any]]:
    messages = _flatten(data)
    failed_ids: set[Any] = set()
    for msg in messages:
        if _is_jsonrpc(msg) and "method" not in msg and "id" in msg:
            result = msg.get("result")
            if "error" in msg or (isinstance(result, dict) and result.get("isError") is True):
                failed_ids.add(json.dumps(msg["id"]))
    calls: list[dict[str, Any]] = []
    for i, msg in enumerate(messages):
        if not _is_jsonrpc(msg):
            raise TraceFileError(
                f"{name}: message {i} is not a JSON-RPC message (no 'jsonrpc' key); "
                "an MCP trace holds tools/call requests"
            )
        if msg.get("method") != "tools/call":
            continue  # responses, notifications, tools/list...
        params = msg.get("params")
        tool = params.get("name") if isinstance(params, dict) else None
        if not isinstance(tool, str) or not tool:
            raise TraceFileError(f"{name}: message {i}: tools/call without params.name")
        args = params.get("arguments")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise TraceFileError(
                f"{name}: message {i} ({tool}): params.arguments must be an object, got {args!r}"
            )
        call: dict[str, Any] = {"tool": tool, "args": args}
        if "id" in msg and json.dumps(msg["id"]) in failed_ids:
            call["metadata"] = {"is_error": True}
        calls.append(call)
    return calls


def _unwrap_calls(data: Any) -> Any:
    """A custom trace may hold its list under ``"calls"``."""
    if isinstance(data, dict) and isinstance(data.get("calls"), list):
        return data["calls"]
    return data


def _is_custom(data: Any) -> bool:
    data = _unwrap_calls(data)
    return isinstance(data, list) and all(
        isinstance(item, dict) and isinstance(item.get("tool"), str) for item in data
    )


def _custom_calls(data: Any, name: str) -> list[dict[str, Any]]:
    data = _unwrap_calls(data)
    if not isinstance(data, list):
        raise TraceFileError(
            f'{name}: a custom trace is a list of {{"tool": ..., "args": {{...}}}}, '
            f"got {type(data).__name__}"
        )
    calls: list[dict[str, Any]] = []
    for i, item in enumerate(data):
        if not isinstance(item, dict) or not isinstance(item.get("tool"), str) or not item["tool"]:
            raise TraceFileError(f'{name}: item {i} needs a "tool" name, got {item!r}'[:300])
        args = item.get("args")
        if args is not None and not isinstance(args, dict):
            raise TraceFileError(f"{name}: item {i} ({item['tool']}): args must be an object")
        calls.append(item)
    return calls


def _unwrap_langchain(data: Any) -> Any:
    """LangChain's ``messages_to_dict`` form ``{"type": "ai", "data": {...}}`` -> plain dumps."""
    if isinstance(data, dict):
        inner = data.get("data")
        if isinstance(data.get("type"), str) and isinstance(inner, dict) and len(data) == 2:
            return {**inner, "type": data["type"]}
        if isinstance(data.get("messages"), list):
            return {**data, "messages": _unwrap_langchain(data["messages"])}
        return data
    if isinstance(data, list):
        return [_unwrap_langchain(item) for item in data]
    return data


def _provider_calls(data: Any, fmt: str, name: str) -> list[dict[str, Any]]:
    from toolscore import integrations

    func: Callable[[Any], list[dict[str, Any]]] = getattr(integrations, _EXTRACTORS[fmt])
    if fmt in ("auto", "langchain"):
        data = _unwrap_langchain(data)
    try:
        calls = func(data)
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        what = "a supported trace shape" if fmt == "auto" else f"a {fmt} trace"
        detail = " ".join(str(exc).split())[:200]
        raise TraceFileError(f"{name}: not {what} ({detail})") from None
    return [dict(c) for c in calls]


def detect_format(data: Any) -> str:
    """Guess the format of a parsed trace: ``mcp``, ``custom``, or ``auto`` (provider).

    Example:
        >>> detect_format([{"tool": "search", "args": {}}])
        'custom'
    """
    items = _flatten(data)
    if items and all(_is_jsonrpc(item) for item in items):
        return "mcp"
    if _is_custom(data):
        return "custom"
    return "auto"


def trace_calls(data: Any, fmt: str, name: str) -> list[dict[str, Any]]:
    """The calls in a parsed trace of format ``fmt`` (``auto`` detects it).

    Raises:
        TraceFileError: the content does not have the shape of that format.
    """
    if fmt == "auto":
        fmt = detect_format(data)
    if fmt == "mcp":
        return _mcp_calls(data, name)
    if fmt == "custom":
        return _custom_calls(data, name)
    return _provider_calls(data, fmt, name)
