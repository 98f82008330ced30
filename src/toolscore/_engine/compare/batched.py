"""Matchers decided in one batch before pairing (``Matcher.batched``, e.g. ``Semantic``).

The evaluation asks :func:`has_batched` first (plain values are skipped by their type), then
:func:`prefetch_batched` collects, for every batched matcher in an expected argument, the
same argument of each actual call to the same tool, and hands them to the matcher's class
once. The compare stage knows only the hook; the judge behind ``Semantic`` lives in ``judge/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolscore._engine.compare.matchers import Matcher

__all__ = ["batched_parts", "has_batched", "prefetch_batched"]

# Values of these exact types are never matchers (a matcher is an instance of a Matcher
# subclass); checking the type first spares the costly ABC isinstance on every plain value.
_PLAIN_VALUES = frozenset((str, int, float, bool, type(None), list, dict, tuple))


def batched_parts(value: Any) -> list[Matcher]:
    """The batched matchers in ``value``: itself, or inside ``&``, ``|`` and ``~``."""
    if isinstance(value, Matcher) and type(value).batched:
        return [value]
    inner = getattr(value, "inner", None)
    parts = getattr(value, "parts", None) or ([inner] if isinstance(inner, Matcher) else [])
    found: list[Matcher] = []
    for part in parts:
        found.extend(batched_parts(part))
    return found


def has_batched(all_args: Sequence[dict[str, Any] | None]) -> bool:
    """True when a batched matcher sits in some expected argument (composed or not)."""
    plain = _PLAIN_VALUES
    for args in all_args:
        if args and not plain.issuperset(map(type, args.values())):
            break
    else:
        return False
    return any(
        type(value) not in plain and isinstance(value, Matcher) and batched_parts(value)
        for args in all_args
        if args
        for value in args.values()
    )


def prefetch_batched(
    gold_tools: Sequence[str],
    gold_args: Sequence[dict[str, Any] | None],
    trace_tools: Sequence[str],
    trace_args: Sequence[dict[str, Any] | None],
) -> None:
    """Call ``prefetch`` once per batched matcher class with everything its matchers may meet."""
    by_tool: dict[str, list[dict[str, Any]]] = {}
    for tool, args in zip(trace_tools, trace_args, strict=True):
        if args:
            by_tool.setdefault(tool, []).append(args)
    wanted: dict[type[Matcher], list[tuple[Matcher, str, list[Any]]]] = {}
    for tool, args in zip(gold_tools, gold_args, strict=True):
        for name, value in (args or {}).items():
            for matcher in batched_parts(value):
                seen = [actual[name] for actual in by_tool.get(tool, []) if name in actual]
                wanted.setdefault(type(matcher), []).append((matcher, f"{tool}.{name}", seen))
    for kind, entries in wanted.items():
        kind.prefetch(entries)
