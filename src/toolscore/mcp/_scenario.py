"""A scenario of the MCP harness (one planned tool call) and what running it did."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Scenario", "ScenarioResult", "excerpt"]

_DETAIL_CHARS = 300


@dataclass
class Scenario:
    """One planned tool call.

    Attributes:
        tool: the tool to call.
        arguments: the arguments to send.
        kind: ``"happy"`` (valid input: must succeed) or ``"edge"`` (bad or extreme input:
            the server must answer, an error is fine).
        description: what the scenario tries, in a few words.
    """

    tool: str
    arguments: dict[str, Any]
    kind: str
    description: str

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON (a very long string argument is shown shortened)."""
        return {
            "tool": self.tool,
            "kind": self.kind,
            "description": self.description,
            "arguments": _shorten_long(self.arguments),
        }


@dataclass
class ScenarioResult:
    """What one scenario did.

    Attributes:
        scenario: the scenario.
        ok: it passed (see the module docstring).
        is_error: the server answered with an error (or did not answer).
        duration: seconds the call took.
        detail: the error text, the failure, or ``"ok"``.
        outcome: ``"ok"`` (succeeded), ``"rejected"`` (answered with an error), ``"accepted"``
            (an edge case that succeeded), ``"timeout"``, ``"crashed"`` (the server exited or
            dropped the connection), ``"error"`` (another protocol failure) or ``"skipped"``.
        stderr_tail: the server's last stderr lines when it timed out or crashed.
    """

    scenario: Scenario
    ok: bool
    is_error: bool
    duration: float
    detail: str
    outcome: str = "ok"
    stderr_tail: str = field(default="", repr=False)

    def to_dict(self) -> dict[str, Any]:
        """Plain data for JSON."""
        out = self.scenario.to_dict()
        out.update(
            ok=self.ok,
            outcome=self.outcome,
            is_error=self.is_error,
            duration=round(self.duration, 6),
            detail=self.detail,
        )
        if self.stderr_tail:
            out["stderr_tail"] = self.stderr_tail
        return out


def _shorten_long(value: Any) -> Any:
    if isinstance(value, str) and len(value) > 200:
        return f"{value[:40]}... ({len(value)} characters)"
    if isinstance(value, dict):
        return {k: _shorten_long(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_shorten_long(v) for v in value]
    return value


def excerpt(text: str, limit: int = _DETAIL_CHARS) -> str:
    """``text`` on one line, cut to ``limit`` characters (an error detail of a result)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
