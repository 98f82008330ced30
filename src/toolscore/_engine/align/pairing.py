"""One-to-one alignment of expected calls with actual calls.

Pairs only join calls to the same tool. The pairing has the most pairs (per tool that is
``min(#expected, #actual)``), then the most agreeing argument units (``metrics.arguments``);
among equally good pairings it prefers ones that keep the original order (a tie-breaker applied
within each step below, not a global optimum of displacement).

How it stays fast on long traces:

1. Calls whose arguments are identical under the comparison rule are paired first, by hashing
   a canonical form (in order, k-th with k-th). This is safe: when the expected arguments hold
   no matchers an identical pair agrees on every unit, and swapping it into any optimal pairing
   never lowers the agreement (the rule is an equivalence without matchers), so some optimal
   pairing contains it.
2. (``_residual``) What is left per tool splits into the connected components of the graph
   "shares an argument value" (a value every leftover call shares is ignored: it adds one unit
   to every pair).
   Components with one call on a side are solved directly, larger ones exactly with a
   vectorised Hungarian algorithm (``_assignment``) on an integer cost that puts agreement
   first and order displacement second; calls left over pair in order (zero agreement).
   Expected calls that do not check their arguments take what the others leave, in order.
   When expected calls hold matchers, the leftovers of that tool form one dense agreement
   matrix (``_agreement``: each matcher asked once per distinct actual value).
"""

from __future__ import annotations

import marshal
from collections import defaultdict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from toolscore._engine.align.residual import solve_residual
from toolscore._engine.compare.counts import ArgumentCount, count_pair, missed_units
from toolscore._engine.compare.matchers import PLAIN_TYPES, Matcher
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical

__all__ = ["Alignment", "align"]


@dataclass
class Alignment:
    """The pairing and its argument unit counts.

    Attributes:
        pairs: ``(expected_index, actual_index)``, sorted by expected index.
        counts: the argument count of each pair, parallel to ``pairs``.
        missing: expected indices with no partner.
        extra: actual indices with no partner.
    """

    pairs: list[tuple[int, int]] = field(default_factory=list)
    counts: list[ArgumentCount] = field(default_factory=list)
    missing: list[int] = field(default_factory=list)
    extra: list[int] = field(default_factory=list)
    agree: int = 0
    expected_units: int = 0
    actual_units: int = 0


# Exact types whose Python ``==`` and ``hash`` never join values the rule tells apart (bool
# is not among them: ``True == 1``; nor tuples, compared element by element by the rule).
_PLAIN = frozenset((str, int, float, type(None)))
_NAN_TEXT = b"\x03nan"  # a float (or complex part) NaN in marshal format 0


def args_key(args: dict[str, Any] | None, strict: bool) -> Any:
    """Hash key of an argument dict: equal keys mean identical under the comparison rule.

    Flat dicts of str, int, float and None values (the common case) take a C-speed path,
    where Python's own ``==`` and ``hash`` never call two values equal that the rule tells
    apart (ints and floats compare numerically in both; strings equal exactly are equal
    after stripping). Bools, tuples and nested values are keyed by their marshal bytes (see
    below), anything else by ``canonical()``. Equal keys always mean identical calls;
    identical calls may get different keys (``1`` and ``1.0`` nested in a list), which only
    skips this shortcut.
    Returns ``NOT_CANONICAL`` when no key exists (matchers, NaN, unknown objects); such calls
    are left to step 2.
    """
    if args is None:
        return NOT_CANONICAL
    values = args.values()
    if _PLAIN.issuperset(map(type, values)):
        if strict:
            return frozenset(zip(args.keys(), map(type, values), values, strict=False))
        return frozenset(args.items())
    if any(type(v) not in PLAIN_TYPES and isinstance(v, Matcher) for v in values):
        return NOT_CANONICAL  # what canonical() gives a matcher, without marshal's attempt
    # Nested values: marshal's bytes, written in C. Equal bytes mean the same structure of
    # the same exact built-in types (bool apart from int, list apart from tuple, keys typed),
    # which the rule calls identical in both modes, except NaN: marshal format 0 writes every
    # float as text, so a NaN shows as b"\x03nan" and such values take the slow path. Objects
    # marshal cannot write (matchers, subclasses, other objects) take it too.
    try:
        data = marshal.dumps(args, 0)
    except ValueError:
        return canonical(args, strict)
    return canonical(args, strict) if _NAN_TEXT in data else data


def align(  # noqa: C901 (the alignment's steps in order: shortcuts, hashing, residual; each documented)
    e_tools: list[str],
    e_args: list[dict[str, Any] | None],
    a_tools: list[str],
    a_args: list[dict[str, Any] | None],
    strict: bool = False,
    named_only: bool = False,
    *,
    shortcuts: bool = True,
) -> Alignment:
    """Pair expected with actual calls one-to-one (see the module docstring).

    ``e_args[i] is None`` means "do not check"; ``a_args[j] is None`` is read as ``{}``.
    ``named_only``: actual arguments the expected call does not name are not counted.
    ``shortcuts=False`` skips the shortcuts for small traces (no repeated tool; the same
    calls in the same order), which give the same alignment faster (tests compare the two).
    """
    if shortcuts:
        a_index = dict(zip(a_tools, range(len(a_tools)), strict=True))
        if len(a_index) == len(a_tools) and len(set(e_tools)) == len(e_tools):
            return _align_unique(e_tools, e_args, a_index, a_args, strict, named_only)
    # Step 1: identical (tool, arguments) pairs, k-th with k-th. Most keys are unique, so a
    # bucket is a bare index until a second call shares it.
    a_keys = [args_key(args or {}, strict) for args in a_args]
    e_keys = [args_key(args, strict) for args in e_args]
    if shortcuts and e_tools == a_tools and e_keys == a_keys and NOT_CANONICAL not in e_keys:
        return _align_identical(e_args)
    pool: dict[tuple[str, Hashable], Any] = {}
    for j, slot in enumerate(zip(a_tools, a_keys, strict=False)):
        if slot[1] is NOT_CANONICAL:
            continue
        bucket = pool.setdefault(slot, j)
        if bucket is not j:
            if type(bucket) is int:
                pool[slot] = deque((bucket, j))
            else:
                bucket.append(j)
    n_e = len(e_tools)
    partner = [-1] * n_e
    pair_count: list[ArgumentCount | None] = [None] * n_e
    taken = bytearray(len(a_tools))
    rest_e: dict[str, list[int]] = defaultdict(list)
    for i, slot in enumerate(zip(e_tools, e_keys, strict=False)):
        bucket = pool.pop(slot, None) if slot[1] is not NOT_CANONICAL else None
        if bucket is None:
            rest_e[slot[0]].append(i)
            continue
        if type(bucket) is int:
            j = bucket
        else:
            j = bucket.popleft()
            if bucket:
                pool[slot] = bucket
        taken[j] = 1
        partner[i] = j
        pair_count[i] = _full_count(len(e_args[i]) or 1)  # type: ignore[arg-type]
    # Step 2: the residual assignment problem, per tool.
    if rest_e:
        rest_a: dict[str, list[int]] = defaultdict(list)
        for j, tool in enumerate(a_tools):
            if not taken[j] and tool in rest_e:
                rest_a[tool].append(j)
        for tool, e_idx in rest_e.items():
            a_idx = rest_a.get(tool)
            if not a_idx:
                continue
            for i, j, count in solve_residual(e_args, a_args, e_idx, a_idx, strict, named_only):
                taken[j] = 1
                partner[i] = j
                pair_count[i] = count
    return _alignment(partner, pair_count, e_args, taken)


def _alignment(
    partner: list[int],
    pair_count: list[ArgumentCount | None],
    e_args: list[dict[str, Any] | None],
    taken: bytearray,
) -> Alignment:
    """The alignment of ``partner[i]`` (-1: none) with ``pair_count[i]``, totals summed."""
    out = Alignment()
    pairs, pcounts, missing = out.pairs, out.counts, out.missing
    agree = exp_units = act_units = 0
    for i, j in enumerate(partner):
        if j >= 0:
            count = pair_count[i]
            assert count is not None
            pairs.append((i, j))
            pcounts.append(count)
            agree += count.agree
            exp_units += count.expected
            act_units += count.actual
        else:
            missing.append(i)
            exp_units += missed_units(e_args[i])
    out.agree, out.expected_units, out.actual_units = agree, exp_units, act_units
    out.extra = [j for j, t in enumerate(taken) if not t]
    return out


def _align_unique(
    e_tools: list[str],
    e_args: list[dict[str, Any] | None],
    a_index: dict[str, int],
    a_args: list[dict[str, Any] | None],
    strict: bool,
    named_only: bool,
) -> Alignment:
    """``align()`` when no tool name repeats on either side (most small traces).

    Each tool then has at most one call per side, so the pairing is forced: an expected call
    pairs with the actual call to its tool, if there is one. Its count is what the two steps
    of ``align()`` give such a pair: step 1 (equal keys) counts every unit as agreeing, step 2
    (a residual of one call per side) is ``count_pair``. Same result, without the pools.

    A pair whose arguments are ``_same`` agrees on every unit without computing the keys.
    """
    out = Alignment()
    pairs, pcounts, missing = out.pairs, out.counts, out.missing
    taken = bytearray(len(a_args))
    agree = exp_units = act_units = 0
    for i, tool in enumerate(e_tools):
        args = e_args[i]
        j = a_index.get(tool)
        if j is None:
            missing.append(i)
            exp_units += missed_units(args)
            continue
        taken[j] = 1
        other = a_args[j] or {}
        if args is not None and (_same(args, other) or _same_key(args, other, strict)):
            count = _full_count(len(args) or 1)
        else:
            count = count_pair(args, other, strict, named_only)
        pairs.append((i, j))
        pcounts.append(count)
        agree += count.agree
        exp_units += count.expected
        act_units += count.actual
    out.agree, out.expected_units, out.actual_units = agree, exp_units, act_units
    out.extra = [j for j, t in enumerate(taken) if not t]
    return out


def _align_identical(e_args: list[dict[str, Any] | None]) -> Alignment:
    """``align()`` when the same tools were called in the same order with arguments of the
    same keys, position by position: step 1 then pairs every call with the one at its
    position (the calls of each (tool, key) slot sit at the same positions on both sides and
    pair k-th with k-th), every unit agreeing, and leaves nothing to step 2.
    """
    out = Alignment()
    out.pairs = [(k, k) for k in range(len(e_args))]
    out.counts = counts = [_full_count(len(args) or 1) for args in e_args]  # type: ignore[arg-type]
    out.agree = out.expected_units = out.actual_units = sum(c.agree for c in counts)
    return out


def _same(args: dict[str, Any], other: dict[str, Any]) -> bool:
    """Equal marshal bytes without NaN: the same structure of the same exact built-in types.

    Then ``args_key`` gives both the same key, whichever form it takes (flat ``str``/
    ``int``/``float``/``None`` values: their type codes are theirs alone, so both dicts are
    flat and hold equal items; typed; or these very bytes). False says nothing.
    """
    try:
        data = marshal.dumps(args, 0)
        return data == marshal.dumps(other, 0) and _NAN_TEXT not in data
    except ValueError:  # a matcher or another object marshal cannot write
        return False


def _same_key(args: dict[str, Any], other: dict[str, Any], strict: bool) -> bool:
    """Step 1's own test: both calls have the same canonical key."""
    key = args_key(args, strict)
    return key is not NOT_CANONICAL and bool(key == args_key(other, strict))


_FULL: dict[int, ArgumentCount] = {}


def _full_count(units: int) -> ArgumentCount:
    """``ArgumentCount(units, units, units)``, shared (counts are immutable)."""
    count = _FULL.get(units)
    if count is None:
        count = ArgumentCount(units, units, units)
        if units < 64:
            _FULL[units] = count
    return count
