"""Hand-offs between agents, read from a run, in order with the tool calls around them.

A run read here is a list of :class:`RunEntry`: a hand-off to an agent, or a tool call with
the agent that was active when it was made (``None``: the agent that started the run, which
is not a hand-off). Sources:

* OpenAI Agents SDK ``RunResult.new_items`` (or the items): ``handoff_call_item`` /
  ``handoff_output_item`` (the target's real name wins over the ``transfer_to_*`` slug), and a
  change of an item's ``agent``;
* Google ADK events (``author``, ``content.parts[].function_call``): ``transfer_to_agent``
  calls (``agent_name``) and a change of the author of the model's content;
* message histories (OpenAI chat, LangChain / LangGraph): a change of the assistant message's
  ``name``, and ``transfer_to_*`` / ``transfer_back_to_*`` calls; a tool message's ``name`` is
  the tool's, not an agent's;
* OpenTelemetry GenAI spans: a new ``invoke_agent`` span (``gen_ai.agent.name``), and a tool
  span owned by another agent (the innermost ``invoke_agent`` span around it);
* any call list or provider response: ``transfer_to_*`` and ADK ``transfer_to_agent`` calls.

A ``transfer_to_*`` call followed by the change of name it causes is one hand-off; a hand-off
is never also a tool call.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from toolscore._engine.read.inputs import CallList, actual_calls, is_call_list
from toolscore._engine.read.messages import message_list, read_messages
from toolscore._engine.read.otel import (
    is_tool_span,
    looks_like_otel,
    span_attributes,
    span_list,
    span_nanos,
)
from toolscore._engine.read.shapes import plain, read_arguments

__all__ = [
    "RunEntry",
    "agent_key",
    "handoff_target",
    "has_handoffs",
    "read_agent_run",
    "run_handoffs",
    "tool_calls_only",
]

_PREFIXES = ("transfer_back_to_", "transfer_to_")
_ADK_TRANSFER = "transfer_to_agent"


@dataclass
class RunEntry:
    """One step of a run: a hand-off (``tool`` None, ``agent`` the target) or a tool call
    (``agent`` the one active when it was made; ``group`` its assistant message, if any)."""

    agent: str | None
    tool: str | None = None
    args: dict[str, Any] | None = None
    group: int | None = None

    @property
    def is_handoff(self) -> bool:
        return self.tool is None


def agent_key(name: str | None) -> str | None:
    """Agent names compare without case, with spaces, hyphens and underscores alike
    (``"Billing agent"`` is handed to by ``transfer_to_billing_agent``)."""
    if name is None:
        return None
    return re.sub(r"[\s\-_]+", "_", name.strip().lower())


def handoff_target(tool: str, args: Mapping[str, Any] | None) -> str | None:
    """The agent a call hands off to (``transfer_to_billing``, ADK ``transfer_to_agent``),
    or None when the call is an ordinary tool call.

    Example:
        >>> handoff_target("transfer_to_billing", {}), handoff_target("search", {})
        ('billing', None)
    """
    if tool == _ADK_TRANSFER:
        name = (args or {}).get("agent_name")
        return str(name) if name else None
    found = (tool[len(p) :] for p in _PREFIXES if tool.startswith(p) and len(tool) > len(p))
    return next(found, None)


class _Run:
    """Builds the entries: the active agent, and one step per change of it."""

    def __init__(self) -> None:
        self.entries: list[RunEntry] = []
        self.current: str | None = None  # the active agent's name, when known
        self.handed_off = False  # before the first hand-off the starting agent is active

    def agent(self, name: Any) -> None:
        """The active agent is ``name``: a hand-off unless it already is (or it started)."""
        if not isinstance(name, str) or not name:
            return
        if self.current is None and not self.handed_off:
            self.current = name  # the agent that starts the run: not a step
            return
        if agent_key(name) != agent_key(self.current):
            self.handoff(name)

    def handoff(self, name: str) -> None:
        self.entries.append(RunEntry(name))
        self.current = name
        self.handed_off = True

    def call(self, tool: str, args: dict[str, Any], group: int | None = None) -> None:
        target = handoff_target(tool, args)
        if target is not None:
            self.handoff(target)
            return
        active = self.current if self.handed_off else None
        self.entries.append(RunEntry(active, tool, args, group))


def _name(obj: Any) -> Any:
    d = plain(obj)
    return d.get("name") if isinstance(d, Mapping) else None


def _raw_call(raw: Any) -> tuple[str, dict[str, Any]]:
    d = plain(raw)
    d = d if isinstance(d, Mapping) else {}
    tool = str(d.get("name") or d.get("type") or "")
    return tool, read_arguments(d.get("arguments") or d.get("input"), tool)


def _agents_sdk(items: list[Any]) -> list[RunEntry]:
    run = _Run()
    for item in items:
        d = plain(item)
        if not isinstance(d, Mapping):
            continue
        kind = d.get("type")
        if kind == "handoff_call_item":
            run.agent(_name(d.get("agent")))
            tool, args = _raw_call(d.get("raw_item"))
            target = handoff_target(tool, args)
            if target is not None:  # else (a renamed hand-off tool) its output item names it
                run.handoff(target)
        elif kind == "handoff_output_item":
            target = _name(d.get("target_agent"))
            last = run.entries[-1] if run.entries else None
            if last is not None and last.is_handoff and agent_key(last.agent) == agent_key(target):
                last.agent = run.current = target  # the real name over the slug: one hand-off
            elif isinstance(target, str):
                run.agent(target)
        else:
            run.agent(_name(d.get("agent")))
            if kind == "tool_call_item":
                tool, args = _raw_call(d.get("raw_item"))
                run.call(tool, args)
    return run.entries


def _adk(events: list[Any]) -> list[RunEntry]:
    run = _Run()
    for n, event in enumerate(events):
        d = plain(event)
        content = plain(d.get("content")) if isinstance(d, Mapping) else None
        if not isinstance(d, Mapping) or not isinstance(content, Mapping):
            continue
        if content.get("role") == "model":  # function responses are authored by the caller
            run.agent(d.get("author"))
        for part in content.get("parts") or []:
            p = plain(part)
            if not isinstance(p, Mapping):
                continue
            fc = plain(p.get("function_call") or p.get("functionCall"))
            if isinstance(fc, Mapping) and fc.get("name"):
                tool = str(fc["name"])
                run.call(tool, read_arguments(fc.get("args"), tool), n)
    return run.entries


def _history(messages: list[Any]) -> list[RunEntry]:
    run = _Run()
    for step in read_messages(messages, "actual"):
        if step.role != "assistant":
            continue
        message = plain(messages[step.index])
        if isinstance(message, Mapping):
            data = message.get("data") if "content" not in message else None
            source = data if isinstance(data, Mapping) else message
            run.agent(source.get("name"))
        for call in step.calls:
            run.call(call["tool"], call["args"] or {}, step.index)
    return run.entries


def _start(span: Any) -> int:
    return span_nanos(span, "startTimeUnixNano", "start_time") or 0


def _otel(data: Any) -> list[RunEntry]:
    spans = sorted(span_list(data), key=_start)
    agents: list[tuple[int, int, str]] = []
    for span in spans:
        attributes = span_attributes(span)
        name = attributes.get("gen_ai.agent.name")
        if attributes.get("gen_ai.operation.name") == "invoke_agent" and name:
            start = _start(span)
            end = span_nanos(span, "endTimeUnixNano", "end_time") or start
            agents.append((start, end, str(name)))
    run = _Run()
    for span in spans:
        attributes = span_attributes(span)
        start = _start(span)
        if attributes.get("gen_ai.operation.name") == "invoke_agent":
            run.agent(attributes.get("gen_ai.agent.name"))
        elif is_tool_span(span):
            around = [a for a in agents if a[0] <= start <= a[1]]
            if attributes.get("gen_ai.agent.name"):  # the tool span names its agent itself
                run.agent(attributes["gen_ai.agent.name"])
            elif around:  # back in the agent that owns this call
                run.agent(max(around, key=lambda a: a[0])[2])
            tool = str(attributes["gen_ai.tool.name"])
            run.call(tool, read_arguments(attributes.get("gen_ai.tool.call.arguments"), tool))
    return run.entries


def _is_adk(value: Any) -> bool:
    if not isinstance(value, (list, tuple)) or not value:
        return False
    first = plain(value[0])
    return isinstance(first, Mapping) and "author" in first and "content" in first


def _is_spans(value: Any) -> bool:
    return looks_like_otel(value) or (
        isinstance(value, (list, tuple))
        and bool(value)
        and all(isinstance(s, Mapping) and "attributes" in s for s in value)
    )


def _agent_items(value: Any) -> list[Any] | None:
    is_map = isinstance(value, Mapping)
    items = value.get("new_items") if is_map else getattr(value, "new_items", None)
    if items is None and isinstance(value, (list, tuple)) and value:
        first = plain(value[0])
        if isinstance(first, Mapping) and str(first.get("type", "")).endswith("_item"):
            items = value
    return list(items) if isinstance(items, (list, tuple)) else None


def read_agent_run(value: Any, calls: CallList | None = None) -> list[RunEntry]:
    """The run's hand-offs and tool calls, in order (see the module docstring); ``calls``:
    ``value`` already read by ``actual_calls()``, if the caller has it.

    Example:
        >>> run = read_agent_run([{"tool": "transfer_to_billing", "args": {}},
        ...                       {"tool": "refund", "args": {"id": 7}}])
        >>> [(e.agent, e.tool) for e in run]
        [('billing', None), ('billing', 'refund')]
    """
    items = _agent_items(value)
    if items is not None:
        return _agents_sdk(items)
    if _is_adk(value):
        return _adk(list(value))
    if _is_spans(value):
        return _otel(value)
    messages = message_list(value)
    if messages is not None:
        return _history(messages)
    run = _Run()
    trace = actual_calls(value) if calls is None else calls
    for tool, args in zip(trace.tools, trace.args, strict=False):
        run.call(tool, args or {})
    return run.entries


def has_handoffs(tools: Iterable[Any]) -> bool:
    """Whether a list of tool names holds a hand-off call (cheap: no reading)."""
    names = [t for t in tools if isinstance(t, str)]
    # One substring search in C first: long traces without hand-offs pay almost nothing.
    if "transfer_" not in "\n".join(names):
        return False
    return any(t.startswith(_PREFIXES) or t == _ADK_TRANSFER for t in names)


def tool_calls_only(calls: CallList, keep: Collection[str] = ()) -> CallList:
    """``calls`` without its hand-off calls (a hand-off is no tool call), except those of
    the tools in ``keep`` (an expectation that names ``transfer_to_billing`` scores it).
    The same object when there is nothing to leave out."""
    if not has_handoffs(calls.tools):
        return calls
    kept = [
        k
        for k, (tool, args) in enumerate(zip(calls.tools, calls.args, strict=False))
        if tool in keep or handoff_target(tool, args) is None
    ]
    if len(kept) == len(calls.tools):
        return calls
    new_index = {old: new for new, old in enumerate(kept)}
    out = CallList(
        tools=[calls.tools[k] for k in kept],
        args=[calls.args[k] for k in kept],
        items=[calls.items[k] for k in kept] if len(calls.items) == len(calls.tools) else [],
        errors={new_index[k] for k in calls.errors if k in new_index},
    )
    if calls._calls is not None:
        out._calls = [calls._calls[k] for k in kept]
    return out


def run_handoffs(actual: Any, calls: CallList) -> list[str]:
    """The agents a run handed off to, in order (``evaluate()`` lists them in its details);
    ``calls``: ``actual`` as ``actual_calls()`` read it.

    A plain call list hands off only by ``transfer_*`` calls: without one, scoring it costs one
    cheap scan of the tool names.
    """
    # A list read as calls has a call first (or is empty).
    plain = isinstance(actual, list) and "transfer_" not in "\n".join(calls.tools)
    if plain and is_call_list(actual[:1]):
        return []
    try:
        entries = read_agent_run(actual, calls)
    except (TypeError, ValueError):  # evaluate() already read the run its own way
        return []
    return [str(e.agent) for e in entries if e.is_handoff]
