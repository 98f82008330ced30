"""How values are shown: a repr that never raises and JSON data that never breaks a writer.

Arguments come from agents, so anything can arrive: lists nested thousands deep, ints with
more digits than ``str()`` converts (Python's 4,300-digit limit), objects whose ``repr``
raises, values that hold themselves. Failure texts, ``to_dict()`` and every report writer show
such a value shortened, with a marker saying what was cut, instead of failing.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_DEPTH", "jsonable", "safe_repr"]

MAX_DEPTH = 100
"""Containers nested deeper than this are shown as a marker (JSON readers stop near here)."""

# An int this long still converts with str() and reads as a number; a longer one is a marker.
_MAX_INT_BITS = 10_000  # about 3,000 digits, below Python's 4,300-digit limit
_MAX_REPR = 1_000


def _big_int(value: int) -> str:
    digits = int(abs(value).bit_length() * 0.30103) + 1
    return f"<int of about {digits:,} digits>"


class _Fallback(reprlib.Repr):
    """``reprlib`` with a depth limit, a marker for huge ints and for a ``repr`` that raises."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 12
        self.maxdict = self.maxlist = self.maxtuple = self.maxset = 20
        self.maxstring = self.maxother = self.maxlong = 200

    def repr_int(self, x: int, level: int) -> str:
        return _big_int(x) if x.bit_length() > _MAX_INT_BITS else super().repr_int(x, level)

    def repr_instance(self, x: Any, level: int) -> str:
        try:
            text = repr(x)
        except Exception as exc:
            return _unprintable(x, exc)
        return text if len(text) <= self.maxother else text[: self.maxother - 3] + "..."


def _unprintable(value: Any, exc: BaseException) -> str:
    return f"<{type(value).__name__} object: repr failed ({type(exc).__name__})>"


_fallback = _Fallback()


def safe_repr(value: Any, limit: int = _MAX_REPR) -> str:
    """``repr(value)``, shortened to ``limit`` characters; never raises.

    Example:
        >>> safe_repr(10**5000)
        '<int of about 5,001 digits>'
        >>> safe_repr("x" * 50, limit=12)
        "'xxxxxxxx..."
    """
    try:
        text = repr(value)
    except Exception:  # too deep, a huge int, or the object's own error
        try:
            text = _fallback.repr(value)
        except Exception as exc:
            text = _unprintable(value, exc)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def jsonable(value: Any, _depth: int = 0) -> Any:
    """``value`` as JSON data: mappings become objects with string keys, lists and tuples
    arrays, and every other leaf that is not JSON (matchers, objects) its shortened repr.

    Containers deeper than :data:`MAX_DEPTH` and ints too long to print become markers, so
    the result always serialises.

    Example:
        >>> from toolscore import Regex
        >>> jsonable({1: (Regex("^a"), None)})
        {'1': ["Regex('^a')", None]}
    """
    if value is None or isinstance(value, (bool, float, str)):
        return value
    if isinstance(value, int):
        return value if value.bit_length() <= _MAX_INT_BITS else _big_int(value)
    if isinstance(value, (Mapping, list, tuple)):
        if _depth >= MAX_DEPTH:
            return f"<{type(value).__name__} nested deeper than {MAX_DEPTH} levels>"
        if isinstance(value, Mapping):
            return {_key(k): jsonable(v, _depth + 1) for k, v in value.items()}
        return [jsonable(v, _depth + 1) for v in value]
    return safe_repr(value)


def _key(key: Any) -> str:
    if isinstance(key, str):
        return key
    if isinstance(key, int) and key.bit_length() > _MAX_INT_BITS:
        return _big_int(key)
    try:
        return str(key)
    except Exception:
        return safe_repr(key)
