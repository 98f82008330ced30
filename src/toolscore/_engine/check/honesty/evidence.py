"""What a run says, indexed for comparison: every scalar a tool returned or was given, the
values written inside strings, list lengths, and the words of the user's messages."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from toolscore._engine.check.honesty.lexicon import word_stem
from toolscore._engine.check.honesty.run import RunRecord
from toolscore._engine.check.honesty.values import Value, find_values, to_base

__all__ = ["Evidence", "Leaf", "key_tokens", "mentions", "word_stem"]

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")


def mentions(text: str, word: str) -> bool:
    """Whether ``text`` (lower case) says ``word`` whole, not inside a longer word or number."""
    return re.search(rf"(?<![a-z0-9]){re.escape(word.lower())}(?![a-z0-9])", text) is not None


def key_tokens(name: str) -> set[str]:
    """``departureTime`` -> ``{"departure", "time"}`` (stems)."""
    words = _SPLIT.split(_CAMEL.sub("_", name).lower())
    return {word_stem(w) for w in words if w}


@dataclass
class Leaf:
    """One scalar of the run, with where it sits."""

    value: Any
    key: str
    tokens: set[str]  # the stems of the keys on its path and of the tool's name
    source: str  # "result", "args" or "user"
    call: int  # index of the call (-1 for user messages)
    record: int  # id of the dict that holds it
    unit: tuple[str, float] | None = None  # from the key: distance_km -> length, x1000

    @property
    def number(self) -> float | None:
        v = self.value
        return None if isinstance(v, bool) or not isinstance(v, (int, float)) else float(v)


@dataclass
class Evidence:
    """The index of a run's values."""

    leaves: list[Leaf] = field(default_factory=list)
    text_values: list[tuple[Value, Leaf]] = field(default_factory=list)
    lengths: list[tuple[int, set[str]]] = field(default_factory=list)
    records: dict[int, list[Leaf]] = field(default_factory=dict)
    blob: str = ""  # every string of the run, lowercased, for "appears anywhere"
    result_blob: str = ""
    # Amounts and percentages the answer stated that the run supports, in order: later
    # values may be worked out from them ("€360 for 3 nights, €396 with 10 % tax").
    derived: list[float] = field(default_factory=list)
    derived_rates: list[float] = field(default_factory=list)
    name_fields: list[Leaf] | None = None  # result strings that read as names, when asked

    @classmethod
    def of(cls, record: RunRecord) -> Evidence:
        ev = cls()
        for n, call in enumerate(record.calls):
            tool_tokens = key_tokens(call.tool)
            ev._walk(call.result, "", set(tool_tokens), "result", n, id(call))
            if call.error:
                ev._walk(call.error, "error", set(tool_tokens), "result", n, id(call) + 1)
            ev._walk(call.args, "", set(tool_tokens), "args", n, id(call.args))
        results = [f"{_dump(call.result)}\n{call.error or ''}" for call in record.calls]
        ev.result_blob = "\n".join(results).lower()
        others = [_dump(call.args) for call in record.calls] + record.user_texts
        ev.blob = ev.result_blob + "\n" + "\n".join(others).lower()
        for text in record.user_texts:
            ev._add(Leaf(text, "", set(), "user", -1, id(text)))
        return ev

    def _walk(self, value: Any, key: str, tokens: set[str], source: str, call: int,
              record: int) -> None:  # fmt: skip
        if isinstance(value, Mapping):
            for k, v in value.items():
                self._walk(v, str(k), tokens | key_tokens(str(k)), source, call, id(value))
        elif isinstance(value, (list, tuple)):
            if source == "result":
                self.lengths.append((len(value), tokens))
            for item in value:
                self._walk(item, key, tokens, source, call, record)
        elif value is not None:
            self._add(Leaf(value, key, tokens, source, call, record, _unit_of(key)))

    def _add(self, leaf: Leaf) -> None:
        self.leaves.append(leaf)
        self.records.setdefault(leaf.record, []).append(leaf)
        if isinstance(leaf.value, str):
            for found in find_values(leaf.value):
                self.text_values.append((found, leaf))

    def numbers(self, *, results_only: bool = False) -> list[tuple[float, Leaf]]:
        """Every number: scalars, and numbers written in strings."""
        out = [(n, leaf) for leaf in self.leaves if (n := leaf.number) is not None]
        for value, leaf in self.text_values:
            if value.number is not None and value.kind != "quantity":
                out.append((value.number, leaf))
        return [(n, leaf) for n, leaf in out if not results_only or leaf.source == "result"]

    def strings(self) -> list[Leaf]:
        return [leaf for leaf in self.leaves if isinstance(leaf.value, str)]


def _dump(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, default=str, ensure_ascii=False)


_KEY_UNITS = {
    "km", "m", "mi", "miles", "ft", "feet", "cm", "mm", "kg", "g", "lb", "lbs", "oz",
    "c", "celsius", "f", "fahrenheit", "kph", "kmh", "mph", "ms", "s", "sec", "secs",
    "seconds", "min", "mins", "minutes", "h", "hr", "hrs", "hours", "days", "kelvin", "k",
    "bytes", "byte", "kb", "mb", "gb", "tb",
}  # fmt: skip


def _unit_of(key: str) -> tuple[str, float] | None:
    """The unit a key names (``distance_km``, ``tempF``, ``duration_minutes``) as
    ``(dimension, factor)``; temperatures give ``("temperature", 1 or 0)`` (0: Fahrenheit)."""
    words = _SPLIT.split(_CAMEL.sub("_", key).lower())
    for word in reversed(words):
        if word in _KEY_UNITS:
            found = to_base(1.0, "m/s" if word == "ms" and "speed" in words else word)
            if found is None:
                return None
            if found[0] == "temperature":
                return ("temperature", 0.0 if word.startswith("f") else 1.0)
            return found
    return None
