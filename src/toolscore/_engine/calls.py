"""Turn what users pass (dicts, ToolCall objects, provider responses) into call lists.

Long traces are the common case for speed, so the plain ``{"tool": ..., "args": {...}}``
shape is read into two parallel lists without building objects; ``ToolCall`` objects are
built only when someone asks for them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolscore.adapters.base import ToolCall

__all__ = ["CallList", "actual_calls", "expected_calls", "is_call_list"]


@dataclass
class CallList:
    """Tool names and argument dicts side by side, plus the items they came from."""

    tools: list[str] = field(default_factory=list)
    args: list[dict[str, Any] | None] = field(default_factory=list)
    items: list[Any] = field(default_factory=list)
    errors: set[int] = field(default_factory=set)
    _calls: list[ToolCall] | None = None

    def __len__(self) -> int:
        return len(self.tools)

    def tool_calls(self) -> list[ToolCall]:
        """The calls as ``ToolCall`` objects (built once, on first use)."""
        if self._calls is None:
            calls: list[ToolCall] = []
            for tool, args, item in zip(self.tools, self.args, self.items, strict=False):
                if isinstance(item, ToolCall):
                    calls.append(item if item.args is args else _with_args(item, args))
                elif isinstance(item, Mapping):
                    calls.append(_full_call(item, tool, args))
                else:
                    calls.append(ToolCall(tool, args))
            self._calls = calls
        return self._calls


def _with_args(call: ToolCall, args: dict[str, Any] | None) -> ToolCall:
    return ToolCall(
        call.tool, args, call.result, call.timestamp, call.duration, call.cost, call.metadata
    )


def _full_call(item: Mapping[str, Any], tool: str, args: dict[str, Any] | None) -> ToolCall:
    metadata = dict(item.get("metadata") or {})
    for key in ("is_error", "error"):
        if key in item and key not in metadata:
            metadata[key] = item[key]
    return ToolCall(
        tool=tool,
        args=args,
        result=item.get("result"),
        timestamp=item.get("timestamp"),
        duration=item.get("duration"),
        cost=item.get("cost"),
        metadata=metadata,
    )


def _read(items: Any, side: str, expected: bool) -> CallList:
    out = CallList()
    tools, all_args, sources = out.tools, out.args, out.items
    for i, item in enumerate(items):
        if type(item) is dict:
            tool = item.get("tool")
            args = item.get("args")
            size = len(item)
            if (
                type(tool) is str
                and tool
                and (args is None or type(args) is dict)
                and (size == 1 or (size == 2 and "args" in item))
            ):
                tools.append(tool)
                all_args.append(args if args is not None or expected else {})
                sources.append(item)
                continue
        tool, args, failed = _slow_read(item, f"{side}[{i}]", expected)
        tools.append(tool)
        all_args.append(args)
        sources.append(item)
        if failed:
            out.errors.add(i)
    return out


def _slow_read(item: Any, where: str, expected: bool) -> tuple[str, dict[str, Any] | None, bool]:
    tool: Any
    if isinstance(item, ToolCall):
        tool, args, failed = item.tool, item.args, item.is_error
    elif isinstance(item, Mapping):
        tool, args = item.get("tool"), item.get("args")
        failed = _full_call(item, "", None).is_error
    else:
        raise TypeError(
            f"{where} must be a dict like {{'tool': 'search', 'args': {{...}}}} or a ToolCall, "
            f"got {type(item).__name__}"
        )
    if not isinstance(tool, str) or not tool:
        raise ValueError(
            f"{where} needs a non-empty string under 'tool', got {item!r}; "
            "write {'tool': 'get_weather', 'args': {'city': 'NYC'}}"
        )
    if isinstance(args, (str, bytes)) and not expected:
        from toolscore.integrations import parse_arguments

        args = parse_arguments(args, tool)  # JSON text, as providers send it
    if args is not None and not isinstance(args, Mapping):
        raise ValueError(
            f"{where} ({tool!r}): 'args' must be a dict or None, got {type(args).__name__} {args!r}"
        )
    if args is not None and type(args) is not dict:
        args = dict(args)
    if args is None and not expected:
        args = {}
    return tool, args, failed


def expected_calls(expected: Any) -> CallList:
    """Validate and read the ``expected`` argument."""
    if not isinstance(expected, (list, tuple)):
        raise TypeError(
            "expected must be a list of calls like [{'tool': 'search', 'args': {'q': 'x'}}], "
            f"got {type(expected).__name__}"
        )
    return _read(expected, "expected", True)


def is_call_list(value: Any) -> bool:
    """A list of ``{"tool": ...}`` dicts or ToolCall objects (empty lists included)."""
    return isinstance(value, (list, tuple)) and all(
        (type(item) is dict and "tool" in item)
        or isinstance(item, ToolCall)
        or (isinstance(item, Mapping) and "tool" in item)
        for item in value
    )


def actual_calls(actual: Any) -> CallList:
    """Read ``actual``: a call list, or any provider response ``auto_extract`` reads."""
    if not is_call_list(actual):
        from toolscore.integrations import auto_extract

        actual = auto_extract(actual)
    return _read(actual, "actual", False)
