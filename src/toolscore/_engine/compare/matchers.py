"""Argument matcher objects for use inside expected-args dicts.

Behind :mod:`toolscore.matchers`, which re-exports it (the same objects). Matchers decided in
one batch before pairing (``Matcher.batched``, e.g. ``Semantic``; the judge lives in ``judge/``)
are found by :func:`has_batched` and fed by :func:`prefetch_batched`.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

__all__ = ["ANY", "Approx", "Contains", "IsType", "Matcher", "OneOf", "Regex"]


class Matcher(ABC):
    """Abstract base class for all argument matchers.

    Subclasses implement :meth:`matches`, which ``__eq__`` calls. ``__hash__`` is kept as
    ``object.__hash__`` so matchers stay usable as dict keys and set members.
    """

    @abstractmethod
    def matches(self, value: Any) -> bool:
        """Return True when ``value`` satisfies this matcher."""

    def __eq__(self, other: object) -> bool:
        # A matcher must never make a comparison blow up: a failing check is a non-match.
        try:
            return bool(self.matches(other))
        except Exception:
            return False

    __hash__ = object.__hash__

    #: True for a matcher whose verdicts cost a round trip (a judge): the evaluation then
    #: collects what each such matcher may meet and calls :meth:`prefetch` once per class.
    batched: ClassVar[bool] = False

    @classmethod  # noqa: B027 (a hook most matchers leave empty)
    def prefetch(cls, wanted: Sequence[tuple[Matcher, str, list[Any]]]) -> None:
        """Fetch in one batch what ``matches()`` will need: ``wanted`` holds, per matcher of
        this class, ``(matcher, "tool.argument", actual values it may meet)``."""

    def __and__(self, other: object) -> Matcher:
        return _AllOf(self, _as_matcher(other))

    def __rand__(self, other: object) -> Matcher:
        return _AllOf(_as_matcher(other), self)

    def __or__(self, other: object) -> Matcher:
        return _AnyOf(self, _as_matcher(other))

    def __ror__(self, other: object) -> Matcher:
        return _AnyOf(_as_matcher(other), self)

    def __invert__(self) -> Matcher:
        return _Not(self)


# Exact types no matcher has: checking the type first spares the costly ABC isinstance on
# every plain value.
PLAIN_TYPES = frozenset((str, int, float, bool, type(None), list, dict, tuple))


def _as_matcher(value: object) -> Matcher:
    """Wrap a plain value so ``Regex("a") | "b"`` means "matches Regex('a') or equals 'b'"."""
    return value if isinstance(value, Matcher) else _Equals(value)


def _safe_eq(expected: object, actual: object) -> bool:
    """``expected == actual``, False when it raises (user objects, numpy arrays' ``==``)."""
    try:
        return bool(expected == actual)
    except Exception:
        return False


class _Equals(Matcher):
    """A plain value used inside a composition; compares with ``==``."""

    def __init__(self, value: object) -> None:
        self.value = value

    def matches(self, value: Any) -> bool:
        return _safe_eq(self.value, value)

    def __repr__(self) -> str:
        return repr(self.value)


class _AnyMatcher(Matcher):
    """Matches any value (the :data:`ANY` singleton)."""

    def matches(self, value: Any) -> bool:
        return True

    def __repr__(self) -> str:
        return "ANY"


ANY: _AnyMatcher = _AnyMatcher()
"""Module-level singleton; matches any value."""


class Regex(Matcher):
    """Full-match of a regular expression against a string; non-strings never match.

    Args:
        pattern: the regular expression (``re.fullmatch`` semantics).
        flags: ``re`` flags, e.g. ``re.IGNORECASE``.

    Example:
        >>> Regex(r"FL-\\d+") == "FL-123"
        True
        >>> Regex(r"FL-\\d+") == "FL-123x"
        False
    """

    def __init__(self, pattern: str, flags: int = 0) -> None:
        if not isinstance(pattern, str):
            raise TypeError(
                f"Regex(pattern) takes a string pattern, got {type(pattern).__name__}: {pattern!r}"
            )
        self.pattern = pattern
        self.flags = flags
        try:
            self._compiled = re.compile(pattern, flags)
        except re.error as exc:
            raise ValueError(
                f"Regex({pattern!r}) is not a valid regular expression: {exc}"
            ) from None

    def matches(self, value: Any) -> bool:
        return isinstance(value, str) and self._compiled.fullmatch(value) is not None

    def __repr__(self) -> str:
        pattern = _pattern_repr(self.pattern)
        if not self.flags:
            return f"Regex({pattern})"
        names = [f"re.{f.name}" for f in re.RegexFlag if f.name and self.flags & f.value]
        return f"Regex({pattern}, flags={' | '.join(names) if names else self.flags})"


def _pattern_repr(pattern: str) -> str:
    """A raw-string literal (``r'FL-\\d+'``) when one can spell the pattern, else ``repr``."""
    plain = repr(pattern)
    if "\\" not in pattern or pattern.endswith("\\") or not pattern.isprintable():
        return plain
    for quote in ("'", '"'):
        if quote not in pattern:
            return f"r{quote}{pattern}{quote}"
    return plain


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Approx(Matcher):
    """Numeric closeness: ``|actual - value| <= max(rel * |value|, abs)``; never matches bool.

    Args:
        value: the expected number.
        rel: relative tolerance (default ``1e-6``).
        abs: absolute tolerance (default ``0.0``; unlike ``pytest.approx``, so an expected
            ``0`` needs an exact ``0`` unless ``abs`` is given).

    Example:
        >>> Approx(40.71, rel=0.01) == 40.7
        True
        >>> Approx(1) == True
        False
    """

    def __init__(self, value: float, rel: float = 1e-6, abs: float = 0.0) -> None:
        for name, number in (("value", value), ("rel", rel), ("abs", abs)):
            if not _is_number(number) or (isinstance(number, float) and math.isnan(number)):
                raise TypeError(f"Approx({name}=...) must be a number, got {number!r}")
        if rel < 0 or abs < 0:
            raise ValueError(f"Approx tolerances must be >= 0, got rel={rel!r}, abs={abs!r}")
        self.value = value
        self.rel = rel
        self.abs = abs

    def matches(self, value: Any) -> bool:
        if not _is_number(value):
            return False
        if value == self.value:
            return True
        try:
            diff = math.fabs(value - self.value)
        except OverflowError:
            return False
        return diff <= max(self.rel * math.fabs(self.value), self.abs)

    def __repr__(self) -> str:
        parts = [repr(self.value)]
        if self.rel != 1e-6:
            parts.append(f"rel={self.rel!r}")
        if self.abs != 0.0:
            parts.append(f"abs={self.abs!r}")
        return f"Approx({', '.join(parts)})"


class Contains(Matcher):
    """Membership: ``item in value`` for str, list, tuple, set and dict (keys).

    Items inside lists may be matchers: ``Contains(Regex("a.*"))`` matches ``["abc"]``.

    Example:
        >>> Contains("NY") == "NYC"
        True
        >>> Contains("x") == {"x": 1}
        True
        >>> Contains(1) == 1
        False
    """

    def __init__(self, item: object) -> None:
        self.item = item

    def matches(self, value: Any) -> bool:
        if isinstance(value, str):
            return isinstance(self.item, str) and self.item in value
        if isinstance(value, (list, tuple)):
            return any(_safe_eq(self.item, element) for element in value)
        if isinstance(value, (set, frozenset, dict)):
            try:
                if self.item in value:
                    return True
            except TypeError:  # unhashable item: fall back to comparing one by one
                pass
            return isinstance(self.item, Matcher) and any(self.item == key for key in value)
        return False

    def __repr__(self) -> str:
        return f"Contains({self.item!r})"


class OneOf(Matcher):
    """The value equals one of the candidates (candidates may be matchers).

    Example:
        >>> OneOf("celsius", "fahrenheit") == "celsius"
        True
        >>> OneOf(Regex("a+"), 3) == "aaa"
        True
    """

    def __init__(self, *values: object) -> None:
        if not values:
            raise TypeError("OneOf() needs at least one candidate value")
        self.values = values

    def matches(self, value: Any) -> bool:
        return any(_safe_eq(candidate, value) for candidate in self.values)

    def __repr__(self) -> str:
        return f"OneOf({', '.join(repr(v) for v in self.values)})"


class IsType(Matcher):
    """Type check with ``isinstance``; ``bool`` matches only when listed explicitly.

    Example:
        >>> IsType(int) == 3
        True
        >>> IsType(int) == True
        False
        >>> IsType(bool) == True
        True
    """

    def __init__(self, *types: type) -> None:
        if not types:
            raise TypeError("IsType() needs at least one type, e.g. IsType(int, float)")
        for t in types:
            if not isinstance(t, type):
                raise TypeError(
                    f"IsType() takes types, got {t!r}; write IsType(str), not IsType('str')"
                )
        self.types = types

    def matches(self, value: Any) -> bool:
        if isinstance(value, bool):
            # bool subclasses int, but IsType(int) meaning "or True" is a footgun: only an
            # explicit bool (or object) accepts booleans.
            return bool in self.types or object in self.types
        return isinstance(value, self.types)

    def __repr__(self) -> str:
        return f"IsType({', '.join(t.__name__ for t in self.types)})"


class _Combination(Matcher):
    """Matchers joined by one operator; nested joins of the same kind are flattened."""

    parts: tuple[Matcher, ...]
    _symbol: ClassVar[str]

    def __init__(self, *parts: Matcher) -> None:
        flat: list[Matcher] = []
        for part in parts:
            flat.extend(part.parts if isinstance(part, type(self)) else (part,))
        self.parts = tuple(flat)

    def __repr__(self) -> str:
        return f" {self._symbol} ".join(_wrap(part, _Combination) for part in self.parts)


class _AllOf(_Combination):
    """Both/all matchers must match (``a & b``)."""

    _symbol = "&"

    def matches(self, value: Any) -> bool:
        return all(part == value for part in self.parts)


class _AnyOf(_Combination):
    """At least one matcher must match (``a | b``)."""

    _symbol = "|"

    def matches(self, value: Any) -> bool:
        return any(part == value for part in self.parts)


class _Not(Matcher):
    """The matcher must not match (``~a``)."""

    def __init__(self, inner: Matcher) -> None:
        self.inner = inner

    def matches(self, value: Any) -> bool:
        return not self.inner.__eq__(value)

    def __invert__(self) -> Matcher:
        return self.inner

    def __repr__(self) -> str:
        return f"~{_wrap(self.inner, _Combination)}"


def _wrap(part: Matcher, needs_parens: type) -> str:
    text = repr(part)
    return f"({text})" if isinstance(part, needs_parens) else text


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
    plain = PLAIN_TYPES
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
