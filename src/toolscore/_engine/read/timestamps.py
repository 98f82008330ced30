"""How long a run took, from the times its parts carry: tool calls (start and duration),
provider responses and messages (``created``, ``created_at``, ``timestamp``...)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from toolscore._engine.read.shapes import plain
from toolscore._engine.read.tool_call import ToolCall

__all__ = ["calls_duration", "seconds_of", "stamped_span"]

# OpenAI Chat Completions ``created``, Responses ``created_at``, Pydantic AI and chat
# messages ``timestamp``, Gemini ``create_time``.
_KEYS = ("timestamp", "created_at", "created", "create_time", "createTime")


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
    for key in _KEYS:
        seconds = _seconds(d.get(key))
        if seconds is not None:
            return seconds
    parts = d.get("parts")  # a Pydantic AI request: its parts carry the time
    if isinstance(parts, (list, tuple)) and parts and not isinstance(parts[0], (list, tuple)):
        return seconds_of(parts[0])
    return None


def stamped_span(items: Iterable[Any]) -> float | None:
    """Seconds from the first to the last timestamp of ``items``; None with fewer than two.

    Example:
        >>> stamped_span([{"created": 100}, {"text": "no time"}, {"created": 130}])
        30.0
    """
    times = [t for t in map(seconds_of, items) if t is not None]
    return max(times) - min(times) if len(times) >= 2 else None


def calls_duration(calls: list[ToolCall]) -> tuple[float, str] | None:
    """A run known by its tool calls: first start to last end when every call has its start,
    else the sum of the durations when every call has one; None otherwise."""
    if calls and all(c.timestamp is not None for c in calls):
        ends = [(c.timestamp or 0.0) + (c.duration or 0.0) for c in calls]
        took = max(ends) - min(c.timestamp or 0.0 for c in calls)
        return took, "first call's start to last call's end"
    if calls and all(c.duration is not None for c in calls):
        return sum(c.duration or 0.0 for c in calls), "sum of the calls' durations"
    return None
