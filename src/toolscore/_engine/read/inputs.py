"""Turn what users pass (dicts, ToolCall objects, provider responses) into call lists.

Long traces are the common case for speed, so the plain ``{"tool": ..., "args": {...}}``
shape is read into two parallel lists without building objects; ``ToolCall`` objects are
built only when someone asks for them. The validators read one call's recorded result
through :func:`as_call` and :func:`recorded_int`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from scorekit.format import shorten
from toolscore._engine.read.providers import auto_extract
from toolscore._engine.read.shapes import action_input, read_arguments
from toolscore._engine.read.tool_call import ToolCall, failed_call

__all__ = [
    "CallList",
    "actual_calls",
    "as_call",
    "expected_calls",
    "is_call_list",
    "read_calls",
    "read_pair",
    "recorded_calls",
    "recorded_int",
]

_RUN_DATA = ("result", "timestamp", "duration", "cost")  # ToolCall's fields after the args


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
                if isinstance(item, ToolCall) and item.args is args:
                    calls.append(item)
                elif isinstance(item, ToolCall):
                    run_data = {name: getattr(item, name) for name in _RUN_DATA}
                    calls.append(ToolCall(tool, args, **run_data, metadata=item.metadata))
                else:  # a call dict (the readers refuse anything else)
                    run_data = {name: item.get(name) for name in _RUN_DATA}
                    calls.append(ToolCall(tool, args, **run_data, metadata=_metadata(item)))
            self._calls = calls
        return self._calls


def _metadata(item: Mapping[str, Any]) -> dict[str, Any]:
    """A call dict's metadata, with its top-level failure fields and id folded in."""
    raw = item.get("metadata")
    metadata = dict(raw) if isinstance(raw, Mapping) else {}
    for key in ("is_error", "error", "id"):
        if key in item and key not in metadata and item[key] is not None:
            metadata[key] = item[key]
    return metadata


def _read(items: Any, side: str, expected: bool, plain_only: bool = False) -> CallList | None:
    """Read call items; with ``plain_only``, None as soon as an item is not a plain
    ``{"tool": name, "args": dict | None}`` dict (the caller then reads the whole another way).
    """
    out = CallList()
    out.items = sources = list(items)
    tools, all_args = out.tools, out.args
    add_tool, add_args = tools.append, all_args.append
    for i, item in enumerate(sources):
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
                add_tool(tool)
                add_args(args if args is not None or expected else {})
                continue
        if plain_only:
            return None
        tool, args, failed = _slow_read(item, f"{side}[{i}]", expected)
        add_tool(tool)
        add_args(args)
        if failed:
            out.errors.add(i)
    return out


def _slow_read(item: Any, where: str, expected: bool) -> tuple[str, dict[str, Any] | None, bool]:
    tool: Any
    if isinstance(item, ToolCall):
        tool, args, failed = item.tool, item.args, item.is_error
    elif isinstance(item, Mapping):
        tool, args = item.get("tool"), item.get("args")
        failed = failed_call(_metadata(item))
    else:
        raise ValueError(
            f"{where} is not a dict: each call is a dict like "
            f"{{'tool': 'search', 'args': {{...}}}} or a ToolCall, got {type(item).__name__} "
            f"{shorten(repr(item), 80)}"
        )
    if tool is None and isinstance(item, Mapping) and "agent" in item:
        raise ValueError(
            f"{where} is an agent step {shorten(repr(item), 60)}: scoring reads tool calls "
            "only; check hand-offs between agents with match_trajectory(expected, actual) or "
            "assert_trajectory(...), which take {'agent': NAME} steps"
        )
    if tool is None or tool == "":
        raise ValueError(
            f"{where} is missing 'tool' key (the name of the tool), got "
            f"{shorten(repr(item), 120)}; write "
            "{'tool': 'get_weather', 'args': {'city': 'NYC'}}"
        )
    if not isinstance(tool, str):
        raise ValueError(
            f"{where}: 'tool' must be the tool's name as a string, got {type(tool).__name__} "
            f"{shorten(repr(tool), 60)}"
        )
    if args is None and not expected and isinstance(item, Mapping) and "tool_input" in item:
        args = action_input(item["tool_input"], tool)  # a LangChain AgentAction
    if isinstance(args, (str, bytes)) and not expected:
        args = read_arguments(args, tool)  # JSON text, as providers send it
    if args is not None and not isinstance(args, Mapping):
        raise ValueError(
            f"{where} ({tool!r}): 'args' must be a dict or None, got {type(args).__name__} "
            f"{shorten(repr(args), 80)}"
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
            "expected must be a list of dicts like [{'tool': 'search', 'args': {'q': 'x'}}], "
            f"got {type(expected).__name__}"
        )
    out = _read(expected, "expected", True)
    assert out is not None
    return out


def _is_call(item: Any) -> bool:
    return isinstance(item, ToolCall) or (isinstance(item, Mapping) and "tool" in item)


def is_call_list(value: Any) -> bool:
    """A list of ``{"tool": ...}`` dicts or ToolCall objects (empty lists included)."""
    return isinstance(value, (list, tuple)) and all(map(_is_call, value))


def recorded_calls(value: Any) -> list[ToolCall] | None:
    """The ``calls`` of a recorder such as ``toolscore.fakes.FakeTools`` (a list of
    ``ToolCall``), or None when ``value`` is no such object."""
    if isinstance(value, (Mapping, list, tuple, str, bytes)):
        return None
    calls = getattr(value, "calls", None)
    if isinstance(calls, list) and all(isinstance(c, ToolCall) for c in calls):
        return list(calls)
    return None


def actual_calls(actual: Any) -> CallList:
    """Read ``actual``: a call list, a recorder of calls (``FakeTools``), or any provider
    response ``auto_extract`` reads.

    A list whose first item is a ``{"tool": ...}`` dict is read as a call list, so a bad item
    further down is reported as such (``actual[3] is not a dict``) rather than as an unknown
    provider shape.
    """
    if type(actual) is list:
        # Plain call dicts throughout: a call list (is_call_list() is true), read in one pass.
        plain = _read(actual, "actual", False, plain_only=True)
        if plain is not None:
            return plain
    recorded = None if type(actual) is list else recorded_calls(actual)
    if recorded is not None:
        actual = recorded
    elif not is_call_list(actual):
        try:
            actual = auto_extract(actual)
        except TypeError:
            if not (isinstance(actual, (list, tuple)) and actual and _is_call(actual[0])):
                raise
            # Read as the call list it starts as: the error then names the bad item.
    out = _read(actual, "actual", False)
    assert out is not None
    return out


def read_calls(calls: Any, expected: bool) -> CallList:
    """Read the ``gold_calls`` / ``trace_calls`` argument of a public metric function."""
    return expected_calls(calls) if expected else actual_calls(calls)


def read_pair(gold_calls: Any, trace_calls: Any) -> tuple[CallList, CallList]:
    """The ``gold_calls`` and ``trace_calls`` arguments of a public metric function, read."""
    return expected_calls(list(gold_calls)), actual_calls(list(trace_calls))


def as_call(call: Any) -> ToolCall:
    """``call`` as a :class:`~toolscore.adapters.base.ToolCall` (dicts are read like traces)."""
    if isinstance(call, ToolCall):
        return call
    return actual_calls([call]).tool_calls()[0]


def recorded_int(call: ToolCall, names: tuple[str, ...]) -> int | None:
    """A bare integer result, else the first of ``names`` in the result or metadata, as an
    integer (``"200"`` too); ``None`` when there is none (booleans never count)."""
    raw = call.result
    if not isinstance(raw, int) or isinstance(raw, bool):
        sources = (call.result, call.metadata or {})
        found = (s.get(name) for s in sources if isinstance(s, Mapping) for name in names)
        raw = next((value for value in found if value is not None), None)
    if isinstance(raw, bool):
        return None
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None
