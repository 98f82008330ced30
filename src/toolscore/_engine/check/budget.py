"""Run budgets: ``assert_budget(run, max_tool_calls=..., ...)`` and ``expect(...).within()``.

Each limit is checked against what :func:`~toolscore._engine.read.usage.read_usage` reads
from the run. A limit on a measure the run does not carry (tokens of a bare call list) is a
``ValueError``, never a silent pass. The failure text shows every limited measure against its
limit and, for those over, the calls or requests that went over.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any

from toolscore._engine.check.failure import ToolScoreAssertionError
from toolscore._engine.read.usage import RunUsage, cost_and_reason, read_usage
from toolscore._engine.score.render import format_call

__all__ = ["LIMITS", "assert_budget", "budget_problems", "check_limits"]

LIMITS = (
    "max_tool_calls",
    "max_calls_per_tool",
    "max_model_requests",
    "max_tokens",
    "max_cost_usd",
    "max_duration_s",
)
_COUNTS = ("max_tool_calls", "max_calls_per_tool", "max_model_requests", "max_tokens")
# The measure each limit reads, as RunUsage.missing names it.
_MEASURE = {
    "max_model_requests": "model_requests",
    "max_tokens": "tokens",
    "max_cost_usd": "cost",
    "max_duration_s": "duration",
}
_SHOWN = 5


def _count_limit(name: str, value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{where}: {name} must be a whole number >= 0, got {value!r}")
    if value < 0:
        raise ValueError(f"{where}: {name} must be >= 0, got {value!r}")
    return value


def _number_limit(name: str, value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{where}: {name} must be a number >= 0, got {value!r}")
    if math.isnan(value) or value < 0:
        raise ValueError(f"{where}: {name} must be a number >= 0, got {value!r}")
    return float(value)


def check_limits(where: str, limits: Mapping[str, Any]) -> dict[str, Any]:
    """The limits that are set, validated: a limit of the wrong kind, or no limit at all, is a
    ``TypeError`` or ``ValueError`` naming the argument."""
    out: dict[str, Any] = {}
    for name, value in limits.items():
        if value is None:
            continue
        if name == "max_calls_per_tool" and isinstance(value, Mapping):
            out[name] = {str(t): _count_limit(f"{name}[{t!r}]", v, where) for t, v in value.items()}
        elif name in _COUNTS:
            out[name] = _count_limit(name, value, where)
        else:
            out[name] = _number_limit(name, value, where)
    if not out:
        raise ValueError(
            f"{where} needs at least one limit: {', '.join(f'{n}=...' for n in LIMITS)}"
        )
    return out


def _check_measure(usage: RunUsage, name: str, limit: Any) -> None:
    """A ``ValueError`` when the run does not carry the measure the limit ``name`` reads."""
    measure = _MEASURE.get(name)
    if measure is None:
        return
    reason = usage.missing.get(measure)
    if reason is None and measure == "cost":
        cost, why = cost_and_reason(usage)
        reason = why if cost is None else None
    if reason is None:
        return
    raise ValueError(
        f"{name}={limit!r} cannot be checked: {reason}. Pass the run in a form that carries "
        f"it (provider responses or a message history with usage, OpenTelemetry spans, or "
        f"toolscore_tools.calls for timing), or drop {name}."
    )


def _call_text(usage: RunUsage, n: int) -> str:
    call = usage.calls[n]
    return f"#{n + 1} {format_call(call.tool, call.args)}"


def _repeats(usage: RunUsage, positions: list[int]) -> list[str]:
    """The identical calls made more than once among ``positions``."""
    seen: dict[str, list[int]] = {}
    for n in positions:
        call = usage.calls[n]
        key = call.tool + json.dumps(call.args or {}, sort_keys=True, default=repr)
        seen.setdefault(key, []).append(n)
    return [
        f"{format_call(usage.calls[ns[0]].tool, usage.calls[ns[0]].args)} x{len(ns)} "
        f"(#{', #'.join(str(n + 1) for n in ns[:_SHOWN])})"
        for ns in seen.values()
        if len(ns) > 1
    ]


def _count_line(usage: RunUsage, label: str, positions: list[int], limit: int) -> tuple[bool, str]:
    """The calls at ``positions`` against ``limit``; over it, the calls that went over: the
    repeated ones, else those past the limit."""
    line = f"{label}: {len(positions)}, limit {limit}"
    if len(positions) <= limit:
        return False, line
    repeats = _repeats(usage, positions)
    if repeats:
        detail = f"repeated: {'; '.join(repeats)}"
    else:
        past = ", ".join(_call_text(usage, n) for n in positions[limit : limit + _SHOWN])
        left = len(positions) - limit - _SHOWN
        detail = f"past the limit: {past}" + (f" and {left} more" if left > 0 else "")
    return True, f"{line}, over by {len(positions) - limit}; {detail}"


def _tool_calls_line(usage: RunUsage, limit: int) -> tuple[bool, str]:
    return _count_line(usage, "tool calls", list(range(len(usage.calls))), limit)


def _per_tool_lines(usage: RunUsage, limit: Any) -> list[tuple[bool, str]]:
    per_tool = usage.calls_per_tool()
    limits = limit if isinstance(limit, dict) else dict.fromkeys(per_tool, limit)
    out = []
    for tool, cap in limits.items():
        over, line = _count_line(usage, f"calls to {tool!r}", per_tool.get(tool, []), cap)
        if over or isinstance(limit, dict):
            out.append((over, line))
    if not out:
        most = max(map(len, per_tool.values()), default=0)
        out.append((False, f"calls per tool: at most {most}, limit {limit}"))
    return out


def _requests_line(usage: RunUsage, limit: int) -> tuple[bool, str]:
    count = len(usage.requests or [])
    line = f"model requests: {count}, limit {limit}"
    return (count > limit, f"{line}, over by {count - limit}" if count > limit else line)


def _tokens_line(usage: RunUsage, limit: int) -> tuple[bool, str]:
    requests = usage.requests or []
    total = usage.tokens or 0
    prompt = sum(r.prompt_tokens or 0 for r in requests)
    line = f"tokens: {total:,} (prompt {prompt:,} + completion {total - prompt:,}), limit {limit:,}"
    if total <= limit:
        return False, line
    largest = sorted(requests, key=lambda r: -(r.tokens or 0))[:3]
    shown = ", ".join(f"#{r.number} ({r.tokens:,})" for r in largest)
    return True, f"{line}, over by {total - limit:,}; largest requests {shown}"


def _cost_line(usage: RunUsage, limit: float) -> tuple[bool, str]:
    cost = usage.cost_usd or 0.0
    line = f"cost: ${cost:.6f}, limit ${limit:.6f}"
    return (cost > limit, f"{line}, over by ${cost - limit:.6f}" if cost > limit else line)


def _duration_line(usage: RunUsage, limit: float) -> tuple[bool, str]:
    took = usage.duration_s or 0.0
    line = f"duration: {took:.3f} s ({usage.duration_from}), limit {limit:.3f} s"
    if took <= limit:
        return False, line
    timed = [(c.duration, n) for n, c in enumerate(usage.calls) if c.duration is not None]
    slowest = sorted(timed, reverse=True)[:3]
    shown = ", ".join(f"{_call_text(usage, n)} {d:.3f} s" for d, n in slowest)
    return True, f"{line}, over by {took - limit:.3f} s" + (
        f"; slowest calls {shown}" if shown else ""
    )


_LINE = {
    "max_tool_calls": _tool_calls_line,
    "max_model_requests": _requests_line,
    "max_tokens": _tokens_line,
    "max_cost_usd": _cost_line,
    "max_duration_s": _duration_line,
}


def budget_problems(run: Any, limits: Mapping[str, Any]) -> tuple[RunUsage, list[str], list[str]]:
    """Read the run and check the (validated) limits: ``(usage, over, within)`` lines; a limit
    on a measure the run does not carry is a ``ValueError``."""
    usage = read_usage(run)
    for name, limit in limits.items():
        _check_measure(usage, name, limit)
    lines: list[tuple[bool, str]] = []
    for name, limit in limits.items():
        if name == "max_calls_per_tool":
            lines.extend(_per_tool_lines(usage, limit))
        else:
            lines.append(_LINE[name](usage, limit))
    return usage, [t for over, t in lines if over], [t for over, t in lines if not over]


def budget_message(over: list[str], within: list[str], source: str) -> str:
    """The failure text of a broken budget."""
    out = [
        f"The run went over its budget ({len(over)} of {len(over) + len(within)} limits), "
        f"read from {source}:"
    ]
    out.extend(f"  over: {line}" for line in over)
    out.extend(f"  within: {line}" for line in within)
    out.append(
        "Hint: repeated identical calls usually mean the agent did not read a tool's result; "
        "look at what the tool answered just before the repeats."
        if any("repeated" in line for line in over)
        else "Hint: raise the limit only if the extra work is expected; otherwise look at the "
        "calls or requests listed above."
    )
    return "\n".join(out)


def assert_budget(
    run: Any,
    *,
    max_tool_calls: int | None = None,
    max_calls_per_tool: int | Mapping[str, int] | None = None,
    max_model_requests: int | None = None,
    max_tokens: int | None = None,
    max_cost_usd: float | None = None,
    max_duration_s: float | None = None,
) -> RunUsage:
    """Fail when a run spent more than its budget.

    Args:
        run: what the agent produced: provider response(s), a message history,
            OpenTelemetry spans, a list of tool calls, or ``toolscore_tools`` (its calls).
        max_tool_calls: most tool calls in all.
        max_calls_per_tool: most calls of any one tool, or ``{tool: limit}``.
        max_model_requests: most requests to a model (assistant messages, responses,
            ``chat`` spans).
        max_tokens: most prompt plus completion tokens.
        max_cost_usd: most dollars: ``cost`` fields, or usage at list prices.
        max_duration_s: most seconds, first to last timestamp (else the sum of durations).

    Returns:
        What the run spent (``calls``, ``requests``, ``tokens``, ``cost_usd``,
        ``duration_s``).

    Raises:
        ToolScoreAssertionError: a limit was exceeded; the message shows every measure.
        ValueError: a limit is on a measure the run does not carry, or no limit is given.

    Example:
        >>> calls = [{"tool": "search", "args": {"q": "x"}}] * 3
        >>> assert_budget(calls, max_tool_calls=5).calls[0].tool
        'search'
        >>> assert_budget(calls, max_calls_per_tool=2)
        Traceback (most recent call last):
        ...
        toolscore.ToolScoreAssertionError: The run went over its budget (1 of 1 limits), ...
    """
    __tracebackhide__ = True
    limits = check_limits(
        "assert_budget()",
        {
            "max_tool_calls": max_tool_calls,
            "max_calls_per_tool": max_calls_per_tool,
            "max_model_requests": max_model_requests,
            "max_tokens": max_tokens,
            "max_cost_usd": max_cost_usd,
            "max_duration_s": max_duration_s,
        },
    )
    usage, over, within = budget_problems(run, limits)
    if over:
        raise ToolScoreAssertionError(budget_message(over, within, usage.source))
    return usage
