"""The one comparison rule: every metric, the failure text and the reports use it.

Lenient (default): a matcher decides first; then equality, with int and float compared
numerically (bool is not a number), strings compared after stripping surrounding white space,
and lists, tuples and dicts compared element by element with this same rule.

Strict: exact types and values, recursing; matchers are still honoured.

``canonical()`` gives a hashable form that is equal for two values exactly when the rule says
they are equal, so identical argument sets can be paired by hashing (see ``align/pairing.py``).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator, Mapping
from typing import Any

from toolscore._engine.compare.matchers import PLAIN_TYPES, Matcher, _safe_eq

__all__ = [
    "NOT_CANONICAL",
    "SelfContainingValue",
    "args_satisfy",
    "canonical",
    "contains_matcher",
    "find_cycle",
    "values_match",
    "walk",
]


def values_match(expected: Any, actual: Any, strict: bool = False) -> bool:
    """Apply the comparison rule to one expected value and one actual value.

    Raises:
        SelfContainingValue: a value holds itself (``d["self"] = d``), which has no end to
            compare.
    """
    try:
        return _match(expected, actual, strict)
    except RecursionError:
        # Nested past the recursion limit (JSON text can be), or holding itself.
        for value in (expected, actual):
            where = find_cycle(value)
            if where is not None:
                raise SelfContainingValue(where) from None
        return _match_nested(expected, actual, strict)


def _rule(e: Any, a: Any, strict: bool) -> bool | list[tuple[Any, Any]]:
    """The rule, one level: the verdict, or the pairs of items that decide it.

    Written once; the recursive walk and the loop for very deep values both apply it. The
    exact-type tests come first because they are the common case (the same verdicts as the
    isinstance tests after them, which catch subclasses).
    """
    kind = type(e)
    if strict:
        if kind is not type(a):
            return False
    elif kind is type(a) and (kind is str or kind is int):
        return bool(e.strip() == a.strip() if kind is str else e == a)
    if isinstance(e, dict):
        if not isinstance(a, dict) or e.keys() != a.keys():
            return False
        return [(v, a[k]) for k, v in e.items()]
    if isinstance(e, (list, tuple)):
        if not isinstance(a, (list, tuple)) or len(e) != len(a):
            return False
        return list(zip(e, a, strict=True))
    if strict:
        return _safe_eq(e, a)
    if isinstance(e, bool) or isinstance(a, bool):
        return type(e) is type(a) and e == a
    if isinstance(e, (int, float)) and isinstance(a, (int, float)):
        return bool(e == a)
    if isinstance(e, str) and isinstance(a, str):
        return e.strip() == a.strip()
    return _safe_eq(e, a)


def _match(expected: Any, actual: Any, strict: bool) -> bool:
    if type(expected) not in PLAIN_TYPES and isinstance(expected, Matcher):
        return bool(expected == actual)
    verdict = _rule(expected, actual, strict)
    if verdict is True or verdict is False:
        return verdict
    return all(_match(e, a, strict) for e, a in verdict)


def _match_nested(expected: Any, actual: Any, strict: bool) -> bool:
    """:func:`values_match` without recursion: the pairs still to compare on a stack."""
    pending = [(expected, actual)]
    while pending:
        e, a = pending.pop()
        if isinstance(e, Matcher):
            if e != a:  # as values_match: the matcher decides
                return False
            continue
        verdict = _rule(e, a, strict)
        if verdict is False:
            return False
        if verdict is not True:
            pending.extend(reversed(verdict))
    return True


class SelfContainingValue(ValueError):
    """A value that holds itself (``d["self"] = d``): it has no end to compare or show.

    Attributes:
        path: where, inside the value, it refers back to itself (``"['self']"``).
    """

    def __init__(self, path: str) -> None:
        super().__init__(
            f"a value contains itself (at {path}): tool arguments must be plain data (a tree);"
            " pass a copy without the back-reference"
        )
        self.path = path


def find_cycle(value: Any) -> str | None:
    """Where ``value`` holds itself, as an index path (``"['self']"``); None for a tree.

    Example:
        >>> d = {"a": [1]}
        >>> d["a"].append(d)
        >>> find_cycle(d)
        "['a'][1]"
    """
    return next((where for where, _, again in walk(value) if again), None)


def walk(value: Any, path: str = "", *, dotted: bool = False) -> Iterator[tuple[str, Any, bool]]:
    """``(path, item, again)`` for ``value`` and everything inside it, depth first, in order.

    Mappings, lists and tuples are entered, by a loop, so any depth is read. ``again`` is True
    for a container met again inside itself, which is not entered twice. Paths are index paths
    (``['a'][1]``), or with ``dotted`` key paths (``a.b[1]``).
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    inside: list[int] = []  # ids of the containers on the current path
    on_path: set[int] = set()
    while stack:
        item, where, depth = stack.pop()
        while len(inside) > depth:
            on_path.discard(inside.pop())
        if isinstance(item, Mapping):
            children = [
                (v, (f"{where}.{k}" if where else str(k)) if dotted else f"{where}[{k!r}]")
                for k, v in item.items()
            ]
        elif isinstance(item, (list, tuple)):
            children = [(v, f"{where}[{n}]") for n, v in enumerate(item)]
        else:
            yield where, item, False
            continue
        again = id(item) in on_path
        yield where, item, again
        if not again:
            inside.append(id(item))
            on_path.add(id(item))
            stack.extend((v, p, depth + 1) for v, p in reversed(children))


def contains_matcher(value: Any) -> bool:
    """True when a matcher sits anywhere inside ``value``."""
    kind = type(value)
    if kind is str or kind is int or kind is float or kind is bool or value is None:
        return False
    if kind not in PLAIN_TYPES and isinstance(value, Matcher):
        return True
    if isinstance(value, dict):
        return any(contains_matcher(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(contains_matcher(v) for v in value)
    return False


class _Sentinel:
    """A form no user value has (users never hold these objects)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NOT_CANONICAL: Any = _Sentinel("NOT_CANONICAL")
"""Returned by :func:`canonical` for values the hash shortcut cannot handle (NaN, objects)."""


class _Fail(Exception):
    pass


def canonical(value: Any, strict: bool = False) -> Any:
    """A hashable form: equal forms iff the rule says the values are equal (no matchers).

    Returns ``NOT_CANONICAL`` for values that have no such form (matchers, NaN, unknown
    objects, values nested past the recursion limit); callers then fall back to
    :func:`values_match`.

    Raises:
        SelfContainingValue: the value holds itself.
    """
    try:
        return _canon_strict(value) if strict else _canon_lenient(value)
    except _Fail:
        return NOT_CANONICAL
    except RecursionError:
        where = find_cycle(value)
        if where is not None:
            raise SelfContainingValue(where) from None
        return NOT_CANONICAL


# Forms are untagged where Python's own == already agrees with the rule (str, int, float,
# None, tuples for sequences, frozensets for mappings: no two of these kinds are ever equal).
# Only what Python would confuse is tagged: True == 1 (bools), and in strict mode 1 == 1.0
# (floats) and [1] vs (1,) (tuples).
_TRUE, _FALSE = _Sentinel("<true>"), _Sentinel("<false>")
_FLOAT, _TUPLE = _Sentinel("<float>"), _Sentinel("<tuple>")
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
    args = args or {}
    return all(k in args and values_match(v, args[k], strict) for k, v in wanted.items())
