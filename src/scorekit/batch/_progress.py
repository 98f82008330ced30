"""Progress of a dataset run: a rich bar on a terminal, a plain line now and then elsewhere.

The bar shows rows done, rows per second, errors and, when the size of the input is known
(JSON-lines bytes, Parquet row counts), the share done and the time left. Off a terminal (CI,
a log file) one line goes to stderr every ``interval`` seconds and one at the end.
"""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

__all__ = ["Progress", "make_progress"]


class Progress:
    """No output; the base of the two reporters. ``label`` names the source, ``total`` is the
    size of the input in ``unit`` (``bytes`` or ``rows``), or None when unknown."""

    def __init__(self, label: str, total: int | None, unit: str) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.rows = 0
        self.errors = 0
        self.skipped = 0
        self.done = 0  # in ``unit``
        self.started = time.monotonic()

    def update(self, *, rows: int, errors: int, skipped: int, nbytes: int) -> None:
        """Count one more batch."""
        self.rows += rows
        self.errors += errors
        self.skipped += skipped
        self.done += nbytes if self.unit == "bytes" else rows + skipped
        self.show(final=False)

    def show(self, final: bool) -> None:
        """Draw (nothing here)."""

    def close(self) -> None:
        """Draw the last state and release the terminal."""
        self.show(final=True)

    @property
    def rate(self) -> float:
        """Rows per second so far."""
        elapsed = time.monotonic() - self.started
        return self.rows / elapsed if elapsed > 0 else 0.0


def _clock(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}"


class LineProgress(Progress):
    """One plain line every ``interval`` seconds (and at the end)."""

    def __init__(
        self, label: str, total: int | None, unit: str, stream: TextIO, interval: float
    ) -> None:
        super().__init__(label, total, unit)
        self.stream = stream
        self.interval = interval
        self._last = self.started

    def line(self) -> str:
        """The progress line."""
        parts = [f"{self.rows:,} rows", f"{self.errors:,} errors", f"{self.rate:,.0f} rows/s"]
        if self.skipped:
            parts.insert(1, f"{self.skipped:,} skipped (resumed)")
        if self.total:
            frac = min(self.done / self.total, 1.0)
            parts.append(f"{100 * frac:.0f}% done")
            if frac > 0:  # the time left, from the pace so far
                left = (time.monotonic() - self.started) * (1 - frac) / frac
                parts.append(f"ETA {_clock(left)}")
        return f"{self.label}: " + ", ".join(parts)

    def show(self, final: bool) -> None:
        now = time.monotonic()
        if final or now - self._last >= self.interval:
            self._last = now
            try:
                self.stream.write(self.line() + "\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass  # a closed stderr must not stop the run


class RichProgress(Progress):
    """A rich progress bar (rows, rows/s, errors, ETA) on a terminal."""

    def __init__(self, label: str, total: int | None, unit: str, stream: TextIO) -> None:
        super().__init__(label, total, unit)
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            TaskProgressColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
        from rich.progress import Progress as Bar

        self._bar = Bar(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[rows]} rows · {task.fields[rate]} rows/s"),
            TextColumn("{task.fields[errors]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            console=Console(file=stream),
            transient=False,
        )
        self._task: Any = self._bar.add_task(
            label, total=total, rows="0", rate="0", errors="no errors"
        )
        self._bar.start()

    def show(self, final: bool) -> None:
        errors = f"{self.errors:,} errors" if self.errors else "no errors"
        self._bar.update(
            self._task,
            completed=self.done,
            rows=f"{self.rows:,}",
            rate=f"{self.rate:,.0f}",
            errors=errors,
        )
        if final:
            if self.total is None:
                self._bar.update(self._task, total=self.done or 1, completed=self.done or 1)
            self._bar.stop()


def make_progress(
    mode: bool | None,
    label: str,
    total: int | None,
    unit: str,
    *,
    stream: TextIO | None = None,
    interval: float = 10.0,
) -> Progress:
    """The reporter for ``mode``: None (auto: a bar on a terminal, lines elsewhere), True
    (the same as auto), False (nothing)."""
    if mode is False:
        return Progress(label, total, unit)
    out = stream if stream is not None else sys.stderr
    isatty = getattr(out, "isatty", None)
    if callable(isatty) and isatty():
        return RichProgress(label, total, unit, out)
    return LineProgress(label, total, unit, out, interval)
