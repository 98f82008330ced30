"""The normalised record of one tool call, and the interface of trace-format adapters.

Behind :mod:`toolscore.adapters.base`, which re-exports it (the same objects).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BaseAdapter", "ToolCall", "failed_call"]


def failed_call(metadata: Mapping[str, Any]) -> bool:
    """Whether call metadata records a failure: ``is_error`` true or a non-empty ``error``."""
    return metadata.get("is_error") is True or bool(metadata.get("error"))


@dataclass
class ToolCall:
    """One tool call: the tool's name and its arguments, plus optional run data.

    Args:
        tool: the tool's name (not empty).
        args: the arguments. On an *expected* call ``None`` means "do not check the
            arguments" and ``{}`` means "expect no arguments"; on an actual call ``None`` is
            read as ``{}``.
        result: what the tool returned, if known.
        timestamp: when the call started (seconds since the epoch), if known.
        duration: how long it took, in seconds, if known.
        cost: what it cost, if known.
        metadata: free-form extras; ``{"is_error": True}`` or a non-empty ``"error"`` marks a
            failed call.

    Raises:
        ValueError: ``tool`` is empty.

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
        if not self.tool:
            raise ValueError(
                f"Tool name cannot be empty: ToolCall needs the name of the tool that was "
                f"called, got {self.tool!r}"
            )
        if self.metadata is None:
            self.metadata = {}

    @property
    def is_error(self) -> bool:
        """True when the call is recorded as failed (``metadata`` ``is_error`` or ``error``)."""
        return failed_call(self.metadata or {})

    @property
    def error(self) -> str | None:
        """The failure message of a failed call (``metadata["error"]``), else None.

        Example:
            >>> ToolCall("pay", {}, metadata={"error": "card declined"}).error
            'card declined'
        """
        metadata = self.metadata or {}
        if not failed_call(metadata):
            return None
        message = metadata.get("error")
        return str(message) if message else "the call failed (no message)"

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


class BaseAdapter(ABC):
    """Reads one trace format into ``ToolCall`` objects.

    Subclass it for a format of your own: implement :meth:`parse`. The adapters in
    :mod:`toolscore.adapters` read the built-in formats with the same readers as
    :func:`toolscore.evaluate_trace` and :func:`toolscore.auto_extract`.

    Example:
        >>> class Lines(BaseAdapter):
        ...     def parse(self, trace_data):
        ...         self._validate_trace_data(trace_data)
        ...         return [ToolCall(name) for name in trace_data]
        >>> [c.tool for c in Lines().parse(["search", "open"])]
        ['search', 'open']
    """

    @abstractmethod
    def parse(self, trace_data: dict[str, Any] | list[Any]) -> list[ToolCall]:
        """The calls in ``trace_data`` (parsed JSON), in call order.

        Raises:
            ValueError: the data is not in this adapter's format.
        """

    def _validate_trace_data(self, trace_data: Any) -> None:
        """Refuse data that cannot be a trace (None, or neither a dict nor a list)."""
        if trace_data is None:
            raise ValueError(f"{type(self).__name__}: trace data cannot be None")
        if not isinstance(trace_data, (dict, list)):
            raise ValueError(
                f"{type(self).__name__}: trace data must be a dict or a list (parsed JSON), "
                f"got {type(trace_data).__name__}"
            )
