"""Minimum-cost rectangular assignment (the Hungarian method, vectorised with numpy).

Shortest augmenting paths with row/column potentials: one augmentation per row of the smaller
side, each a Dijkstra-like scan whose inner loop is one numpy pass over the columns. Exact for
any real cost matrix; every row of the smaller side is assigned.
"""

from __future__ import annotations

from typing import Any

__all__ = ["solve_assignment"]


def solve_assignment(cost: Any) -> list[tuple[int, int]]:
    """Return ``(row, col)`` pairs of a minimum-cost assignment of ``min(rows, cols)`` pairs.

    Example:
        >>> import numpy as np
        >>> sorted(solve_assignment(np.array([[4.0, 1.0], [2.0, 8.0]])))
        [(0, 1), (1, 0)]
    """
    import numpy as np

    matrix = np.asarray(cost, dtype=np.float64)
    if matrix.ndim != 2 or matrix.size == 0:
        return []
    transposed = matrix.shape[0] > matrix.shape[1]
    if transposed:
        matrix = matrix.T
    n_rows, n_cols = matrix.shape
    # Shift to non-negative costs: potentials then start at zero safely.
    matrix = matrix - matrix.min()
    # Each row's cheapest column, first one on ties. When no two rows share it, every row
    # takes the fast path below (which never moves the column potentials), so this is the
    # assignment the loop would build, found in one pass: each row at its minimum is optimal.
    firsts = matrix.argmin(axis=1)
    if len(set(firsts.tolist())) == n_rows:
        order = np.argsort(firsts, kind="stable")
        pairs = [(int(r), int(firsts[r])) for r in order]
        return [(c, r) for r, c in pairs] if transposed else pairs
    inf = np.inf
    u = np.zeros(n_rows + 1)
    v = np.zeros(n_cols + 1)
    owner = np.zeros(n_cols + 1, dtype=np.int64)  # owner[j]: 1-based row on column j (0 = free)
    way = np.zeros(n_cols + 1, dtype=np.int64)
    for row in range(1, n_rows + 1):
        # Fast path, the common case on traces: the row's cheapest column (under the current
        # potentials) is free, so the shortest augmenting path is that single edge.
        reduced = matrix[row - 1] - v[1:]
        best = int(np.argmin(reduced)) + 1
        if owner[best] == 0:
            delta = reduced[best - 1] - u[row]
            u[row] += delta
            v[0] -= delta
            owner[best] = row
            continue
        owner[0] = row
        col0 = 0
        min_to = np.full(n_cols + 1, inf)
        used = np.zeros(n_cols + 1, dtype=bool)
        while True:
            used[col0] = True
            r0 = owner[col0]
            reduced = matrix[r0 - 1] - u[r0] - v[1:]
            free = ~used[1:]
            better = free & (reduced < min_to[1:])
            min_to[1:][better] = reduced[better]
            way[1:][better] = col0
            candidates = np.where(free, min_to[1:], inf)
            col1 = int(np.argmin(candidates)) + 1
            delta = candidates[col1 - 1]
            u[owner[used]] += delta
            v[used] -= delta
            min_to[1:][free] -= delta
            col0 = col1
            if owner[col0] == 0:
                break
        while col0:
            prev = int(way[col0])
            owner[col0] = owner[prev]
            col0 = prev
    pairs = [(int(owner[j]) - 1, j - 1) for j in range(1, n_cols + 1) if owner[j] != 0]
    return [(c, r) for r, c in pairs] if transposed else pairs
