"""Read what a call recorded: its result and metadata, whatever shape the call came in.

Used by the validators (:mod:`toolscore.validators`) and the side-effect metric.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore._engine.read.tool_call import ToolCall

__all__ = ["as_call", "field_of", "recorded_int"]


def as_call(call: Any) -> ToolCall:
    """``call`` as a :class:`~toolscore.adapters.base.ToolCall` (dicts are read like traces)."""
    from toolscore._engine.read.inputs import actual_calls
    from toolscore._engine.read.tool_call import ToolCall

    if isinstance(call, ToolCall):
        return call
    return actual_calls([call]).tool_calls()[0]


def field_of(call: ToolCall, names: tuple[str, ...]) -> Any:
    """The first of ``names`` found in the call's result (a dict), then in its metadata."""
    for source in (call.result, call.metadata or {}):
        if isinstance(source, Mapping):
            for name in names:
                if source.get(name) is not None:
                    return source[name]
    return None


def recorded_int(call: ToolCall, names: tuple[str, ...]) -> int | None:
    """A bare integer result, else the first of ``names`` in the result or metadata, as an
    integer (``"200"`` too); ``None`` when there is none (booleans never count)."""
    raw = call.result
    if not isinstance(raw, int) or isinstance(raw, bool):
        raw = field_of(call, names)
    if isinstance(raw, bool):
        return None
    try:
        return int(raw)
    except (TypeError, ValueError):
        return None
