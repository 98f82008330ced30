"""Plain-text tables, and how wide an output may be, for every command and summary.

The rule for every output of both packages: off a terminal (a pipe, a file, a CI log) nothing
wraps and nothing is cut, so a line can be searched and parsed whole; on a terminal, output fits
its width, and a table too wide for it puts each row on two lines, the first column (a test id,
a trace, a snapshot name) whole on the first, never cut.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence
from typing import IO, Any

__all__ = ["align_columns", "console_width", "fit_columns", "fitted_lines", "terminal_width"]

#: What a rich console is given off a terminal: wide enough that no line ever wraps.
_UNWRAPPED = 100_000


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


def fit_columns(
    rows: Sequence[Sequence[str]],
    width: int | None,
    right: Collection[int] = (),
    lead: int = 1,
) -> list[list[str]]:
    """Each row's lines: one aligned line when the table fits ``width`` (``None``: off a
    terminal, where it always does), else two: the first ``lead`` cells (the id: a test id, a
    trace, a name) whole on the first line, the other cells, aligned among themselves,
    indented on the second.

    ``right`` numbers the columns that align right, as in :func:`align_columns`.

    Example:
        >>> rows = [["test", "score"], ["test_a_rather_long_name.py::test_it", "1.0000"]]
        >>> fit_columns(rows, None)[1]
        ['test_a_rather_long_name.py::test_it  1.0000']
        >>> fit_columns(rows, 30)[1]
        ['test_a_rather_long_name.py::test_it', '  1.0000']
    """
    lines = align_columns(rows, right)
    if width is None or not lines or max(len(line) for line in lines) <= width:
        return [[line] for line in lines]
    heads = align_columns([r[:lead] for r in rows], {i for i in right if i < lead})
    rest = align_columns([r[lead:] for r in rows], {i - lead for i in right if i >= lead})
    return [[head, "  " + line] for head, line in zip(heads, rest, strict=True)]


def fitted_lines(
    rows: Sequence[Sequence[str]],
    stream: IO[str] | Any,
    right: Collection[int] = (),
    lead: int = 1,
) -> str:
    """The table as text for ``stream``: :func:`fit_columns` at its terminal's width.

    Example:
        >>> import io
        >>> print(fitted_lines([["name", "calls"], ["booking", "2"]], io.StringIO()), end="")
        name     calls
        booking  2
    """
    width = terminal_width(stream)
    return "".join(line + "\n" for lines in fit_columns(rows, width, right, lead) for line in lines)


def terminal_width(stream: IO[str] | Any) -> int | None:
    """The width of the terminal ``stream`` writes to, or None when it is not a terminal.

    ``COLUMNS`` wins when set (as for rich and pytest); else the terminal's own size.

    Example:
        >>> import io
        >>> terminal_width(io.StringIO()) is None
        True
    """
    isatty = getattr(stream, "isatty", None)
    if not (callable(isatty) and isatty()):
        return None
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):
        return 80


def console_width(stream: IO[str] | Any) -> int | None:
    """The ``width`` to give a rich ``Console`` writing to ``stream``: None on a terminal
    (rich fits it), and off one so wide that no line wraps.

    Example:
        >>> import io
        >>> console_width(io.StringIO())
        100000
    """
    return None if terminal_width(stream) is not None else _UNWRAPPED
