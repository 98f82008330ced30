"""The exceptions of a fake tool call: the tool failed, or no registration expected the call."""

from __future__ import annotations

from typing import Any

from toolscore._engine.score.render import format_call

__all__ = ["ToolError", "UnexpectedToolCall"]


class ToolError(Exception):
    """A fake tool failed on purpose (``add(..., error="...")``, or raised by a handler).

    Agent loops turn it into the provider's error result (``answer()`` and ``serve_mcp()`` do).

    Example:
        >>> str(ToolError("city not found"))
        'city not found'
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnexpectedToolCall(Exception):
    """No registration matched a call; the test fails at teardown even when this was caught.

    Attributes:
        tool: the tool that was called.
        arguments: the arguments it was called with.
        closest: the registrations closest to the call, described (closest first).
    """

    def __init__(self, tool: str, args: dict[str, Any], closest: list[str]) -> None:
        near = f"; closest registrations: {'; '.join(closest)}" if closest else ""
        super().__init__(f"No fake tool registration matches {format_call(tool, args)}{near}")
        self.tool = tool
        self.arguments = args
        self.closest = closest


# Shown in tracebacks and pytest output under their public home.
ToolError.__module__ = "toolscore.fakes"
UnexpectedToolCall.__module__ = "toolscore.fakes"
