"""Tool calls from OpenTelemetry spans that follow the GenAI semantic conventions.

A tool execution is a span with ``gen_ai.tool.name`` and either
``gen_ai.operation.name = "execute_tool"`` (GenAI agent spans) or
``mcp.method.name = "tools/call"`` (MCP client spans). Its arguments are
``gen_ai.tool.call.arguments`` (JSON text or an object), its result
``gen_ai.tool.call.result``, its id ``gen_ai.tool.call.id`` (``jsonrpc.request.id`` for MCP);
an ERROR status or an ``error.type`` attribute marks a failed call.

Read: an OTLP/JSON export (``{"resourceSpans": [...]}``, as OTLP exporters and the collector's
file exporter write it; a JSON Lines file of them reads as a list), a list of span dicts
(OTLP key/value attribute lists or plain mappings), or OpenTelemetry SDK span objects
(``ReadableSpan``, e.g. from ``InMemorySpanExporter``). Other spans (chat, agent, HTTP) are
skipped; calls come in start-time order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from toolscore._engine.read.shapes import get_field, read_arguments

__all__ = [
    "is_tool_span",
    "looks_like_otel",
    "otel_calls",
    "span_attributes",
    "span_list",
    "span_nanos",
]

_TOOL_NAME = "gen_ai.tool.name"
_ERROR_CODES = (2, "2", "STATUS_CODE_ERROR", "ERROR", "error")


def _any_value(value: Any) -> Any:
    """An OTLP ``AnyValue`` (``{"stringValue": ...}``, arrays, key/value lists) as Python."""
    if not isinstance(value, Mapping):
        return value
    for key in ("stringValue", "boolValue", "doubleValue", "bytesValue"):
        if key in value:
            return value[key]
    if "intValue" in value:
        try:
            return int(value["intValue"])  # OTLP/JSON writes 64-bit ints as strings
        except (TypeError, ValueError):
            return value["intValue"]
    if "arrayValue" in value:
        return [_any_value(v) for v in _values(value["arrayValue"])]
    if "kvlistValue" in value:
        return _key_values(_values(value["kvlistValue"]))
    return None


def _values(value: Any) -> list[Any]:
    """The ``values`` of an OTLP array or key/value list (none when it is malformed)."""
    return _list(value.get("values") if isinstance(value, Mapping) else None)


def _list(value: Any) -> list[Any]:
    """A list field of an export; a missing or malformed one holds nothing."""
    return list(value) if isinstance(value, (list, tuple)) else []


def _key_values(items: Iterable[Any]) -> dict[str, Any]:
    return {
        str(kv["key"]): _any_value(kv.get("value"))
        for kv in items
        if isinstance(kv, Mapping) and "key" in kv
    }


def span_attributes(span: Any) -> dict[str, Any]:
    """A span's attributes as a dict (OTLP JSON key/value pairs, a mapping, or SDK spans)."""
    raw = get_field(span, "attributes")
    if isinstance(raw, list):
        return _key_values(raw)
    try:
        return dict(raw) if raw is not None else {}
    except (TypeError, ValueError):
        return {}


def is_tool_span(span: Any) -> bool:
    """Whether a span records a tool execution (GenAI ``execute_tool`` or MCP ``tools/call``).

    Example:
        >>> is_tool_span({"attributes": {"gen_ai.operation.name": "execute_tool",
        ...                              "gen_ai.tool.name": "search"}})
        True
    """
    attributes = span_attributes(span)
    if not attributes.get(_TOOL_NAME):
        return False
    return (
        attributes.get("gen_ai.operation.name") == "execute_tool"
        or attributes.get("mcp.method.name") == "tools/call"
    )


def _is_export(value: Any) -> bool:
    return isinstance(value, Mapping) and "resourceSpans" in value


def looks_like_otel(data: Any) -> bool:
    """An OTLP export, a list of exports (JSON Lines), or a list holding a tool span."""
    if _is_export(data):
        return True
    if isinstance(data, (list, tuple)) and data:
        if all(_is_export(item) for item in data):
            return True
        return any(is_tool_span(item) for item in data[:100])
    return False


def span_list(data: Any) -> list[Any]:
    """The spans of an OTLP export, a list of exports, or a list of spans (flattened)."""
    if isinstance(data, (list, tuple)):
        out: list[Any] = []
        for item in data:
            out.extend(span_list(item) if _is_export(item) else [item])
        return out
    if not _is_export(data):
        return [data]
    spans: list[Any] = []
    for resource in _list(data.get("resourceSpans")):
        if not isinstance(resource, Mapping):
            continue
        scopes = resource.get("scopeSpans") or resource.get("instrumentationLibrarySpans")
        for scope in _list(scopes):
            if isinstance(scope, Mapping):
                spans.extend(_list(scope.get("spans")))
    return spans


def span_nanos(span: Any, json_key: str, sdk_attr: str) -> int | None:
    """A span's time in nanoseconds: ``json_key`` of OTLP JSON, ``sdk_attr`` of SDK spans."""
    value = span.get(json_key) if isinstance(span, Mapping) else getattr(span, sdk_attr, None)
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError, OverflowError):  # OverflowError: infinity (1e400 in JSON)
        return None


def _seconds(start: int | None, end: int | None) -> float | None:
    """The time between two nanosecond timestamps (None without both, or past the floats)."""
    if start is None or end is None:
        return None
    try:
        return (end - start) / 1e9
    except OverflowError:  # a timestamp of 400 digits
        return None


def _status(span: Any) -> tuple[bool, str | None]:
    if isinstance(span, Mapping):
        status = span.get("status") or {}
        if not isinstance(status, Mapping):
            return False, None
        return status.get("code") in _ERROR_CODES, status.get("message") or None
    status = getattr(span, "status", None)
    code = getattr(getattr(status, "status_code", None), "name", None)
    return code == "ERROR", getattr(status, "description", None) or None


def _decoded(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def otel_calls(data: Any) -> list[dict[str, Any]]:
    """One call dict per tool span, in start-time order.

    Each holds ``tool``, ``args``, ``result``, ``is_error``, ``error``, ``duration`` (seconds,
    when both timestamps are there) and ``id``. Arguments that are not a JSON object warn
    (:class:`~toolscore.integrations.MalformedArgumentsWarning`) and read as ``{}``.
    """
    rows: list[tuple[int, dict[str, Any]]] = []
    for span in span_list(data):
        if not is_tool_span(span):
            continue
        attributes = span_attributes(span)
        tool = str(attributes[_TOOL_NAME])
        start = span_nanos(span, "startTimeUnixNano", "start_time")
        end = span_nanos(span, "endTimeUnixNano", "end_time")
        failed, message = _status(span)
        error_type = attributes.get("error.type")
        is_error = failed or bool(error_type)
        error = message or (str(error_type) if error_type else None)
        call_id = attributes.get("gen_ai.tool.call.id") or attributes.get("jsonrpc.request.id")
        call = {
            "tool": tool,
            "args": read_arguments(attributes.get("gen_ai.tool.call.arguments"), tool),
            "result": _decoded(attributes.get("gen_ai.tool.call.result")),
            "is_error": is_error,
            "error": error if is_error else None,
            "duration": _seconds(start, end),
            "id": None if call_id is None else str(call_id),
        }
        rows.append((start if start is not None else 0, call))
    rows.sort(key=lambda row: row[0])  # stable: spans that start together keep their order
    return [call for _, call in rows]
