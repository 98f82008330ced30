"""Step 2 of the alignment: the optimal pairing of the calls to one tool left after step 1.

See ``align/pairing.py`` for the whole picture. Only pairs with positive agreement change the
total, so the problem splits into connected components of the "shares an argument value"
graph; each is solved on its own (directly when one side has one call, else by
``assignment``) and the calls left over pair in order. Expected calls with matchers or
unchecked arguments use one dense matrix per tool (``agreement``).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable
from typing import Any

from toolscore._engine.compare.counts import ArgumentCount, count_pair, units
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical

__all__ = ["solve_residual"]


_EMPTY = object()  # the "no arguments" unit, a group of its own


def _two_lists() -> tuple[list[int], list[int]]:
    return [], []


def solve_residual(  # noqa: C901 (one optimisation: exact split, small exhaustive search, assignment)
    all_e_args: list[dict[str, Any] | None],
    all_a_args: list[dict[str, Any] | None],
    rest_e: list[int],
    rest_a: list[int],
    strict: bool,
    named_only: bool = False,
) -> list[tuple[int, int, ArgumentCount]]:
    """Optimal pairing of what step 1 left for one tool, with each pair's argument count
    (the module docstring says how); calls left over pair in order, keeping the most pairs."""
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
            solve_residual(all_e_args, all_a_args, checked, rest_a, strict, named_only)
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
        from toolscore._engine.align.agreement import agreement_matrix

        agree = agreement_matrix(e_args, a_args, strict)
        kept = agree.copy()  # _solve_block turns its matrix into costs
        block = _solve_block(agree, list(range(m)), list(range(n)), m, n)
        out = []
        for r, c in block:
            er, ac = e_args[r], a_args[c]
            if er:
                # The matrix holds count_pair's agreeing names; only the shared names are left.
                present = sum(1 for k in er if k in ac)
                count = units(len(er), len(ac), int(kept[r, c]), present, named_only)
            else:
                count = count_pair(er, ac, strict, named_only)
            out.append((rest_e[r], rest_a[c], count))
        return out
    e_canon, a_canon = columns
    groups: dict[Any, tuple[list[int], list[int]]] = defaultdict(_two_lists)
    for r, d in enumerate(e_canon):
        for item in d.items() if d else ((_EMPTY, _EMPTY),):
            groups[item][0].append(r)
    for c, d in enumerate(a_canon):
        for item in d.items() if d else ((_EMPTY, _EMPTY),):
            if item in groups:
                groups[item][1].append(c)
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
    components: dict[int, tuple[list[int], list[int]]] = defaultdict(_two_lists)
    for r in range(m):
        components[find(r)][0].append(r)
    for c in range(n):
        components[find(m + c)][1].append(c)
    pairs: list[tuple[int, int]] = []
    left_r: list[int] = []
    left_c: list[int] = []
    for rows, cols in components.values():
        if not rows or not cols:
            left_r.extend(rows)
            left_c.extend(cols)
            continue
        if len(rows) == 1 and len(cols) == 1:
            pairs.append((rows[0], cols[0]))
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
    agree = present = 0
    for k, v in er.items():
        if k in ac:
            present += 1
            if ac[k] == v:
                agree += 1
    return units(len(er), len(ac), agree, present, named_only)


def _canonical_columns(
    e_args: list[dict[str, Any] | None], a_args: list[dict[str, Any]], strict: bool
) -> tuple[list[dict[str, Hashable]], list[dict[str, Hashable]]] | None:
    """Per-argument canonical values, or None when the hash view is not exact."""
    if any(args is None for args in e_args):
        return None
    form = canonical
    e_canon: list[dict[str, Hashable]] = []
    for args in e_args:
        d = {k: form(v, strict) for k, v in args.items()}  # type: ignore[union-attr]
        if NOT_CANONICAL in d.values():
            return None  # a matcher (or NaN) on the expected side: no need to read the rest
        e_canon.append(d)
    a_canon: list[dict[str, Hashable]] = [
        {k: form(v, strict) for k, v in args.items()} for args in a_args
    ]
    if any(NOT_CANONICAL in d.values() for d in a_canon):
        return None
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

    from toolscore._engine.align.assignment import solve_assignment

    r_step, c_step = max(n - 1, 1), max(m - 1, 1)
    r_pos = np.asarray(rows, dtype=np.float64)[:, None] * r_step
    c_pos = np.asarray(cols, dtype=np.float64)[None, :] * c_step
    cost = np.subtract(r_pos, c_pos)
    np.abs(cost, out=cost)  # displacement penalty, integers
    # The largest penalty sits at a corner; the whole order tie-break must weigh less than one
    # unit of agreement, so agreement is scaled above the sum of all penalties.
    largest = max(
        abs(rows[-1] * r_step - cols[0] * c_step), abs(rows[0] * r_step - cols[-1] * c_step)
    )
    scale = float(largest) * min(len(rows), len(cols)) + 1.0
    cost -= np.multiply(agree, scale, out=agree)
    if len(rows) == 1:
        return [(rows[0], cols[int(np.argmin(cost[0]))])]
    if len(cols) == 1:
        return [(rows[int(np.argmin(cost[:, 0]))], cols[0])]
    return [(rows[r], cols[c]) for r, c in solve_assignment(cost)]
