"""Matchers written back as JSON: the inverse of the gold files' ``$`` encoding.

Snapshots store the expected calls this way, so a matcher a person wrote into a snapshot
survives re-recording. :mod:`toolscore._engine.read.gold_files` reads the encoding.
"""

from __future__ import annotations

import math
import re
from typing import Any

from toolscore._engine.compare.matchers import (
    Approx,
    Contains,
    IsType,
    Matcher,
    OneOf,
    Regex,
    _AllOf,
    _AnyMatcher,
    _AnyOf,
    _Equals,
    _Not,
)

__all__ = ["REGEX_FLAGS", "TYPE_NAMES", "MatcherEncodingError", "encode_value"]

#: The letters of ``"flags"`` in ``{"$regex": ..., "flags": "im"}``.
REGEX_FLAGS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}
#: The names of ``{"$type": ...}``; a type is written back by its first name.
TYPE_NAMES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "integer": (int,),
    "float": (float,),
    "number": (int, float),
    "str": (str,),
    "string": (str,),
    "bool": (bool,),
    "boolean": (bool,),
    "list": (list,),
    "array": (list,),
    "dict": (dict,),
    "object": (dict,),
    "null": (type(None),),
    "none": (type(None),),
}


class MatcherEncodingError(ValueError):
    """A value cannot be written as JSON (the message names where it sits and why)."""


# Each type's first name (read in reverse, so the first one is written last).
_TYPE_SPELLING = {types[0]: name for name, types in reversed(TYPE_NAMES.items()) if len(types) == 1}
_WRITABLE_FLAGS = re.UNICODE | re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE


def _encode_flags(flags: int, where: str) -> str:
    if flags & ~_WRITABLE_FLAGS:
        raise MatcherEncodingError(
            f"{where}: Regex flags {flags!r} cannot be written as JSON; "
            "only re.IGNORECASE, re.MULTILINE, re.DOTALL and re.VERBOSE can"
        )
    return "".join(letter for letter, flag in REGEX_FLAGS.items() if flags & flag)


def _encode_approx(m: Approx, where: str) -> dict[str, Any]:
    for what, number in (("value", m.value), ("rel", m.rel), ("abs", m.abs)):
        if isinstance(number, float) and not math.isfinite(number):
            raise MatcherEncodingError(
                f"{where}: {m!r} has no JSON form: its {what} {number!r} is not a finite "
                "number, and JSON has no infinity"
            )
    spec: dict[str, Any] = {"$approx": m.value}
    if m.rel != 1e-6:
        spec["rel"] = m.rel
    if m.abs != 0.0:
        spec["abs"] = m.abs
    return spec


def _encode_type(m: IsType, where: str) -> dict[str, Any]:
    names = []
    for t in m.types:
        if t not in _TYPE_SPELLING:
            raise MatcherEncodingError(
                f"{where}: IsType({t.__name__}) cannot be written as JSON; "
                f"JSON type names cover {', '.join(sorted(set(_TYPE_SPELLING.values())))}"
            )
        names.append(_TYPE_SPELLING[t])
    return {"$type": names[0] if len(names) == 1 else names}


def _encode_matcher(m: Matcher, where: str) -> Any:
    if isinstance(m, _AnyMatcher):
        return {"$any": True}
    if isinstance(m, Regex):
        spec: dict[str, Any] = {"$regex": m.pattern}
        letters = _encode_flags(m.flags, where)
        if letters:
            spec["flags"] = letters
        return spec
    if isinstance(m, Approx):
        return _encode_approx(m, where)
    if isinstance(m, OneOf):
        return {
            "$one_of": [encode_value(v, f"{where}.$one_of[{i}]") for i, v in enumerate(m.values)]
        }
    if isinstance(m, Contains):
        return {"$contains": encode_value(m.item, f"{where}.$contains")}
    if isinstance(m, IsType):
        return _encode_type(m, where)
    if isinstance(m, (_AllOf, _AnyOf)):
        key = "$all_of" if isinstance(m, _AllOf) else "$any_of"
        return {key: [encode_value(p, f"{where}.{key}[{i}]") for i, p in enumerate(m.parts)]}
    if isinstance(m, _Not):
        return {"$not": encode_value(m.inner, f"{where}.$not")}
    if isinstance(m, _Equals):
        return encode_value(m.value, where)
    from toolscore._engine.bfcl.matchers import BFCLDict, BFCLString  # imported when first needed

    if isinstance(m, BFCLString):
        return m.to_json()
    if isinstance(m, BFCLDict):
        # decode_value reads the answer as written: plain JSON, no matchers inside.
        return {"$bfcl_dict": _encode(m.answer, f"{where}.$bfcl_dict", literal=True)}
    raise MatcherEncodingError(
        f"{where}: {m!r} is a custom matcher, which has no JSON form; a file can hold ANY, "
        "Regex, Approx, OneOf, Contains, IsType, BFCLString, BFCLDict and their &, |, ~ "
        "combinations"
    )


def encode_value(value: Any, where: str = "value") -> Any:
    """The JSON form of ``value``: matchers in their ``$`` encoding, the inverse of
    :func:`decode_value` (``decode_value(encode_value(v)) == v`` for every encodable value).

    A plain dict with ``$`` keys is wrapped in ``{"$literal": ...}`` so it reads back as data;
    tuples become lists. ``where`` locates ``value`` in error messages (``calls[0].args.city``).

    Raises:
        MatcherEncodingError: a value JSON cannot hold (a ``datetime``, a set, NaN or
            infinity, also as an ``Approx`` bound, a non-string key, a custom matcher); the
            message names where it sits.

    Example:
        >>> encode_value({"city": Regex("NYC|JFK"), "days": 3})
        {'city': {'$regex': 'NYC|JFK'}, 'days': 3}
    """
    return _encode(value, where, literal=False)


def _encode(value: Any, where: str, literal: bool) -> Any:
    if isinstance(value, Matcher):
        if literal:
            raise MatcherEncodingError(
                f"{where}: a dict whose keys start with '$' is stored as a literal, which "
                f"cannot hold a matcher ({value!r})"
            )
        return _encode_matcher(value, where)
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise MatcherEncodingError(f"{where}: {value!r} has no JSON form; use a string")
        return value
    if isinstance(value, (list, tuple)):
        return [_encode(v, f"{where}[{i}]", literal) for i, v in enumerate(value)]
    if isinstance(value, dict):
        wrap = not literal and any(isinstance(k, str) and k.startswith("$") for k in value)
        out: dict[str, Any] = {}
        for k, v in value.items():
            if not isinstance(k, str):
                raise MatcherEncodingError(
                    f"{where}: key {k!r} is a {type(k).__name__}; JSON keys are strings"
                )
            out[k] = _encode(v, f"{where}.{k}", literal or wrap)
        return {"$literal": out} if wrap else out
    raise MatcherEncodingError(
        f"{where}: a {type(value).__name__} ({value!r:.60}) has no JSON form; convert it to a "
        "string, number, boolean, list or dict before recording"
    )
