"""The one comparison rule: every metric, the failure text and the reports use it.

Lenient (default): a matcher decides first; then equality, with int and float compared
numerically (bool is not a number), strings compared after stripping surrounding white space,
and lists, tuples and dicts compared element by element with this same rule.

Strict: exact types and values, recursing; matchers are still honoured.

``canonical()`` gives a hashable form that is equal for two values exactly when the rule says
they are equal, so identical argument sets can be paired by hashing (see ``_align``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping
from typing import Any

from toolscore._engine.matchers import Matcher, _safe_eq

__all__ = ["NOT_CANONICAL", "args_satisfy", "canonical", "contains_matcher", "values_match"]


def values_match(expected: Any, actual: Any, strict: bool = False) -> bool:
    """Apply the comparison rule to one expected value and one actual value."""
    try:
        return _match(expected, actual, strict)
    except RecursionError:
        # Values nested past the recursion limit (JSON text can be): the same rule, by a loop.
        return _match_nested(expected, actual, strict)


# Exact types no matcher has: checking the type first spares the costly ABC isinstance on
# every plain expected value.
_PLAIN_TYPES = frozenset((str, int, float, bool, type(None), list, dict, tuple))


def _match(expected: Any, actual: Any, strict: bool) -> bool:
    if type(expected) not in _PLAIN_TYPES and isinstance(expected, Matcher):
        return bool(expected == actual)
    if strict:
        return _strict(expected, actual)
    return _lenient(expected, actual)


def _match_nested(expected: Any, actual: Any, strict: bool) -> bool:
    """:func:`values_match` without recursion: the pairs still to compare on a stack."""
    pending = [(expected, actual)]
    while pending:
        e, a = pending.pop()
        if isinstance(e, Matcher):
            matched = bool(e == a)  # as values_match: the matcher decides
            if not matched:
                return False
            continue
        step = _strict_step(e, a) if strict else _lenient_step(e, a)
        if step is False:
            return False
        if step is not True:
            pending.extend(step)
    return True


# The rule once more, a level at a time, for values too deep for the recursive walk. Kept
# apart from _lenient/_strict on purpose: driving the recursive walk through these steps made
# values_match 25-38 % slower on ordinary arguments (measured with timeit on a 5-key dict).
def _lenient_step(e: Any, a: Any) -> bool | list[tuple[Any, Any]]:
    """One level of the lenient rule: the verdict, or the pairs of items to compare next."""
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) is type(a) and e == a
    if isinstance(e, (int, float)) and isinstance(a, (int, float)):
        return bool(e == a)
    if isinstance(e, str) and isinstance(a, str):
        return e.strip() == a.strip()
    if isinstance(e, dict):
        if not isinstance(a, dict) or e.keys() != a.keys():
            return False
        return [(v, a[k]) for k, v in e.items()]
    if isinstance(e, (list, tuple)):
        if not isinstance(a, (list, tuple)) or len(e) != len(a):
            return False
        return list(zip(e, a, strict=True))
    return _safe_eq(e, a)


def _strict_step(e: Any, a: Any) -> bool | list[tuple[Any, Any]]:
    """One level of the strict rule: the verdict, or the pairs of items to compare next."""
    if type(e) is not type(a):
        return False
    if isinstance(e, dict):
        if e.keys() != a.keys():
            return False
        return [(v, a[k]) for k, v in e.items()]
    if isinstance(e, (list, tuple)):
        if len(e) != len(a):
            return False
        return list(zip(e, a, strict=True))
    return _safe_eq(e, a)


def _lenient(expected: Any, actual: Any) -> bool:
    # The commonest cases first, by exact type (the same verdicts as the checks below).
    kind = type(expected)
    if kind is dict:
        if not isinstance(actual, dict) or expected.keys() != actual.keys():
            return False
        for k, v in expected.items():  # all(), with equal plain strings and ints inline
            a = actual[k]
            vk = type(v)
            if vk is type(a) and (vk is str or vk is int):
                if (v.strip() != a.strip()) if vk is str else v != a:
                    return False
            elif not _match(v, a, False):
                return False
        return True
    if kind is type(actual) and (kind is str or kind is int):
        return bool(expected.strip() == actual.strip() if kind is str else expected == actual)
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return bool(expected == actual)
    if isinstance(expected, str) and isinstance(actual, str):
        return expected.strip() == actual.strip()
    if isinstance(expected, dict):
        if not isinstance(actual, dict) or expected.keys() != actual.keys():
            return False
        return all(_match(v, actual[k], False) for k, v in expected.items())
    if isinstance(expected, (list, tuple)):
        if not isinstance(actual, (list, tuple)) or len(expected) != len(actual):
            return False
        return all(_match(e, a, False) for e, a in zip(expected, actual, strict=False))
    return _safe_eq(expected, actual)


def _strict(expected: Any, actual: Any) -> bool:
    if type(expected) is not type(actual):
        return False
    if isinstance(expected, dict):
        if expected.keys() != actual.keys():
            return False
        return all(_match(v, actual[k], True) for k, v in expected.items())
    if isinstance(expected, (list, tuple)):
        if len(expected) != len(actual):
            return False
        return all(_match(e, a, True) for e, a in zip(expected, actual, strict=False))
    return _safe_eq(expected, actual)


def contains_matcher(value: Any) -> bool:
    """True when a matcher sits anywhere inside ``value``."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return False
    if kind not in _PLAIN_TYPES and isinstance(value, Matcher):
        return True
    if isinstance(value, dict):
        return any(contains_matcher(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(contains_matcher(v) for v in value)
    return False


class _NotCanonical:
    def __repr__(self) -> str:
        return "NOT_CANONICAL"


NOT_CANONICAL: Any = _NotCanonical()
"""Returned by :func:`canonical` for values the hash shortcut cannot handle (NaN, objects)."""


class _Fail(Exception):
    pass


def canonical(value: Any, strict: bool = False) -> Any:
    """A hashable form: equal forms iff the rule says the values are equal (no matchers).

    Returns ``NOT_CANONICAL`` for values that have no such form (matchers, NaN, unknown
    objects, values nested past the recursion limit); callers then fall back to
    :func:`values_match`.
    """
    try:
        return _canon_strict(value) if strict else _canon_lenient(value)
    except (_Fail, RecursionError):
        return NOT_CANONICAL


class _Sentinel:
    """A form no user value has (users never hold these objects)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"<{self.name}>"


# Forms are untagged where Python's own == already agrees with the rule (str, int, float,
# None, tuples for sequences, frozensets for mappings: no two of these kinds are ever equal).
# Only what Python would confuse is tagged: True == 1 (bools), and in strict mode 1 == 1.0
# (floats) and [1] vs (1,) (tuples).
_TRUE, _FALSE = _Sentinel("true"), _Sentinel("false")
_FLOAT, _TUPLE = _Sentinel("float"), _Sentinel("tuple")
_KEY_TYPES = frozenset((str, int))


def _mapping(value: dict[Any, Any], canon: Any) -> Hashable:
    keys = value.keys()
    # Keys compare with Python's == in the rule too; only str and int keys (not bool) are
    # kept apart the same way by hashing.
    if not _KEY_TYPES.issuperset(map(type, keys)):
        for key in keys:
            if isinstance(key, bool) or not isinstance(key, (str, int)):
                raise _Fail
    return frozenset(zip(keys, map(canon, value.values()), strict=False))


def _canon_lenient(value: Any) -> Any:
    kind = type(value)
    if kind is str:
        return value.strip()
    if kind is int:
        return value
    if kind is float:
        if value != value:  # NaN equals nothing
            raise _Fail
        return value  # 1 == 1.0 and hash(1) == hash(1.0): numbers compare numerically
    if kind is dict:
        return _mapping(value, _canon_lenient)
    if kind is list or kind is tuple:
        return tuple(map(_canon_lenient, value))
    if value is None:
        return None
    if kind is bool:
        return _TRUE if value else _FALSE
    # Subclasses (enums, str and dict subclasses) read as their base type, as the rule does.
    if isinstance(value, str):
        return str.strip(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value):
            raise _Fail
        return float(value)
    if isinstance(value, (list, tuple)):
        return tuple(map(_canon_lenient, value))
    if isinstance(value, dict):
        return _mapping(value, _canon_lenient)
    raise _Fail


def _canon_strict(value: Any) -> Any:
    kind = type(value)
    if kind is str or kind is int:
        return value
    if kind is float:
        if value != value:
            raise _Fail
        return (_FLOAT, value)
    if kind is dict:
        return _mapping(value, _canon_strict)
    if kind is list:
        return tuple(map(_canon_strict, value))
    if kind is tuple:
        return (_TUPLE, *map(_canon_strict, value))
    if value is None:
        return None
    if kind is bool:
        return _TRUE if value else _FALSE
    raise _Fail


def args_satisfy(args: Mapping[str, Any] | None, wanted: Mapping[str, Any], strict: bool) -> bool:
    """Every argument named in ``wanted`` is present in ``args`` and matches (others ignored).

    The rule behind ``expect().does_not_call()``, ``.calls()`` and forbidden-call policies.

    Example:
        >>> args_satisfy({"path": "/etc/passwd", "mode": "r"}, {"path": "/etc/passwd"}, False)
        True
    """
    if not wanted:
        return True
    if not args:
        return False
    return all(k in args and values_match(v, args[k], strict) for k, v in wanted.items())
