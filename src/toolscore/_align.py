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
2. What is left per tool splits into the connected components of the graph "shares an argument
   value" (a value every leftover call shares is ignored: it adds one unit to every pair).
   Components with one call on a side are solved directly, larger ones exactly with a
   vectorised Hungarian algorithm (``_assignment``) on an integer cost that puts agreement
   first and order displacement second; calls left over pair in order (zero agreement).
   Expected calls that do not check their arguments take what the others leave, in order.
   When expected calls hold matchers, the leftovers of that tool form one dense agreement
   matrix (``_agreement``: each matcher asked once per distinct actual value).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from toolscore._compare import NOT_CANONICAL, canonical
from toolscore.metrics.arguments import ArgumentCount, count_pair, missed_units

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


# Values whose Python ``==`` differs from the comparison rule: ``True == 1`` (the rule keeps
# bools apart) and tuples (the rule recurses into them with its own element comparison).
_NOT_PLAIN = frozenset((bool, tuple))


def args_key(args: dict[str, Any] | None, strict: bool) -> Any:
    """Hash key of an argument dict: equal keys mean identical under the comparison rule.

    Flat dicts of hashable values other than bools and tuples (str, int, float, None: the
    common case) take a C-speed path, where Python's own ``==`` and ``hash`` never call two
    values equal that the rule tells apart (ints and floats compare numerically in both;
    strings equal exactly are equal after stripping; other objects compare with ``==`` in
    both). A matcher there hashes by identity, so it never meets a plain value. Bools,
    tuples and unhashable values go through ``canonical()``. Returns ``NOT_CANONICAL`` when
    no key exists (matchers, NaN, unknown objects); such calls are left to step 2.
    """
    if args is None:
        return NOT_CANONICAL
    values = args.values()
    if _NOT_PLAIN.isdisjoint(map(type, values)):
        try:
            if strict:
                return frozenset(zip(args.keys(), map(type, values), values, strict=False))
            return frozenset(args.items())
        except TypeError:  # unhashable values (lists, dicts)
            pass
    return canonical(args, strict)


def align(
    e_tools: list[str],
    e_args: list[dict[str, Any] | None],
    a_tools: list[str],
    a_args: list[dict[str, Any] | None],
    strict: bool = False,
    named_only: bool = False,
) -> Alignment:
    """Pair expected with actual calls one-to-one (see the module docstring).

    ``e_args[i] is None`` means "do not check"; ``a_args[j] is None`` is read as ``{}``.
    ``named_only``: actual arguments the expected call does not name are not counted.
    """
    # Step 1: identical (tool, arguments) pairs, k-th with k-th. Most keys are unique, so a
    # bucket is a bare index until a second call shares it.
    pool: dict[tuple[str, Hashable], Any] = {}
    a_keys = [args_key(args or {}, strict) for args in a_args]
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
    counts: dict[int, ArgumentCount] = {}
    e_keys = [args_key(args, strict) for args in e_args]
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
        args = e_args[i]
        taken[j] = 1
        partner[i] = j
        units = len(args) if args else 1
        count = counts.get(units)
        if count is None:
            count = counts[units] = ArgumentCount(units, units, units)
        pair_count[i] = count
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
            for i, j, count in _solve_residual(e_args, a_args, e_idx, a_idx, strict, named_only):
                taken[j] = 1
                partner[i] = j
                pair_count[i] = count

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


_EMPTY = object()  # the "no arguments" unit, a group of its own


def _solve_residual(
    all_e_args: list[dict[str, Any] | None],
    all_a_args: list[dict[str, Any] | None],
    rest_e: list[int],
    rest_a: list[int],
    strict: bool,
    named_only: bool = False,
) -> list[tuple[int, int, ArgumentCount]]:
    """Optimal pairing of what step 1 left for one tool, with each pair's argument count.

    Only pairs with positive agreement matter for the weight, so the problem splits into
    the connected components of the "shares an argument value" graph; each component is
    solved on its own and the calls left over are paired in order (zero agreement, which
    keeps the number of pairs maximal).
    """
    m, n = len(rest_e), len(rest_a)
    if m == 1 and n == 1:
        i, j = rest_e[0], rest_a[0]
        return [(i, j, count_pair(all_e_args[i], all_a_args[j], strict, named_only))]
    unchecked = [i for i in rest_e if all_e_args[i] is None]
    if unchecked and (m <= n or len(unchecked) == m):
        # An unchecked call agrees equally (one unit) with any partner. When every expected
        # call gets a partner anyway, the checked ones choose first and the unchecked ones
        # take what is left, in order.
        checked = [i for i in rest_e if all_e_args[i] is not None]
        out = (
            _solve_residual(all_e_args, all_a_args, checked, rest_a, strict, named_only)
            if checked
            else []
        )
        used = {j for _, j, _ in out}
        left = [j for j in rest_a if j not in used]
        one = ArgumentCount(1, 1, 1)
        out.extend((i, j, one) for i, j in zip(unchecked, left, strict=False))
        return out
    e_args = [all_e_args[i] for i in rest_e]
    a_args = [all_a_args[j] or {} for j in rest_a]
    columns = _canonical_columns(e_args, a_args, strict)
    if columns is None:
        # Matchers or unchecked arguments: one dense matrix, built name by name.
        from toolscore._agreement import agreement_matrix

        agree = agreement_matrix(e_args, a_args, strict)
        block = _solve_block(agree, list(range(m)), list(range(n)), m, n)
        return [
            (rest_e[r], rest_a[c], count_pair(e_args[r], a_args[c], strict, named_only))
            for r, c in block
        ]
    e_canon, a_canon = columns
    groups: dict[Any, tuple[list[int], list[int]]] = {}
    for r, d in enumerate(e_canon):
        for item in d.items() if d else ((_EMPTY, _EMPTY),):
            groups.setdefault(item, ([], []))[0].append(r)
    for c, d in enumerate(a_canon):
        for item in d.items() if d else ((_EMPTY, _EMPTY),):
            group = groups.get(item)
            if group is not None:
                group[1].append(c)
    parent = list(range(m + n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for rows, cols in groups.values():
        if not cols or (len(rows) == m and len(cols) == n):
            # A value every call on both sides shares adds 1 to every pair, so it changes no
            # choice; skipping it keeps unrelated calls in separate components.
            continue
        root = find(rows[0])
        for node in (*rows[1:], *(m + c for c in cols)):
            other = find(node)
            if other != root:
                parent[other] = root
    components: dict[int, tuple[list[int], list[int]]] = {}
    for r in range(m):
        components.setdefault(find(r), ([], []))[0].append(r)
    for c in range(n):
        components.setdefault(find(m + c), ([], []))[1].append(c)
    pairs: list[tuple[int, int]] = []
    left_r: list[int] = []
    left_c: list[int] = []
    for rows, cols in components.values():
        if not rows or not cols:
            left_r.extend(rows)
            left_c.extend(cols)
            continue
        if len(rows) == 1 or len(cols) == 1:
            block = [_best_single(e_canon, a_canon, rows, cols, m, n)]
        else:
            agree = _block_agreement(e_canon, a_canon, rows, cols)
            block = _solve_block(agree, rows, cols, m, n)
        pairs.extend(block)
        used_r = {r for r, _ in block}
        used_c = {c for _, c in block}
        left_r.extend(r for r in rows if r not in used_r)
        left_c.extend(c for c in cols if c not in used_c)
    left_r.sort()
    left_c.sort()
    pairs.extend(zip(left_r, left_c, strict=False))
    return [
        (rest_e[r], rest_a[c], _count_canonical(e_canon[r], a_canon[c], named_only))
        for r, c in pairs
    ]


def _count_canonical(
    er: dict[str, Hashable], ac: dict[str, Hashable], named_only: bool
) -> ArgumentCount:
    """``count_pair`` on canonical forms (equal forms = values the rule calls equal)."""
    if not er:
        return ArgumentCount(1, 1, 1) if not ac else ArgumentCount(0, 1, len(ac))
    if not ac:
        return ArgumentCount(0, len(er), 1)
    agree = present = 0
    for k, v in er.items():
        if k in ac:
            present += 1
            if ac[k] == v:
                agree += 1
    return ArgumentCount(agree, len(er), max(present, 1) if named_only else len(ac))


def _canonical_columns(
    e_args: list[dict[str, Any] | None], a_args: list[dict[str, Any]], strict: bool
) -> tuple[list[dict[str, Hashable]], list[dict[str, Hashable]]] | None:
    """Per-argument canonical values, or None when the hash view is not exact."""
    e_canon: list[dict[str, Hashable]] = []
    a_canon: list[dict[str, Hashable]] = []
    for args in e_args:
        if args is None:
            return None
        d = {k: canonical(v, strict) for k, v in args.items()}
        if any(v is NOT_CANONICAL for v in d.values()):
            return None
        e_canon.append(d)
    for args in a_args:
        d = {k: canonical(v, strict) for k, v in args.items()}
        if any(v is NOT_CANONICAL for v in d.values()):
            return None
        a_canon.append(d)
    return e_canon, a_canon


def _agreement(er: dict[str, Hashable], ac: dict[str, Hashable]) -> int:
    if not er:
        return 0 if ac else 1
    return sum(1 for k, v in er.items() if k in ac and ac[k] == v)


def _best_single(
    e_canon: list[dict[str, Hashable]],
    a_canon: list[dict[str, Hashable]],
    rows: list[int],
    cols: list[int],
    m: int,
    n: int,
) -> tuple[int, int]:
    """A block with one row or one column: its best partner, ties broken by position."""
    best: tuple[int, float, int, int] | None = None
    for r in rows:
        for c in cols:
            key = (
                -_agreement(e_canon[r], a_canon[c]),
                abs(r * max(n - 1, 1) - c * max(m - 1, 1)),
                r,
                c,
            )
            if best is None or key < best:
                best = key
    assert best is not None
    return best[2], best[3]


def _block_agreement(
    e_canon: list[dict[str, Hashable]],
    a_canon: list[dict[str, Hashable]],
    rows: list[int],
    cols: list[int],
) -> Any:
    import numpy as np

    if len(rows) * len(cols) <= 64:
        return np.array(
            [[_agreement(e_canon[r], a_canon[c]) for c in cols] for r in rows], dtype=np.float64
        )
    ids: dict[Hashable, int] = {}
    keys = {k for r in rows for k in e_canon[r]}
    agree = np.zeros((len(rows), len(cols)), dtype=np.float64)
    for key in keys:
        e_col = np.array(
            [ids.setdefault(e_canon[r][key], len(ids)) if key in e_canon[r] else -1 for r in rows]
        )
        a_col = np.array([ids.get(a_canon[c][key], -2) if key in a_canon[c] else -3 for c in cols])
        agree += e_col[:, None] == a_col[None, :]
    e_empty = np.array([not e_canon[r] for r in rows])
    a_empty = np.array([not a_canon[c] for c in cols])
    agree += e_empty[:, None] & a_empty[None, :]
    return agree


def _solve_block(
    agree: Any, rows: list[int], cols: list[int], m: int, n: int
) -> list[tuple[int, int]]:
    """Best pairing of one block: agreement first, then closeness of relative position."""
    import numpy as np

    from toolscore._assignment import solve_assignment

    r_pos = np.asarray(rows, dtype=np.float64)[:, None] * max(n - 1, 1)
    c_pos = np.asarray(cols, dtype=np.float64)[None, :] * max(m - 1, 1)
    penalty = np.abs(r_pos - c_pos)
    scale = float(penalty.max()) * min(len(rows), len(cols)) + 1.0
    cost = penalty - agree * scale
    if len(rows) == 1:
        return [(rows[0], cols[int(np.argmin(cost[0]))])]
    if len(cols) == 1:
        return [(rows[int(np.argmin(cost[:, 0]))], cols[0])]
    return [(rows[r], cols[c]) for r, c in solve_assignment(cost)]
