"""Gold files: the expected calls, with argument matchers written as JSON.

A gold file holds a list of ``{"tool": name, "args": {...}}`` (or an object with that list under
``"calls"`` or ``"expected"``). Inside ``args`` a JSON object whose keys start with ``$`` is a
matcher:

===================================  ==============================================
JSON                                 matcher
===================================  ==============================================
``{"$any": true}``                   ``ANY``
``{"$regex": "NYC|JFK"}``            ``Regex("NYC|JFK")``; ``"flags": "i"`` (i m s x)
``{"$approx": 72.5, "rel": 0.01}``   ``Approx(72.5, rel=0.01)``; also ``"abs"``
``{"$one_of": ["a", "b"]}``          ``OneOf("a", "b")`` (items may be matchers)
``{"$contains": "x"}``               ``Contains("x")`` (the item may be a matcher)
``{"$type": "int"}``                 ``IsType(int)``; a list of names for several
``{"$all_of": [m1, m2]}``            ``m1 & m2`` (items may be plain values)
``{"$any_of": [m1, m2]}``            ``m1 | m2`` (items may be plain values)
``{"$not": m}``                      ``~m``
``{"$literal": {...}}``              the value as written (a dict with ``$`` keys)
``{"$bfcl_string": "New York"}``     ``toolscore.bfcl.BFCLString("New York")``
``{"$bfcl_dict": {"k": ["v", ""]}}`` ``toolscore.bfcl.BFCLDict({"k": ["v", ""]})``
===================================  ==============================================

Type names: ``int``, ``float``, ``number`` (int or float), ``str``/``string``, ``bool``,
``list``/``array``, ``dict``/``object``, ``null``/``none``.

:func:`~toolscore._engine.read.gold_encoding.encode_value` writes matchers back in this
encoding (snapshots store them so).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from scorekit.format import shorten
from toolscore._engine.compare.matchers import (
    ANY,
    Approx,
    Contains,
    IsType,
    Matcher,
    OneOf,
    Regex,
    _AllOf,
    _AnyOf,
    _as_matcher,
    _Not,
)
from toolscore._engine.read.gold_encoding import REGEX_FLAGS, TYPE_NAMES
from toolscore._engine.read.trace_files import TraceFileError


class GoldFormatError(TraceFileError):
    """A gold file's content is not a valid list of expected calls (message says where)."""


def _fail(where: str, problem: str) -> GoldFormatError:
    return GoldFormatError(f"{where}: {problem}")


def _allowed(spec: Mapping[str, Any], where: str, key: str, extra: tuple[str, ...]) -> None:
    unknown = sorted(set(spec) - {key, *extra})
    if unknown:
        also = f" (allowed with {key}: {', '.join(extra)})" if extra else ""
        raise _fail(where, f"unexpected key {unknown[0]!r} next to {key!r}{also}")


def _regex(spec: Mapping[str, Any], where: str) -> Matcher:
    pattern = spec["$regex"]
    if not isinstance(pattern, str):
        raise _fail(where, f"$regex needs a string pattern, got {pattern!r}")
    flags = 0
    for letter in str(spec.get("flags", "")).lower():
        if letter not in REGEX_FLAGS:
            raise _fail(where, f"$regex flag {letter!r} is not one of i, m, s, x")
        flags |= REGEX_FLAGS[letter]
    try:
        return Regex(pattern, flags)
    except (re.error, TypeError, ValueError) as exc:
        raise _fail(where, f"$regex {pattern!r} is not a valid pattern ({exc})") from None


def _number(value: Any, where: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(where, f"{what} needs a number, got {value!r}")
    return value


def _approx(spec: Mapping[str, Any], where: str) -> Matcher:
    value = _number(spec["$approx"], where, "$approx")
    rel = _number(spec.get("rel", 1e-6), where, "$approx 'rel'")
    abs_tol = _number(spec.get("abs", 0.0), where, "$approx 'abs'")
    try:
        return Approx(value, rel=rel, abs=abs_tol)
    except (TypeError, ValueError) as exc:
        raise _fail(where, f"$approx: {exc}") from None


def _one_of(spec: Mapping[str, Any], where: str) -> Matcher:
    values = spec["$one_of"]
    if not isinstance(values, list) or not values:
        raise _fail(where, f"$one_of needs a non-empty list of candidates, got {values!r}")
    return OneOf(*(decode_value(v, f"{where}.$one_of[{i}]") for i, v in enumerate(values)))


def _contains(spec: Mapping[str, Any], where: str) -> Matcher:
    return Contains(decode_value(spec["$contains"], f"{where}.$contains"))


def _type(spec: Mapping[str, Any], where: str) -> Matcher:
    raw = spec["$type"]
    names = raw if isinstance(raw, list) else [raw]
    types: list[type] = []
    for name in names:
        found = TYPE_NAMES.get(str(name).lower()) if isinstance(name, str) else None
        if found is None:
            known = ", ".join(TYPE_NAMES)
            raise _fail(where, f"$type {name!r} is not a known type name ({known})")
        types.extend(t for t in found if t not in types)
    if not types:
        raise _fail(where, "$type needs a type name or a non-empty list of them")
    return IsType(*types)


def _joined(spec: Mapping[str, Any], where: str) -> Matcher:
    key = "$all_of" if "$all_of" in spec else "$any_of"
    values = spec[key]
    if not isinstance(values, list) or len(values) < 2:
        raise _fail(where, f"{key} needs a list of at least two matchers, got {values!r}")
    parts = [_as_matcher(decode_value(v, f"{where}.{key}[{i}]")) for i, v in enumerate(values)]
    return _AllOf(*parts) if key == "$all_of" else _AnyOf(*parts)


def _not(spec: Mapping[str, Any], where: str) -> Matcher:
    return _Not(_as_matcher(decode_value(spec["$not"], f"{where}.$not")))


def _literal(spec: Mapping[str, Any], where: str) -> Any:
    return spec["$literal"]  # the value as written


def _any(spec: Mapping[str, Any], where: str) -> Matcher:
    if spec["$any"] is not True:
        raise _fail(where, f'$any takes true ({{"$any": true}}), got {spec["$any"]!r}')
    return ANY


def _bfcl(spec: Mapping[str, Any], where: str) -> Matcher:
    from toolscore._engine.bfcl.matchers import from_json  # imported when first needed

    try:
        return from_json(spec)
    except ValueError as exc:
        raise _fail(where, str(exc)) from None


_EXTRA_KEYS = {"$regex": ("flags",), "$approx": ("rel", "abs")}  # beside the matcher key
_DECODERS: dict[str, Callable[[Mapping[str, Any], str], Any]] = {
    "$any": _any,
    "$regex": _regex,
    "$approx": _approx,
    "$one_of": _one_of,
    "$contains": _contains,
    "$type": _type,
    "$all_of": _joined,
    "$any_of": _joined,
    "$not": _not,
    "$literal": _literal,
    "$bfcl_string": _bfcl,
    "$bfcl_dict": _bfcl,
}


def decode_value(value: Any, where: str) -> Any:
    """Turn the JSON encoding of matchers inside ``value`` into matcher objects.

    ``where`` locates ``value`` in error messages (``gold.json: expected[0].args.city``).

    Raises:
        GoldFormatError: an unknown ``$`` key or a malformed matcher (the message names it).

    Example:
        >>> decode_value({"$regex": "NYC|JFK"}, "x")
        Regex('NYC|JFK')
    """
    if isinstance(value, list):
        return [decode_value(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if not isinstance(value, dict):
        return value
    dollar = [k for k in value if isinstance(k, str) and k.startswith("$")]
    if not dollar:
        return {k: decode_value(v, f"{where}.{k}") for k, v in value.items()}
    if "$literal" in value:
        key = "$literal"
    else:
        known = [k for k in dollar if k in _DECODERS]
        if not known:
            raise _fail(
                where,
                f"unknown matcher key {dollar[0]!r}; use one of {', '.join(_DECODERS)}",
            )
        if len(dollar) > 1:
            others = [k for k in dollar if k != known[0]]
            raise _fail(where, f"unexpected key {others[0]!r} next to {known[0]!r}")
        key = known[0]
    if not key.startswith("$bfcl_"):  # BFCL's own reader says what it takes
        _allowed(value, where, key, _EXTRA_KEYS.get(key, ()))
    return _DECODERS[key](value, where)


_GOLD_KEYS = frozenset(("tool", "args", "side_effects", "description", "metadata"))


def _metadata(item: dict[str, Any], at: str) -> dict[str, Any]:
    """What a gold call carries beside its arguments (side-effect checks, a description)."""
    metadata = item.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise GoldFormatError(
            f"{at}.metadata: must be an object, got {shorten(repr(metadata), 60)}"
        )
    out = dict(metadata or {})
    effects = item.get("side_effects")
    if effects is not None:
        if not isinstance(effects, dict):
            raise GoldFormatError(
                f"{at}.side_effects: must be an object of check name -> expected value, got "
                f"{shorten(repr(effects), 60)}"
            )
        if effects:
            out["side_effects"] = effects
    if item.get("description"):
        out["description"] = str(item["description"])
    return out


def decode_gold(data: Any, where: str) -> list[dict[str, Any]]:
    """The expected calls of a parsed gold file, matchers decoded.

    Raises:
        GoldFormatError: not a list of ``{"tool", "args"}`` objects, or a bad matcher.
    """
    calls = data
    if isinstance(data, dict):
        for key in ("calls", "expected"):
            if isinstance(data.get(key), list):
                calls = data[key]
                break
        else:
            raise _fail(
                where,
                'a gold file holds a list of {"tool": ..., "args": {...}} '
                '(or an object with that list under "calls"); got an object with keys '
                + ", ".join(repr(k) for k in list(data)[:5]),
            )
    if not isinstance(calls, list):
        raise _fail(where, f"a gold file holds a list of calls, got {type(calls).__name__}")
    out: list[dict[str, Any]] = []
    for i, item in enumerate(calls):
        at = f"{where}: [{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("tool"), str) or not item["tool"]:
            raise GoldFormatError(
                f'{at}: each expected call needs a "tool" name, like '
                '{"tool": "get_weather", "args": {"city": "NYC"}}; '
                f"got {shorten(repr(item), 120)}"
            )
        unknown = sorted(set(item) - _GOLD_KEYS)
        if unknown:
            raise GoldFormatError(
                f"{at}: unknown key {unknown[0]!r} (a call has 'tool', 'args' and optional "
                "'side_effects', 'description', 'metadata')"
            )
        args = item.get("args")
        if args is not None and not isinstance(args, dict):
            raise GoldFormatError(
                f"{at}.args: must be an object or null, got {shorten(repr(args), 80)}"
            )
        decoded = None if args is None else decode_value(args, f"{at}.args")
        call: dict[str, Any] = {"tool": item["tool"], "args": decoded}
        metadata = _metadata(item, at)
        if metadata:
            call["metadata"] = metadata
        out.append(call)
    return out
