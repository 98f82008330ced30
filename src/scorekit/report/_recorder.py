"""Collects report rows for the session that is active (a pytest run, or none).

The pytest plugin activates one :class:`Recorder` per session (kept in ``config.stash``) and
deactivates it at the end, so a nested pytester run records into its own recorder and the outer
session's rows stay untouched. Outside pytest no recorder is active and recording is a no-op.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from scorekit.report._rows import Row

_stack: list[Recorder] = []
_stack_lock = threading.Lock()


@dataclass(eq=False)
class Recorder:
    """Rows recorded in one session, and the test that is running now."""

    rows: list[Row] = field(default_factory=list)
    current_test: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, row: Row) -> None:
        """Record one row; its ``test_id`` defaults to the running test."""
        if row.test_id is None:
            row.test_id = self.current_test
        with self._lock:
            self.rows.append(row)

    def activate(self) -> None:
        """Make this the recorder that ``active_recorder()`` returns."""
        with _stack_lock:
            _stack.append(self)

    def deactivate(self) -> None:
        """Undo ``activate()`` (idempotent)."""
        with _stack_lock:
            for i in range(len(_stack) - 1, -1, -1):
                if _stack[i] is self:
                    del _stack[i]
                    break


def active_recorder() -> Recorder | None:
    """The innermost active recorder, or None outside a recording session."""
    with _stack_lock:
        return _stack[-1] if _stack else None


@contextmanager
def recording(recorder: Recorder | None = None) -> Iterator[Recorder]:
    """Activate a recorder for the duration of a ``with`` block.

    Example:
        >>> with recording() as rec:
        ...     pass
        >>> rec.rows
        []
    """
    rec = recorder or Recorder()
    rec.activate()
    try:
        yield rec
    finally:
        rec.deactivate()
