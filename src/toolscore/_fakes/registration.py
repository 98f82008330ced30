"""One registration of a fake tool: what it matches, what it answers, how often it was used."""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from toolscore._engine.compare.matchers import Matcher
from toolscore._engine.compare.rule import values_match
from toolscore._engine.score.render import format_value

__all__ = ["Registration", "closest"]


@dataclass
class Registration:
    """What one ``add(...)`` registered (``args`` None: any arguments); checked when made."""

    number: int
    tool: str
    args: Any
    result: Any
    error: str | None
    delay: float
    handler: Callable[[dict[str, Any]], Any] | None
    times: int | None
    optional: bool
    schema: Mapping[str, Any] | None
    used: int = 0

    def __post_init__(self) -> None:
        _check(self)
        self.args = dict(self.args) if isinstance(self.args, Mapping) else self.args
        self.delay = float(self.delay)
        self.optional = bool(self.optional)
        self.schema = dict(self.schema) if self.schema is not None else None

    @property
    def used_up(self) -> bool:
        return self.times is not None and self.used >= self.times

    def matches(self, tool: str, args: dict[str, Any]) -> bool:
        """Whether this registration answers ``tool(args)`` now (used-up ones do not)."""
        if tool != self.tool or self.used_up:
            return False
        return self.args is None or values_match(self.args, args)

    def describe(self) -> str:
        """``#2 add('get_weather', {'city': 'NYC'}, times=1)``: the registration as written."""
        shown = "any arguments" if self.args is None else format_value(self.args, 80)
        tail = f", times={self.times}" if self.times is not None else ""
        tail += ", optional=True" if self.optional else ""
        tail += f", error={format_value(self.error, 40)}" if self.error is not None else ""
        return f"#{self.number} add({self.tool!r}, {shown}{tail})"


def _check(reg: Registration) -> None:
    """Validate the arguments of ``add(...)``; each mistake names the argument and the fix."""
    tool, args, error, handler = reg.tool, reg.args, reg.error, reg.handler
    times, schema, delay = reg.times, reg.schema, reg.delay
    if not isinstance(tool, str) or not tool:
        raise TypeError(f"add(tool): the tool's name as a non-empty string, got {tool!r}")
    if args is not None and not isinstance(args, (Mapping, Matcher)):
        raise TypeError(
            f"add({tool!r}, args): a dict of arguments (values may be matchers such as ANY or "
            f"Regex), a matcher for the whole dict, or None for any arguments; got "
            f"{type(args).__name__} {format_value(args)}"
        )
    if error is not None and not isinstance(error, str):
        raise TypeError(f"add({tool!r}, error=...): the error message as a string, got {error!r}")
    given = (("result", reg.result), ("error", error), ("handler", handler))
    answers = [name for name, value in given if value is not None]
    if len(answers) > 1:
        raise ValueError(
            f"add({tool!r}): give one of result=, error= or handler=, not "
            f"{' and '.join(answers)}; a handler can raise ToolError to fail some calls"
        )
    if handler is not None and not callable(handler):
        raise TypeError(f"add({tool!r}, handler=...): a function of the arguments, got {handler!r}")
    _check_delay(tool, delay)
    if times is not None and (isinstance(times, bool) or not isinstance(times, int) or times < 1):
        raise ValueError(
            f"add({tool!r}, times=...): how often it answers, an int >= 1 (None: no limit), "
            f"got {times!r}"
        )
    if schema is not None and not (isinstance(schema, Mapping) and schema.get("type") == "object"):
        raise ValueError(
            f"add({tool!r}, schema=...): the JSON schema of the tool's arguments, "
            f"{{'type': 'object', 'properties': {{...}}}}; got {format_value(schema)}"
        )


def _check_delay(tool: str, delay: Any) -> None:
    if (
        isinstance(delay, bool)
        or not isinstance(delay, (int, float))
        or math.isnan(delay)
        or not 0 <= delay <= 3600
    ):
        raise ValueError(
            f"add({tool!r}, delay=...): seconds to wait before answering, a number from 0 to "
            f"3600, got {delay!r}"
        )


def _why_not(reg: Registration, tool: str, args: dict[str, Any]) -> tuple[float, str]:
    """How close ``tool(args)`` comes to ``reg`` (lower is closer) and why it did not match."""
    if reg.tool != tool:
        ratio = difflib.SequenceMatcher(None, reg.tool, tool).ratio()
        return 3.0 - ratio, f"{reg.describe()}: a tool of another name, not {tool!r}"
    if reg.used_up:
        return 0.0, f"{reg.describe()}: used up (answered {reg.used} time(s))"
    expected = reg.args
    if not isinstance(expected, dict):
        return 1.0, f"{reg.describe()}: its matcher rejects the arguments"
    diffs = []
    for key, want in expected.items():
        shown = f"{key} expected {format_value(want, 40)}"
        if key not in args:
            diffs.append(f"{shown}, not passed")
        elif not values_match(want, args[key]):
            diffs.append(f"{shown}, got {format_value(args[key], 40)}")
    diffs.extend(f"{key} not expected" for key in args if key not in expected)
    share = len(diffs) / max(1, len(expected) + len(args))
    return 1.0 + share, f"{reg.describe()}: {'; '.join(diffs)}"


def closest(
    registrations: list[Registration], tool: str, args: dict[str, Any], limit: int = 3
) -> list[str]:
    """The registrations nearest to a call no registration matched, with what differs."""
    ranked = sorted(
        ((*_why_not(reg, tool, args), reg.number) for reg in registrations),
        key=lambda row: (row[0], row[2]),
    )
    # Another tool with a dissimilar name is no help to the reader.
    return [text for score, text, _ in ranked[:limit] if score < 2.6]
