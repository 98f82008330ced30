"""Trace files: read JSON or JSON Lines and turn any supported shape into a call list.

Formats (``format=``): ``openai``, ``anthropic``, ``gemini``, ``langchain``, ``crewai``
(provider responses or message lists, read by :mod:`toolscore.integrations`), ``otel``
(OpenTelemetry GenAI tool spans: an OTLP/JSON export or a span list), ``mcp`` (JSON-RPC
``tools/call`` requests with their responses, one per line, a list, or a recorded session
``{"messages": [...]}``), ``custom`` (a plain list of ``{"tool": name, "args": {...}}``), or
``auto`` (the default: detect).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any

from scorekit.files import read_text_file
from scorekit.format import shorten
from toolscore._engine.read import providers
from toolscore._engine.read.otel import looks_like_otel
from toolscore._engine.read.shapes import read_arguments

TRACE_FORMATS = (
    "auto",
    "openai",
    "anthropic",
    "gemini",
    "langchain",
    "mcp",
    "otel",
    "crewai",
    "custom",
)

# format name -> the toolscore.integrations function that reads it
_EXTRACTORS: dict[str, Callable[[Any], list[dict[str, Any]]]] = {
    "auto": providers.auto_extract,
    "openai": providers.from_openai,
    "anthropic": providers.from_anthropic,
    "gemini": providers.from_gemini,
    "langchain": providers.from_langgraph,
    "crewai": providers.from_crewai,
    "otel": providers.from_otel,
}


class TraceFileError(ValueError):
    """A gold or trace file cannot be used; the message names the file and the problem."""


class TraceFileNotFoundError(TraceFileError, FileNotFoundError):
    """A gold or trace file does not exist (also a ``FileNotFoundError``, as in Toolscore)."""


def check_format(format: str) -> str:
    """``format`` itself when it is one of ``TRACE_FORMATS``.

    Raises:
        ValueError: ``Unsupported format: ...`` naming the formats there are.
    """
    if format not in TRACE_FORMATS:
        raise ValueError(
            f"Unsupported format: {format!r}; use one of {', '.join(TRACE_FORMATS)} "
            "('auto' detects it)"
        )
    return format


def read_json_file(path: str | os.PathLike[str]) -> Any:
    """Parse a JSON file, or a JSON Lines file (then a list of its documents).

    Raises:
        TraceFileError: missing, unreadable, empty, not JSON, or nested too deeply to read
            (past Python's recursion limit); the message names the file.
    """
    name = os.fspath(path)
    text = read_text_file(
        path,
        kind="JSON",
        error=TraceFileError,
        missing_error=TraceFileNotFoundError,
        encoding="utf-8-sig",
    )
    if not text.strip():
        raise TraceFileError(f"{name}: the file is empty (expected JSON)")
    try:
        return json.loads(text)
    except RecursionError:
        raise nested_too_deeply(name) from None
    except json.JSONDecodeError as whole:
        if whole.msg != "Extra data":
            raise TraceFileError(
                f"{name}: not valid JSON ({whole.msg} at line {whole.lineno}, column {whole.colno})"
            ) from None
    # "Extra data": one document parsed and more follow, so read it as JSON Lines.
    docs = []
    # Lines end at "\n" only: str.splitlines() also breaks at U+2028, U+0085 and the like,
    # which JSON strings may hold unescaped (the MCP recorder writes them so).
    for n, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            docs.append(json.loads(line))
        except RecursionError:
            raise nested_too_deeply(f"{name}: line {n}") from None
        except json.JSONDecodeError as exc:
            raise TraceFileError(
                f"{name}: line {n} is not valid JSON ({exc.msg} at column {exc.colno}); "
                "a JSON Lines file holds one JSON document per line"
            ) from None
    return docs


def nested_too_deeply(where: str, error: type[TraceFileError] = TraceFileError) -> TraceFileError:
    """The error for a file whose JSON nests past Python's recursion limit."""
    return error(
        f"{where}: the JSON is nested too deeply to read (past Python's recursion limit); "
        "a trace or gold file nests a few levels only"
    )


def _is_jsonrpc(item: Any) -> bool:
    return isinstance(item, dict) and "jsonrpc" in item


def _is_session(data: Any) -> bool:
    """A recorded MCP session: ``{"messages": [...]}`` of JSON-RPC messages."""
    if not isinstance(data, dict) or not isinstance(data.get("messages"), list):
        return False
    return data.get("format") == "mcp" or (
        bool(data["messages"]) and all(_is_jsonrpc(m) for m in data["messages"])
    )


def _flatten(data: Any) -> list[Any]:
    if _is_session(data):
        data = data["messages"]
    items = data if isinstance(data, list) else [data]
    out: list[Any] = []
    for item in items:
        # A JSON-RPC batch is itself a list of messages.
        out.extend(item if isinstance(item, list) else [item])
    return out


def _content_text(content: Any) -> str:
    """What an MCP client shows of a result's ``content`` blocks (text, resources, links)."""
    parts: list[str] = []
    for block in content if isinstance(content, list) else []:
        if not isinstance(block, dict):
            continue
        if isinstance(block.get("text"), str):
            parts.append(block["text"])
        elif isinstance(block.get("resource"), dict):
            res = block["resource"]
            parts.append(str(res.get("text") or res.get("uri") or ""))
        elif isinstance(block.get("uri"), str):
            parts.append(block["uri"])
    return "\n".join(p for p in parts if p)


def _outcome(response: dict[str, Any]) -> dict[str, Any]:
    """``result``, ``is_error``, ``error`` (and ``duration``) of one JSON-RPC response."""
    error = response.get("error")
    raw = response.get("result")
    result = raw if isinstance(raw, dict) else {}
    out: dict[str, Any] = {}
    if error is not None:
        message = error.get("message") if isinstance(error, dict) else error
        out.update(result=None, is_error=True, error=str(message or "JSON-RPC error"))
    elif result.get("isError") is True:
        text = _content_text(result.get("content"))
        out.update(result=None, is_error=True, error=text or "the tool reported an error")
    else:
        value: Any = result.get("structuredContent")
        if not value:
            text = _content_text(result.get("content"))
            value = text if text else raw
        out.update(result=value, is_error=False)
    duration = response.get("duration")
    if isinstance(duration, (int, float)) and not isinstance(duration, bool):
        out["duration"] = float(duration)
    return out


def _mcp_calls(data: Any, name: str) -> list[dict[str, Any]]:
    messages = _flatten(data)
    outcomes: dict[str, dict[str, Any]] = {}
    for msg in messages:
        if _is_jsonrpc(msg) and "method" not in msg and msg.get("id") is not None:
            outcomes[json.dumps(msg["id"])] = _outcome(msg)
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
        args = _object_args(
            params.get("arguments"), tool, f"{name}: message {i}", "params.arguments", 80
        )
        call: dict[str, Any] = {"tool": tool, "args": {} if args is None else args}
        if msg.get("id") is not None:
            call.update(outcomes.get(json.dumps(msg["id"]), {}))
        calls.append(call)
    return calls


def _unwrap_calls(data: Any) -> Any:
    """A custom trace may hold its list under ``"calls"``, a captured one under ``"tools"``
    (:class:`toolscore.TraceCapture`; a request's ``tools`` definitions have no ``"tool"``)."""
    if isinstance(data, dict):
        if isinstance(data.get("calls"), list):
            return data["calls"]
        tools = data.get("tools")
        if isinstance(tools, list) and all(isinstance(t, dict) and "tool" in t for t in tools):
            return tools
    return data


_TOOL_ALIASES = ("name", "function")  # what other loggers call the tool, as Toolscore reads
_ARGS_ALIASES = ("arguments", "input")


def _custom_calls(data: Any, name: str) -> list[dict[str, Any]]:
    data = _unwrap_calls(data)
    if isinstance(data, dict) and isinstance(data.get("tool_calls"), list):
        data = data["tool_calls"]
    if not isinstance(data, list):
        raise TraceFileError(
            f'{name}: a custom trace is a list of {{"tool": ..., "args": {{...}}}}, '
            f"got {type(data).__name__}"
        )
    calls: list[dict[str, Any]] = []
    for i, item in enumerate(data):
        if isinstance(item, dict) and "tool" not in item:
            item = _renamed(item)
        if not isinstance(item, dict) or not isinstance(item.get("tool"), str) or not item["tool"]:
            raise TraceFileError(
                f'{name}: item {i} needs a "tool" name, got {shorten(repr(item), 120)}'
            )
        args = _object_args(item.get("args"), item["tool"], f"{name}: item {i}", "args", 60)
        calls.append(item if args is item.get("args") else {**item, "args": args})
    return calls


def _object_args(args: Any, tool: str, where: str, field: str, width: int) -> dict[str, Any] | None:
    """A call's arguments: an object, JSON text of one (read), or None."""
    if isinstance(args, str):
        args = read_arguments(args, tool)
    if args is not None and not isinstance(args, dict):
        raise TraceFileError(
            f"{where} ({tool}): {field} must be an object, got {shorten(repr(args), width)}"
        )
    return args


def _renamed(item: dict[str, Any]) -> dict[str, Any]:
    """A call written with ``name``/``function`` and ``arguments``/``input``, as
    ``{"tool", "args", ...}`` (the rest kept)."""
    tool_key = next((k for k in _TOOL_ALIASES if isinstance(item.get(k), str)), None)
    if tool_key is None:
        return item
    args_key = next((k for k in _ARGS_ALIASES if k in item), None)
    out = {k: v for k, v in item.items() if k not in (tool_key, args_key)}
    out["tool"] = item[tool_key]
    if args_key is not None:
        out["args"] = item[args_key]
    return out


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
    if fmt in ("auto", "langchain"):
        data = _unwrap_langchain(data)
    try:
        return _EXTRACTORS[fmt](data)  # new call dicts, the caller's to keep
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        # Whole sentences only: the quoted input is what gets shortened, never the message.
        if fmt == "auto":
            raise TraceFileError(
                f"{name}: Cannot auto-detect the trace format of {_quote(data)}. It is not a "
                'list of {"tool": ..., "args": {...}} calls, an MCP log, OpenTelemetry spans '
                "or a provider response (OpenAI, Anthropic, Gemini, LangChain, CrewAI). Write "
                "the calls as such a list, or name the format (format=..., --format) if it is "
                "one of these."
            ) from None
        detail = " ".join(str(exc).split())
        raise TraceFileError(f"{name}: not a {fmt} trace: {detail}") from None


def _quote(data: Any) -> str:
    """The start of a parsed document, as JSON, for an error message."""
    try:
        text = json.dumps(data, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(data)
    return shorten(text, 80)


def detect_format(data: Any) -> str:
    """Guess the format of a parsed trace: ``mcp``, ``otel``, ``custom``, or ``auto``.

    Example:
        >>> detect_format([{"tool": "search", "args": {}}])
        'custom'
    """
    items = _flatten(data)
    if items and all(_is_jsonrpc(item) for item in items):
        return "mcp"
    if looks_like_otel(data):
        return "otel"
    calls = _unwrap_calls(data)
    if isinstance(calls, list) and all(
        isinstance(item, dict) and isinstance(item.get("tool"), str) for item in calls
    ):
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
