"""The judge requests of one scored assertion, as the judge layer makes them.

An assertion that runs while a report is being written (``--llm-report`` or
``--llm-report-html``) collects, through :func:`auditing`, one :class:`CallRecord` per judge
request it needed: a call to the judge, a reply served from the cache, or the reply of an
identical request made earlier in the session (a deterministic judge) or at the same time
(single flight). ``scorekit.session.audit_record`` turns them into the row's ``audit`` object.

The log is a context variable: it reaches the judge loop's tasks (``run_coroutine_threadsafe``
copies the caller's context), so each assertion sees only its own requests. Outside an
``auditing`` block :func:`current_log` is None and the judge does nothing more than that look-up,
so a run that writes no report pays nothing for audits.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

__all__ = ["SOURCES", "AuditLog", "CallRecord", "auditing", "current_log"]

#: How a reply was obtained: a request to the judge, the reply cache, or a reply shared with
#: an identical request of this session (deterministic judge, or in flight at the same time).
SOURCES = ("judge", "cache", "shared")


@dataclass
class CallRecord:
    """One judge request of an assertion.

    Attributes:
        kind: ``questions`` or ``answers``.
        run: ``[question_run]`` for questions, ``[question_run, answer_run]`` for answers.
        text: the text the judge read (only to tell the side; never written out).
        source: one of :data:`SOURCES`.
        tries: requests sent (1, plus one per retry); 0 unless ``source == "judge"``.
        prompt_tokens / completion_tokens: usage the judge reported, else None.
        seconds: time spent waiting on the judge for this request.
        error: why the request failed, when it did.
    """

    kind: str
    run: list[int]
    text: str = field(repr=False, default="")
    source: str = "judge"
    tries: int = 0
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    seconds: float = 0.0
    error: str | None = None

    def add_usage(self, prompt_tokens: int, completion_tokens: int) -> None:
        """Add one reply's usage (a retried request may report several)."""
        self.prompt_tokens = (self.prompt_tokens or 0) + int(prompt_tokens)
        self.completion_tokens = (self.completion_tokens or 0) + int(completion_tokens)


class AuditLog:
    """The judge requests of one assertion (appended from the judge loop's thread)."""

    def __init__(self) -> None:
        self._records: list[CallRecord] = []
        self._lock = threading.Lock()

    def add(self, record: CallRecord) -> CallRecord:
        """Keep ``record`` (updated in place while its request runs) and return it."""
        with self._lock:
            self._records.append(record)
        return record

    def records(self) -> list[CallRecord]:
        """A copy of the records so far, in the order the requests started."""
        with self._lock:
            return list(self._records)


_current: ContextVar[AuditLog | None] = ContextVar("scorekit_audit_log", default=None)


def current_log() -> AuditLog | None:
    """The log of the assertion in progress, or None when no audit is being collected.

    Example:
        >>> current_log() is None
        True
        >>> with auditing() as log:
        ...     current_log() is log
        True
    """
    return _current.get()


@contextmanager
def auditing(enabled: bool = True) -> Iterator[AuditLog | None]:
    """Collect the judge requests made inside the block (a no-op yielding None when not
    ``enabled``)."""
    if not enabled:
        yield None
        return
    log = AuditLog()
    token = _current.set(log)
    try:
        yield log
    finally:
        _current.reset(token)
