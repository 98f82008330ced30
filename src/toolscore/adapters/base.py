"""The normalised record of one tool call, shared by every part of ``toolscore``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["ToolCall"]


@dataclass
class ToolCall:
    """One tool call: the tool's name and its arguments, plus optional run data.

    Args:
        tool: the tool's name.
        args: the arguments. On an *expected* call ``None`` means "do not check the
            arguments" and ``{}`` means "expect no arguments"; on an actual call ``None`` is
            read as ``{}``.
        result: what the tool returned, if known.
        timestamp: when the call started (seconds since the epoch), if known.
        duration: how long it took, in seconds, if known.
        cost: what it cost, if known.
        metadata: free-form extras; ``{"is_error": True}`` or a non-empty ``"error"`` marks a
            failed call.

    Example:
        >>> ToolCall("get_weather", {"city": "NYC"}).is_error
        False
    """

    tool: str
    args: dict[str, Any] | None = None
    result: Any = None
    timestamp: float | None = None
    duration: float | None = None
    cost: float | None = None
    metadata: dict[str, Any] | None = field(default=None)

    def __post_init__(self) -> None:
        if self.metadata is None:
            self.metadata = {}

    @property
    def is_error(self) -> bool:
        """True when the call is recorded as failed (``metadata`` ``is_error`` or ``error``)."""
        meta = self.metadata or {}
        if meta.get("is_error") is True:
            return True
        return bool(meta.get("error"))

    def to_dict(self) -> dict[str, Any]:
        """The call as ``{"tool": ..., "args": ...}`` (plus run data that is set)."""
        out: dict[str, Any] = {"tool": self.tool, "args": self.args}
        for name in ("result", "timestamp", "duration", "cost"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.metadata:
            out["metadata"] = self.metadata
        return out
