"""Values from a JSON Schema: valid ones (typical, smallest, largest) and invalid ones.

Over 400 lines on purpose: one recursive generator (``SchemaValues``) whose branches for
strings, numbers, arrays and objects call each other; split, each part would need the rest.

The one value generator behind ``toolscore generate`` (gold cases:
:mod:`toolscore.generators.synthetic`) and the MCP scorecard's scenarios
(:mod:`toolscore.mcp.harness`: happy paths and edge cases).

Deterministic: every choice comes from the ``random.Random`` the caller passes. Valid values
prefer what the schema's author wrote (``examples``, ``default``, ``const``, ``enum``) and
respect ``format``, ``minimum``/``maximum``, ``multipleOf``, ``minLength``/``maxLength``,
``pattern`` (when one of a few candidates fits), ``minItems``/``maxItems`` and ``required``.
``$ref`` (local), ``allOf``, ``anyOf``/``oneOf`` and type lists are followed. An ``extreme``
asks for the smallest (``"low"``: ``minimum``, ``minLength``, ``minItems``, every property) or
the largest (``"high"``: ``maximum``, ``maxLength``, ``maxItems``) value the schema allows.

No value points a server at the network: URIs are ``data:`` URIs, hosts are loopback, and an
``http(s)`` default or example is not used.

Any JSON is read as a schema without an error: malformed keywords (``"required": 5``, an
``enum`` that is no list, ``minimum`` above ``maximum``, infinite bounds) are ignored or give
a value the schema may reject, a ``$ref`` cycle is followed once, and lengths and item counts
stay below :data:`MAX_LENGTH` and :data:`MAX_ITEMS` whatever the schema asks.
"""

from __future__ import annotations

import math
import random
import re
from typing import Any

from scorekit.format import finite_float

__all__ = [
    "LONG_STRING_LENGTH",
    "MAX_ITEMS",
    "MAX_LENGTH",
    "UNICODE_SAMPLE",
    "SchemaValues",
    "json_required",
    "json_types",
]

#: Length of the "very long string" edge case.
LONG_STRING_LENGTH = 10_000
#: The longest string generated, whatever ``minLength``/``maxLength`` ask.
MAX_LENGTH = 100_000
#: The most items an array gets, whatever ``minItems``/``maxItems`` ask.
MAX_ITEMS = 100
#: The unicode edge case: accents, CJK, an emoji, right-to-left script, a combining mark.
UNICODE_SAMPLE = "Zürich – 東京 – 🚀 – مرحبا – e\u0301"

_DATA_URI = "data:text/plain;base64,dG9vbHNjb3Jl"
_FORMATS: dict[str, list[str]] = {
    "date": ["2024-05-01", "2025-12-31"],
    "date-time": ["2024-05-01T12:00:00Z", "2025-12-31T08:30:00+01:00"],
    "time": ["12:00:00", "08:30:00"],
    "duration": ["PT1H", "P1D"],
    "email": ["ada@example.com", "grace@example.org"],
    "idn-email": ["ada@example.com"],
    "uri": [_DATA_URI],
    "url": [_DATA_URI],
    "iri": [_DATA_URI],
    "uri-reference": ["README.md", _DATA_URI],
    "iri-reference": ["README.md"],
    "uuid": ["123e4567-e89b-42d3-a456-426614174000", "0b7a1e52-3d7f-4c1c-9a57-8d5c2f1e6b10"],
    "ipv4": ["127.0.0.1"],
    "ipv6": ["::1"],
    "hostname": ["localhost"],
    "idn-hostname": ["localhost"],
    "regex": ["^[a-z]+$"],
    "json-pointer": ["/a/b"],
}
# Property names that suggest what a string holds (first match wins).
_BY_NAME: list[tuple[re.Pattern[str], list[str]]] = [
    (re.compile(r"e-?mail", re.I), ["ada@example.com"]),
    (re.compile(r"city|town|location|place", re.I), ["Paris", "Tokyo", "Lisbon"]),
    (re.compile(r"country", re.I), ["France", "Japan"]),
    (re.compile(r"url|uri|link|href", re.I), [_DATA_URI]),
    (re.compile(r"date", re.I), ["2024-05-01"]),
    (re.compile(r"lang", re.I), ["en", "fr"]),
    (re.compile(r"(^|_)id$|Id$|uuid", re.I), ["1", "42"]),
    (re.compile(r"path|file", re.I), ["README.md", "notes.txt"]),
    (re.compile(r"name|title|label", re.I), ["Ada Lovelace", "Groceries", "Quarterly report"]),
    (re.compile(r"query|search|^q$|topic|keyword", re.I), ["weather in Paris", "python tutorial"]),
]
_WORDS = ["hello world", "toolscore test", "a short note", "sample text"]
_PATTERN_CANDIDATES = [
    "abc",
    "ABC",
    "abc123",
    "123",
    "1",
    "a-b",
    "a_b",
    "Abc",
    "2024-05-01",
    "ABC-123",
    "ab12cd",
    "test@example.com",
    "#ffffff",
    "en",
    "US",
    "v1.0.0",
    "toolscore",
]
_NO_VALUE: Any = object()


def json_types(schema: dict[str, Any]) -> list[str]:
    """The JSON types a schema names (``type`` string or list), in order; [] when none."""
    declared = schema.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list):
        return [t for t in declared if isinstance(t, str)]
    return []


def json_required(schema: dict[str, Any]) -> list[str]:
    """The property names a schema's ``required`` lists (names that are no string, or a
    ``required`` that is no list, are ignored)."""
    required = schema.get("required")
    if not isinstance(required, list):
        return []
    return [r for r in required if isinstance(r, str)]


def _is_network(value: Any) -> bool:
    return isinstance(value, str) and value.lower().startswith(("http://", "https://", "ftp://"))


class SchemaValues:
    """Generate values for the schemas inside one tool's ``inputSchema``.

    Args:
        root: the tool's whole input schema (where ``$ref`` pointers are resolved).
        rng: the random source (seeded by the caller).
    """

    def __init__(self, root: dict[str, Any], rng: random.Random) -> None:
        self.root = root
        self.rng = rng

    # -- schema plumbing ----------------------------------------------------------------
    def resolve(
        self, schema: Any, depth: int = 0, _refs: frozenset[str] = frozenset()
    ) -> dict[str, Any]:
        """``schema`` with a local ``$ref`` followed and ``allOf`` merged (bounded depth; a
        ``$ref`` already being followed is not followed again)."""
        if not isinstance(schema, dict) or depth > 20:
            return {}
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            merged = {k: v for k, v in schema.items() if k != "$ref"}
            if ref in _refs:  # a cycle ({"$ref": "#"} inside the root's allOf, ...)
                return merged
            target: Any = self.root
            for part in ref[1:].split("/"):
                if not part:
                    continue
                part = part.replace("~1", "/").replace("~0", "~")
                target = target.get(part) if isinstance(target, dict) else None
            return {**self.resolve(target, depth + 1, _refs | {ref}), **merged}
        parts = schema.get("allOf")
        if isinstance(parts, list) and parts:
            merged = {k: v for k, v in schema.items() if k != "allOf"}
            for part in parts:
                for key, value in self.resolve(part, depth + 1, _refs).items():
                    if key == "properties" and isinstance(merged.get("properties"), dict):
                        if isinstance(value, dict):
                            merged["properties"] = {**merged["properties"], **value}
                    elif key == "required" and isinstance(merged.get("required"), list):
                        if isinstance(value, list):
                            merged["required"] = [*merged["required"], *value]
                    else:
                        merged.setdefault(key, value)
            return merged
        return schema

    def branches(self, schema: dict[str, Any]) -> list[dict[str, Any]]:
        """The ``anyOf``/``oneOf`` branches, non-null ones first; [] when there are none."""
        for key in ("anyOf", "oneOf"):
            found = schema.get(key)
            if isinstance(found, list) and found:
                resolved = [self.resolve(b) for b in found]
                return sorted(resolved, key=lambda b: json_types(b) == ["null"])
        return []

    def kind(self, schema: dict[str, Any], _depth: int = 0) -> str | None:
        """The one JSON type a value for ``schema`` gets (the first non-null one)."""
        schema = self.resolve(schema)
        branches = self.branches(schema)
        if branches:
            # A branch may lead back here ({"anyOf": [{"$ref": "#"}]}): bounded.
            return self.kind(branches[0], _depth + 1) if _depth < 20 else None
        types = [t for t in json_types(schema) if t != "null"] or json_types(schema)
        if types:
            return types[0]
        if "enum" in schema or "const" in schema:
            enum = schema.get("enum")
            return _type_of(enum[0] if isinstance(enum, list) and enum else schema.get("const"))
        if "properties" in schema:
            return "object"
        if "items" in schema:
            return "array"
        return None

    # -- valid values ------------------------------------------------------------------
    def valid(
        self,
        schema: Any,
        variant: int = 0,
        name: str = "",
        depth: int = 0,
        *,
        extreme: str | None = None,
    ) -> Any:
        """A value ``schema`` accepts. Variant 0 is the plainest (the author's example,
        default or first choice); other variants vary the choice. ``extreme`` (``"low"`` or
        ``"high"``) asks for the smallest or largest value instead (the author's examples are
        not used then; a ``format`` or ``pattern`` string keeps its well-formed value)."""
        schema = self.resolve(schema)
        if depth > 8:
            return None
        if "const" in schema:
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            if extreme is not None:
                return enum[0] if extreme == "low" else enum[-1]
            return enum[0] if variant == 0 else self.rng.choice(enum)
        authored = _NO_VALUE if extreme is not None else self._authored(schema, variant)
        if authored is not _NO_VALUE:
            return authored
        branches = self.branches(schema)
        if branches:
            plain = variant == 0 or extreme is not None
            branch = branches[0] if plain else self.rng.choice(branches[:-1] or branches)
            return self.valid(branch, variant, name, depth + 1, extreme=extreme)
        kind = self.kind(schema)
        if kind == "string":
            return self._string(schema, variant, name, extreme)
        if kind in ("integer", "number"):
            return self._number(schema, variant, kind == "integer", extreme)
        if kind == "boolean":
            if extreme is not None:
                return extreme == "high"
            return True if variant == 0 else self.rng.choice([True, False])
        if kind == "null":
            return None
        if kind == "array":
            return self._array(schema, variant, name, depth, extreme)
        if kind == "object":
            full = variant > 0 or extreme is not None
            return self.arguments(schema, variant, full=full, depth=depth + 1, extreme=extreme)
        return self._string({}, variant, name, extreme)  # untyped: a string is the usual guess

    def arguments(
        self,
        schema: dict[str, Any],
        variant: int = 0,
        *,
        full: bool = True,
        depth: int = 0,
        extreme: str | None = None,
    ) -> dict[str, Any]:
        """An object for an object schema: required properties always, optional ones when
        ``full`` (each with probability 3/4 for variants after the second; every one with an
        ``extreme``, which each property's value then takes)."""
        schema = self.resolve(schema)
        properties = schema.get("properties")
        properties = properties if isinstance(properties, dict) else {}
        required = json_required(schema)
        out: dict[str, Any] = {}
        for prop, sub in properties.items():
            every = variant <= 1 or extreme is not None
            wanted = prop in required or (full and (every or self.rng.random() < 0.75))
            # Left out, a parameter whose default is a web address makes the server go online.
            wanted = wanted or _is_network(self.resolve(sub).get("default"))
            if wanted:
                out[prop] = self.valid(sub, variant, prop, depth, extreme=extreme)
        for prop in required:
            if prop not in out:  # required but not described: a string is the usual guess
                out[prop] = self._string({}, variant, prop, extreme)
        return out

    def _authored(self, schema: dict[str, Any], variant: int) -> Any:
        examples = schema.get("examples")
        written = [*(examples if isinstance(examples, list) else ())]
        written += [schema[key] for key in ("example", "default") if key in schema]
        candidates = [c for c in written if not _is_network(c)]
        if not candidates or variant > 1:
            return _NO_VALUE
        return candidates[0] if variant == 0 else candidates[-1]

    def _string(
        self, schema: dict[str, Any], variant: int, name: str, extreme: str | None = None
    ) -> str:
        fmt, pattern = schema.get("format"), schema.get("pattern")
        pool = _FORMATS.get(fmt) if isinstance(fmt, str) else None
        low, high = _length(schema.get("minLength")), _length(schema.get("maxLength"))
        if extreme is not None:
            if pool is None and not isinstance(pattern, str):
                # A format or pattern keeps its one well-formed value.
                least = max(low or 0, 0)
                most = high if high is not None and high >= least else None
                if extreme == "low":
                    return "x" * least if least or most == 0 else "x"
                if most is not None:
                    return "x" * most
            variant = 0
        if pool is None:
            pool = next((values for rx, values in _BY_NAME if rx.search(name)), _WORDS)
        if isinstance(pattern, str):
            pool = _fitting(pattern, [*pool, *_PATTERN_CANDIDATES]) or pool
        value = pool[0] if variant == 0 else self.rng.choice(pool)
        if low is not None and len(value) < low:
            value = ((value + " ") * (low // (len(value) + 1) + 1))[:low]
        if high is not None and high >= 0 and len(value) > high:
            value = value[:high]
        return value

    def _number(
        self, schema: dict[str, Any], variant: int, integer: bool, extreme: str | None = None
    ) -> int | float:
        low, high = _bounds(schema, integer)
        value: float
        if extreme == "low":
            value = low if low is not None else (0 if high is None or high >= 0 else high)
        elif extreme == "high":
            value = high if high is not None else (low if low is not None else 0) + 100
        elif variant == 0:
            value = low if low is not None else (1 if high is None or high >= 1 else high)
        else:
            lo = low if low is not None else (0 if high is None or high >= 0 else high - 10)
            hi = high if high is not None else lo + 10
            if hi < lo or not math.isfinite(hi - lo):
                hi = lo  # minimum above maximum, or a range no float spans: the minimum
            value = (
                self.rng.randint(math.ceil(lo), max(math.ceil(lo), math.floor(hi)))
                if integer
                else (round(self.rng.uniform(lo, hi), 2))
            )
        step = schema.get("multipleOf")
        if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0:
            steps = value / step
            if math.isfinite(steps):  # a step too small for the value: the value as it is
                value = math.ceil(steps) * step
                if high is not None and value > high:
                    value -= step
        return _num(value, integer)

    def _array(
        self, schema: dict[str, Any], variant: int, name: str, depth: int, extreme: str | None
    ) -> list[Any]:
        items = schema.get("items")
        items = self.resolve(items) if isinstance(items, dict) else {}
        low = max(_length(schema.get("minItems"), MAX_ITEMS) or 0, 0)
        high = _length(schema.get("maxItems"), MAX_ITEMS)
        if extreme == "low":
            count = low
        elif extreme == "high":
            count = high if high is not None else max(low, 3)
        else:
            count = max(1, low)
            if variant > 0:
                count += self.rng.randint(0, 2)
            if high is not None:
                count = min(count, high)
        values: list[Any] = []
        for i in range(count):
            value = self.valid(items, variant + i, name, depth + 1)
            if schema.get("uniqueItems") and value in values:
                continue
            values.append(value)
        return values

    # -- invalid values ----------------------------------------------------------------
    def wrong_type(self, schema: Any) -> Any:
        """A value of a JSON type ``schema`` does not allow (``_NO_VALUE``-free: always one)."""
        schema = self.resolve(schema)
        allowed = set(json_types(schema))
        for branch in self.branches(schema):
            allowed |= set(json_types(branch))
        if "number" in allowed:
            allowed.add("integer")
        wrong = (
            (12345, "integer"),
            ("not a number", "string"),
            (["not", "an", "object"], "array"),
            ({"unexpected": True}, "object"),
            (True, "boolean"),
        )
        return next((value for value, kind in wrong if kind not in allowed), None)

    def out_of_range(self, schema: Any) -> list[tuple[Any, str]]:
        """Values just outside the schema's bounds, each with what it breaks."""
        schema = self.resolve(schema)
        out: list[tuple[Any, str]] = []
        kind = self.kind(schema)
        enum = schema.get("enum")
        if isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum):
            out.append(("not-one-of-the-choices", "a value outside the enum"))
        if kind in ("integer", "number"):
            integer = kind == "integer"
            low, high = _bounds(schema, integer)
            unit = 1 if integer else 0.5
            if low is not None:
                out.append((_num(low - unit, integer), f"below the minimum {_show(low)}"))
            if high is not None:
                out.append((_num(high + unit, integer), f"above the maximum {_show(high)}"))
        if kind == "string":
            high = schema.get("maxLength")
            if _length(high) is not None and _length(high) == high:  # at most MAX_LENGTH
                out.append(("x" * (high + 1), f"longer than maxLength {high}"))
            low = schema.get("minLength")
            if _length(low) is not None and _length(low) == low and low > 1:
                out.append(("x" * (low - 1), f"shorter than minLength {low}"))
        if kind == "array":
            low = schema.get("minItems")
            if isinstance(low, int) and not isinstance(low, bool) and low > 0:
                out.append(([], f"fewer than minItems {low}"))
        return out


# JSON type names by Python type, bool before int (a bool is an int in Python).
_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (list, "array"))


def _type_of(value: Any) -> str:
    if isinstance(value, dict):
        return "object"
    if value is None:
        return "null"
    return next((name for kind, name in _JSON_TYPES if isinstance(value, kind)), "string")


def _length(value: Any, limit: int = MAX_LENGTH) -> int | None:
    """A length or count keyword's integer, at most ``limit`` (None when it is no integer)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return min(value, limit)


def _bounds(schema: dict[str, Any], integer: bool) -> tuple[float | None, float | None]:
    """Inclusive lower and upper bounds (exclusive ones moved one step inwards; an infinite
    or too large bound is none)."""

    def number(key: str) -> float | None:
        value = schema.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return finite_float(value)

    step = 1.0 if integer else 0.01
    low, high = number("minimum"), number("maximum")
    ex_low, ex_high = number("exclusiveMinimum"), number("exclusiveMaximum")
    if schema.get("exclusiveMinimum") is True and low is not None:  # draft 4 style
        low += step
    if schema.get("exclusiveMaximum") is True and high is not None:
        high -= step
    if ex_low is not None:
        low = max(low, ex_low + step) if low is not None else ex_low + step
    if ex_high is not None:
        high = min(high, ex_high - step) if high is not None else ex_high - step
    if integer:
        low = math.ceil(low) if low is not None else None
        high = math.floor(high) if high is not None else None
    return low, high


def _num(value: float, integer: bool) -> int | float:
    return int(value) if integer else float(value)


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _fitting(pattern: str, candidates: list[str]) -> list[str]:
    try:
        compiled = re.compile(pattern)
    except re.error:
        return []
    return [c for c in candidates if compiled.search(c)]
