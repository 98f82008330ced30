"""The teardown text of fake tools: registrations never used, calls nobody expected."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolscore._engine.score.render import format_call

if TYPE_CHECKING:
    from toolscore._engine.read.tool_call import ToolCall
    from toolscore._fakes.registration import Registration

__all__ = ["failure_text"]


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def failure_text(
    unused: list[Registration],
    unexpected: list[tuple[int, ToolCall, list[str]]],
    crashed: Sequence[tuple[int, ToolCall]] = (),
) -> str | None:
    """The message, or None when every registration was used and every call expected."""
    if not unused and not unexpected and not crashed:
        return None
    lines = ["The fake tools were not used as registered."]
    if unexpected:
        lines.append(
            f"{_plural(len(unexpected), 'call matched', 'calls matched')} no registration "
            "(the agent got an error result):"
        )
        for number, call, near in unexpected:
            lines.append(f"  call #{number + 1} {format_call(call.tool, call.args)}")
            if near:
                lines.extend(f"    closest: {text}" for text in near)
            else:
                lines.append("    closest: none (no registration of this tool or a similar name)")
    if crashed:
        lines.append(
            f"{_plural(len(crashed), 'call', 'calls')} made a handler raise (a bug in the fake; "
            "raise ToolError for a tool failure the agent should see):"
        )
        lines.extend(
            f"  call #{number + 1} {format_call(call.tool, call.args)}: {call.error}"
            for number, call in crashed
        )
    if unused:
        lines.append(
            f"{_plural(len(unused), 'registration was', 'registrations were')} never used:"
        )
        lines.extend(f"  {registration.describe()}" for registration in unused)
    lines.append(_hint(bool(unexpected), bool(crashed) and not unused))
    return "\n".join(lines)


def _hint(unexpected: bool, crashed: bool) -> str:
    if unexpected:
        return (
            "Hint: register the call with toolscore_tools.add(tool, args, result=...) (args "
            "may hold matchers such as ANY or Regex), or fix what leads the agent to make it."
        )
    if crashed:
        return (
            "Hint: fix the handler, or raise toolscore.fakes.ToolError from it for a failure "
            "the agent should see."
        )
    return (
        "Hint: the agent never made these calls; remove the registration, or add it with "
        "optional=True when the call may or may not happen."
    )
