"""The agreement matrix of expected calls that hold matchers (or skip their arguments).

``agree[r, c]`` = argument units on which expected call ``r`` and actual call ``c`` agree, the
same number ``metrics.arguments.count_pair`` gives, built one argument name at a time:

* a plain expected value meets the actual values through their canonical forms (one numpy
  comparison per expected call and name);
* a matcher is asked once per *distinct* actual value under that name, not once per call;
* actual values with no canonical form (NaN, odd objects) are compared with the rule itself.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from toolscore._engine.compare import NOT_CANONICAL, canonical, contains_matcher, values_match
from toolscore._engine.matchers import Approx, IsType, Regex, _AnyMatcher

__all__ = ["agreement_matrix"]

_ABSENT = -1


def _raw_key(value: Any) -> Hashable | None:
    """Dedup key for a raw value (a matcher sees raw values: " a" and "a" differ)."""
    try:
        hash(value)
    except TypeError:
        return None
    return (type(value), value)


def _memo_key(expected: Any) -> Hashable:
    """Same key = same verdicts. Matchers whose state is plain data share a key with their
    twins (a trace whose every expected call carries ``Regex(r"q\\d+")`` asks it once per
    value); anything else is keyed by identity (it stays alive meanwhile)."""
    kind = type(expected)
    if kind is Regex:
        return ("regex", expected.pattern, expected.flags)
    if kind is Approx:
        return ("approx", expected.value, expected.rel, expected.abs)
    if kind is IsType:
        return ("type", expected.types)
    return ("id", id(expected))


class _Column:
    """The actual calls' values under one argument name."""

    def __init__(self, name: str, a_args: list[dict[str, Any]], strict: bool) -> None:
        import numpy as np

        self.raw_ids = np.full(len(a_args), _ABSENT, dtype=np.int64)
        self.canon_ids = np.full(len(a_args), _ABSENT, dtype=np.int64)
        self.reps: list[Any] = []  # one raw value per raw id
        self.odd: list[int] = []  # calls whose value has no canonical form
        raw_index: dict[Hashable, int] = {}
        self.canon_index: dict[Hashable, int] = {}
        for c, args in enumerate(a_args):
            if name not in args:
                continue
            value = args[name]
            key = _raw_key(value)
            rid = raw_index.get(key) if key is not None else None
            if rid is None:
                rid = len(self.reps)
                self.reps.append(value)
                if key is not None:
                    raw_index[key] = rid
            self.raw_ids[c] = rid
            form = canonical(value, strict)
            if form is NOT_CANONICAL:
                self.odd.append(c)
            else:
                self.canon_ids[c] = self.canon_index.setdefault(form, len(self.canon_index))
        self.present = self.raw_ids != _ABSENT
        self.memo: dict[Hashable, Any] = {}

    def hits(self, expected: Any, strict: bool) -> Any:
        """Boolean vector: which actual calls agree with ``expected`` under this name."""
        import numpy as np

        if isinstance(expected, _AnyMatcher):
            return self.present
        if contains_matcher(expected) or canonical(expected, strict) is NOT_CANONICAL:
            memo_key = _memo_key(expected)
            by_raw = self.memo.get(memo_key)
            if by_raw is None:
                by_raw = np.fromiter(
                    (values_match(expected, rep, strict) for rep in self.reps),
                    dtype=bool,
                    count=len(self.reps),
                )
                self.memo[memo_key] = by_raw
            out = np.zeros(len(self.raw_ids), dtype=bool)
            out[self.present] = by_raw[self.raw_ids[self.present]]
            return out
        cid = self.canon_index.get(canonical(expected, strict))
        out = self.canon_ids == cid if cid is not None else np.zeros(len(self.raw_ids), bool)
        for c in self.odd:  # no canonical form: let the rule decide
            out[c] = values_match(expected, self.reps[self.raw_ids[c]], strict)
        return out


def agreement_matrix(
    e_args: list[dict[str, Any] | None], a_args: list[dict[str, Any]], strict: bool
) -> Any:
    """``agree[r, c]`` for expected argument dicts ``e_args`` and actual ``a_args``."""
    import numpy as np

    m, n = len(e_args), len(a_args)
    agree = np.zeros((m, n), dtype=np.float64)
    a_empty = np.fromiter((not a for a in a_args), dtype=bool, count=n)
    columns: dict[str, _Column] = {}
    for r, args in enumerate(e_args):
        if args is None:
            agree[r] = 1.0  # unchecked: one agreeing unit with anything
            continue
        if not args:
            agree[r] = a_empty  # "no arguments" agrees with no arguments
            continue
        row = agree[r]
        for name, value in args.items():
            column = columns.get(name)
            if column is None:
                column = columns[name] = _Column(name, a_args, strict)
            row += column.hits(value, strict)
    return agree
