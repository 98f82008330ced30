"""What a run spent: tool calls, model requests, tokens, cost and time, read from the run.

One reader for :func:`toolscore.assert_budget` and ``expect(...).within(...)``. A run is:

* a list of tool calls (``{"tool", "args"}`` dicts or ``ToolCall`` objects, with their
  ``timestamp`` / ``duration`` / ``cost`` when known), or an object with such a ``calls`` list
  (``toolscore.fakes.FakeTools``): tool calls, time and cost fields, no model requests;
* a message history (OpenAI chat, Responses items, Anthropic, Gemini, LangChain): each
  assistant message is one model request, its ``usage`` / ``usage_metadata`` its tokens;
* provider responses, one or a list (OpenAI, Anthropic, Gemini, Pydantic AI's
  ``all_messages()``, an OpenAI Agents SDK ``RunResult``'s ``raw_responses``): each response
  is one model request;
* OpenTelemetry GenAI spans: ``chat`` spans are model requests and carry the tokens (usage on
  ``invoke_agent`` spans is not counted again), tool spans are tool calls, and the run lasts
  from the first span's start to the last span's end.

A measure the run does not carry is ``None`` with the reason in :attr:`RunUsage.missing`, so
a limit on it can fail loudly instead of passing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from toolscore._engine.read.handoffs import handoff_target
from toolscore._engine.read.inputs import actual_calls, is_call_list, recorded_calls
from toolscore._engine.read.messages import message_list, read_messages
from toolscore._engine.read.model_usage import MODEL_OPERATIONS, ModelRequest, model_request
from toolscore._engine.read.otel import (
    looks_like_otel,
    otel_calls,
    span_attributes,
    span_list,
    span_nanos,
)
from toolscore._engine.read.providers import auto_extract
from toolscore._engine.read.shapes import get_field, plain
from toolscore._engine.read.tool_call import ToolCall

__all__ = ["ModelRequest", "RunUsage", "cost_and_reason", "read_usage", "seconds_of"]


@dataclass
class RunUsage:
    """What one run spent, as far as the run says (see the module docstring).

    Attributes:
        source: what the run was read as ("a list of tool calls", "OpenTelemetry spans"...).
        calls: the tool calls, in order (a hand-off, ``transfer_to_*``, is no tool call).
        requests: the model requests, or None when the run holds none to count.
        duration_s: how long the run took, or None.
        missing: for each measure the run does not carry, why.
    """

    source: str
    calls: list[ToolCall] = field(default_factory=list)
    requests: list[ModelRequest] | None = None
    duration_s: float | None = None
    duration_from: str = ""
    missing: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.calls = [c for c in self.calls if handoff_target(c.tool, c.args) is None]

    @property
    def tokens(self) -> int | None:
        """Prompt plus completion tokens of every request (None unless all report them)."""
        if not self.requests or any(r.tokens is None for r in self.requests):
            return None
        return sum(r.tokens or 0 for r in self.requests)

    @property
    def cost_usd(self) -> float | None:
        """The run's cost: cost fields, or usage at list prices (None when unknown)."""
        return cost_and_reason(self)[0]

    def calls_per_tool(self) -> dict[str, list[int]]:
        """Each tool's call positions (0-based), in first-call order."""
        out: dict[str, list[int]] = {}
        for n, call in enumerate(self.calls):
            out.setdefault(call.tool, []).append(n)
        return out


def cost_and_reason(usage: RunUsage) -> tuple[float | None, str]:
    """The cost and, when it is unknown, why."""
    from scorekit.session import price_of

    call_costs = [call.cost for call in usage.calls if call.cost is not None]
    total = sum(call_costs, 0.0)
    for request in usage.requests or []:
        if request.cost is not None:
            total += request.cost
            continue
        if request.tokens is None:
            return None, f"model request #{request.number} reports no token usage and no cost"
        price = price_of(request.model)
        if price is None:
            model = repr(request.model) if request.model else "an unnamed model"
            return None, (
                f"model request #{request.number} is by {model}, which the price table "
                "(the judge budget's list prices) does not list, and carries no cost field"
            )
        prompt, completion = request.prompt_tokens or 0, request.completion_tokens or 0
        total += (prompt * price[0] + completion * price[1]) / 1e6
    if not call_costs and not usage.requests:
        return None, f"{usage.source} carries no cost fields and no priced token usage"
    return total, ""


# When a response or message was made: OpenAI Chat Completions ``created``, Responses
# ``created_at``, Pydantic AI and chat messages ``timestamp``, Gemini ``create_time``.
_TIME_KEYS = ("timestamp", "created_at", "created", "create_time", "createTime")


def _seconds(value: Any) -> float | None:
    if isinstance(value, datetime):
        return value.timestamp()
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    if isinstance(value, str):
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
        except ValueError:
            return None
    return None


def seconds_of(obj: Any) -> float | None:
    """When ``obj`` (a response or a message) was made, in seconds since the epoch.

    Example:
        >>> seconds_of({"role": "assistant", "created": 1700000000})
        1700000000.0
    """
    d = plain(obj)
    if not isinstance(d, Mapping):
        return None
    for key in _TIME_KEYS:
        seconds = _seconds(d.get(key))
        if seconds is not None:
            return seconds
    parts = d.get("parts")  # a Pydantic AI request: its parts carry the time
    if isinstance(parts, (list, tuple)) and parts and not isinstance(parts[0], (list, tuple)):
        return seconds_of(parts[0])
    return None


def _stamped(usage: RunUsage, items: list[Any], what: str) -> None:
    """Duration from the first to the last timestamp of the responses or messages."""
    times = [t for t in map(seconds_of, items) if t is not None]
    if len(times) >= 2:
        usage.duration_s = max(times) - min(times)
        usage.duration_from = f"first {what}'s timestamp to the last's"
    else:
        usage.missing["duration"] = (
            f"{usage.source} carries fewer than two timestamps; pass the OpenTelemetry spans "
            "or the tool calls with timestamps (toolscore_tools.calls)"
        )


def _from_calls(calls: list[ToolCall], source: str) -> RunUsage:
    usage = RunUsage(source, calls)
    usage.missing["model_requests"] = (
        f"{source} holds no model requests; pass the provider responses, the message history "
        "or the OpenTelemetry spans of the run"
    )
    usage.missing["tokens"] = f"{source} carries no token counts"
    calls = usage.calls
    if calls and all(c.timestamp is not None for c in calls):
        ends = [(c.timestamp or 0.0) + (c.duration or 0.0) for c in calls]
        usage.duration_s = max(ends) - min(c.timestamp or 0.0 for c in calls)
        usage.duration_from = "first call's start to last call's end"
    elif calls and all(c.duration is not None for c in calls):
        usage.duration_s = sum(c.duration or 0.0 for c in calls)
        usage.duration_from = "sum of the calls' durations"
    else:
        usage.missing["duration"] = (
            f"{source} has no timestamps or durations"
            if calls
            else f"{source} holds no calls with timestamps or durations"
        )
    return usage


def _span_request(number: int, attributes: Mapping[str, Any]) -> ModelRequest:
    usage = {k.removeprefix("gen_ai.usage."): v for k, v in attributes.items()}
    model = attributes.get("gen_ai.response.model") or attributes.get("gen_ai.request.model")
    return model_request(number, {"usage": usage, "model": model})


def _from_spans(run: Any) -> RunUsage:
    spans = span_list(run)
    requests: list[ModelRequest] = []
    agents: list[tuple[int, int, dict[str, Any]]] = []
    starts: list[int] = []
    ends: list[int] = []
    for span in sorted(spans, key=lambda s: span_nanos(s, "startTimeUnixNano", "start_time") or 0):
        start = span_nanos(span, "startTimeUnixNano", "start_time")
        end = span_nanos(span, "endTimeUnixNano", "end_time")
        starts.extend([start] if start is not None else [])
        ends.extend([end] if end is not None else [])
        attributes = span_attributes(span)
        operation = attributes.get("gen_ai.operation.name")
        if operation in MODEL_OPERATIONS:
            requests.append(_span_request(len(requests) + 1, attributes))
        elif operation == "invoke_agent" and start is not None:
            agents.append((start, end if end is not None else start, attributes))
    calls = actual_calls(otel_calls(spans)).tool_calls()
    usage_out = RunUsage("the OpenTelemetry spans", calls, requests)
    if not requests:
        _agent_tokens(usage_out, agents)
    if starts and ends:
        usage_out.duration_s = (max(ends) - min(starts)) / 1e9
        usage_out.duration_from = "first span's start to last span's end"
    else:
        usage_out.missing["duration"] = "the spans carry no start and end times"
    return usage_out


def _agent_tokens(usage: RunUsage, agents: list[tuple[int, int, dict[str, Any]]]) -> None:
    """Spans without ``chat`` spans: no model requests to count, and the tokens of the
    outermost ``invoke_agent`` spans (a nested agent's usage is inside its caller's: once)."""
    usage.missing["model_requests"] = (
        "the OpenTelemetry spans hold no chat spans (gen_ai.operation.name 'chat'), the "
        "model requests; export the model spans too"
    )
    outer: list[tuple[int, int, dict[str, Any]]] = []
    for agent in agents:  # by start time: a caller comes before the agents it calls
        if not any(o[0] <= agent[0] and agent[1] <= o[1] for o in outer):
            outer.append(agent)
    totals = [_span_request(n + 1, attributes) for n, (_, _, attributes) in enumerate(outer)]
    if totals and all(t.tokens is not None for t in totals):
        usage.requests = totals
        usage.source = "the OpenTelemetry spans (tokens of their invoke_agent spans)"


def _from_messages(messages: list[Any]) -> RunUsage:
    replies = [step for step in read_messages(messages, "run") if step.role == "assistant"]
    requests = [model_request(n + 1, messages[step.index]) for n, step in enumerate(replies)]
    calls = [call for step in replies for call in step.calls]
    usage = RunUsage("the message history", actual_calls(calls).tool_calls(), requests)
    _stamped(usage, messages, "message")
    return usage


def _responses(run: Any) -> list[Any] | None:
    """The model responses of a run: Pydantic AI's ``all_messages()`` responses, an Agents SDK
    ``RunResult``'s ``raw_responses``, or the response(s) themselves."""
    all_messages = getattr(run, "all_messages", None)
    if callable(all_messages) and not isinstance(run, Mapping):
        return [m for m in all_messages() if getattr(m, "kind", None) == "response"]
    raw = getattr(run, "raw_responses", None)
    if isinstance(raw, list) and not isinstance(run, Mapping):
        return raw
    items = list(run) if isinstance(run, (list, tuple)) else [run]
    kinds = [get_field(item, "kind") for item in items]
    if items and all(kind in ("request", "response") for kind in kinds):  # Pydantic AI messages
        return [item for item, kind in zip(items, kinds, strict=True) if kind == "response"]
    return items if items and all(_is_response(item) for item in items) else None


def _is_response(item: Any) -> bool:
    d = plain(item)
    if not isinstance(d, Mapping):
        return False
    return any(key in d for key in ("choices", "candidates", "output", "usage", "usage_metadata"))


def _from_responses(run: Any, responses: list[Any]) -> RunUsage:
    requests = [model_request(n + 1, response) for n, response in enumerate(responses)]
    new_items = getattr(run, "new_items", None)
    calls = auto_extract(new_items if new_items is not None else responses)
    usage = RunUsage("the provider responses", actual_calls(calls).tool_calls(), requests)
    all_messages = getattr(run, "all_messages", None)  # Pydantic AI: the first request too
    if callable(all_messages):
        _stamped(usage, list(all_messages()), "message")
    elif isinstance(run, (list, tuple)) and len(run) != len(responses):
        _stamped(usage, list(run), "message")
    else:
        _stamped(usage, responses, "response")
    return usage


def _is_spans(run: Any) -> bool:
    if looks_like_otel(run):
        return True
    return (
        isinstance(run, (list, tuple))
        and bool(run)
        and all(isinstance(s, Mapping) and "attributes" in s for s in run)
        and any("gen_ai.operation.name" in span_attributes(s) for s in run)
    )


def read_usage(run: Any) -> RunUsage:
    """Read what ``run`` spent (see the module docstring for what a run may be).

    Raises:
        TypeError: ``run`` has no shape that carries tool calls or model requests.

    Example:
        >>> usage = read_usage([{"tool": "search", "args": {}, "duration": 0.5}])
        >>> len(usage.calls), usage.duration_s, usage.tokens
        (1, 0.5, None)
    """
    recorded = recorded_calls(run)
    if recorded is not None:
        return _from_calls(recorded, f"the calls recorded by {type(run).__name__}")
    if _is_spans(run):
        usage = _from_spans(run)
    elif (messages := message_list(run)) is not None:
        usage = _from_messages(messages)
    elif is_call_list(run):
        return _from_calls(actual_calls(run).tool_calls(), "a list of tool calls")
    elif (responses := _responses(run)) is not None:
        usage = _from_responses(run, responses)
    else:
        raise TypeError(
            f"Cannot read what the run spent from a {type(run).__name__}: pass the provider "
            "response(s), the message history, the OpenTelemetry spans, or the tool calls "
            "(a list of ToolCall / {'tool', 'args'} dicts, or toolscore_tools)"
        )
    if usage.requests is not None and usage.tokens is None:
        silent = [r.number for r in usage.requests if r.tokens is None]
        usage.missing["tokens"] = (
            f"{usage.source} holds no model requests"
            if not usage.requests
            else f"model request(s) #{', #'.join(map(str, silent[:5]))} of {usage.source} "
            "report no token usage"
        )
    return usage
