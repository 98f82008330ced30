"""The agreement matrix of expected calls that hold matchers (or skip their arguments).

``agree[r, c]`` = argument units on which expected call ``r`` and actual call ``c`` agree, the
same number ``metrics.arguments.count_pair`` gives, built one argument name at a time:

* a plain expected value meets the actual values through their canonical forms (one numpy
  comparison per expected call and name);
* a matcher is asked once per *distinct* actual value under that name, not once per call;
* actual values with no canonical form (NaN, odd objects) are compared with the rule itself.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from typing import Any

import numpy as np

from toolscore._engine.compare.matchers import Approx, IsType, Regex, _AnyMatcher
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical, contains_matcher, values_match

__all__ = ["agreement_matrix"]

_ABSENT = -1
_UNSEEN = -2  # the canonical id of an expected value no actual call holds


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
        n = len(a_args)
        raw_ids = [_ABSENT] * n
        canon_ids = [_ABSENT] * n
        self.reps: list[Any] = []  # one raw value per raw id
        self.odd: list[int] = []  # calls whose value has no canonical form
        raw_index: dict[Hashable, int] = {}
        canon_index: dict[Hashable, int] = {}
        self.canon_index = canon_index
        for c, args in enumerate(a_args):
            if name not in args:
                continue
            value = args[name]
            kind = type(value)
            if kind is str or kind is int:
                # The common values, inline: hashable, and their canonical form is known
                # (a lenient string is compared stripped).
                key: Hashable | None = (kind, value)
                form = value.strip() if kind is str and not strict else value
            else:
                key = _raw_key(value)
                form = canonical(value, strict)
            rid = raw_index.get(key) if key is not None else None
            if rid is None:
                rid = len(self.reps)
                self.reps.append(value)
                if key is not None:
                    raw_index[key] = rid
            raw_ids[c] = rid
            if form is NOT_CANONICAL:
                self.odd.append(c)
            else:
                cid = canon_index.get(form)
                if cid is None:
                    cid = canon_index[form] = len(canon_index)
                canon_ids[c] = cid
        self.raw_ids = np.array(raw_ids, dtype=np.int64)
        self.canon_ids = np.array(canon_ids, dtype=np.int64)
        self.present = self.raw_ids != _ABSENT

    def hits(self, expected: Any, strict: bool) -> Any:
        """Boolean vector: which actual calls agree with ``expected`` (a matcher, or a value
        with no canonical form) under this name."""
        if isinstance(expected, _AnyMatcher):
            return self.present
        by_raw = np.fromiter(
            (values_match(expected, rep, strict) for rep in self.reps),
            dtype=bool,
            count=len(self.reps),
        )
        out = np.zeros(len(self.raw_ids), dtype=bool)
        out[self.present] = by_raw[self.raw_ids[self.present]]
        return out


def agreement_matrix(
    e_args: list[dict[str, Any] | None], a_args: list[dict[str, Any]], strict: bool
) -> Any:
    """``agree[r, c]`` for expected argument dicts ``e_args`` and actual ``a_args``, one name
    at a time for all rows at once; rows holding twin matchers (same memo key) share one
    verdict vector."""
    m, n = len(e_args), len(a_args)
    agree = np.zeros((m, n), dtype=np.float64)
    a_empty = np.fromiter((not a for a in a_args), dtype=bool, count=n)
    by_name: dict[str, list[tuple[int, Any]]] = defaultdict(list)
    for r, args in enumerate(e_args):
        if args is None:
            agree[r] = 1.0  # unchecked: one agreeing unit with anything
            continue
        if not args:
            agree[r] = a_empty  # "no arguments" agrees with no arguments
            continue
        for name, value in args.items():
            by_name[name].append((r, value))
    for name, entries in by_name.items():
        column = _Column(name, a_args, strict)
        plain_rows: list[int] = []
        plain_values: list[Any] = []
        plain_ids: list[int] = []
        twins: dict[Hashable, tuple[Any, list[int]]] = {}
        canon_index = column.canon_index
        for r, value in entries:
            kind = type(value)
            if kind is str or kind is int:  # canonical() inline: the stripped text, the int
                form = value.strip() if kind is str and not strict else value
            elif contains_matcher(value):
                form = NOT_CANONICAL
            else:
                form = canonical(value, strict)
            if form is not NOT_CANONICAL:
                plain_rows.append(r)
                plain_values.append(value)
                plain_ids.append(canon_index.get(form, _UNSEEN))
                continue
            # Same memo key, same verdicts: one hits() vector per key.
            key = ("any",) if isinstance(value, _AnyMatcher) else _memo_key(value)
            twins.setdefault(key, (value, []))[1].append(r)
        for value, rows_of in twins.values():
            agree[np.asarray(rows_of, dtype=np.intp)] += column.hits(value, strict)
        if plain_rows:
            rows = np.asarray(plain_rows, dtype=np.intp)
            ids = np.asarray(plain_ids, dtype=np.int64)
            # A row appears once per name, so fancy-index addition adds each row's hits once.
            agree[rows] += ids[:, None] == column.canon_ids[None, :]
            for c in column.odd:  # no canonical form: let the rule decide
                rep = column.reps[column.raw_ids[c]]
                for r, value in zip(plain_rows, plain_values, strict=True):
                    if values_match(value, rep, strict):
                        agree[r, c] += 1.0
    return agree
