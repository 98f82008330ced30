"""Plain-text tables: columns padded to their widest cell, two spaces apart."""

from __future__ import annotations

from collections.abc import Collection, Sequence

__all__ = ["align_columns"]


def align_columns(rows: Sequence[Sequence[str]], right: Collection[int] = ()) -> list[str]:
    """The rows as lines of aligned columns; the columns numbered in ``right`` align right.

    Trailing spaces are dropped. Every row must have the same number of cells.

    Example:
        >>> print("\\n".join(align_columns([["name", "calls"], ["booking", "2"]], right={1})))
        name     calls
        booking      2
    """
    if not rows:
        return []
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return [
        "  ".join(
            cell.rjust(w) if i in right else cell.ljust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
