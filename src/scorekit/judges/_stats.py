"""Counters of judge work, for the terminal summary and the reports."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, fields


@dataclass
class JudgeStats:
    """What the judge layer did in one session (thread-safe increments).

    Attributes:
        calls: judge calls actually made (each retry counts as a call).
        cache_hits: replies served from the cache instead of a call.
        retries: calls repeated after a transient failure.
        judge_seconds: wall time spent waiting on the judge (calls only).
        prompt_tokens / completion_tokens: usage, where the judge reports it.
    """

    calls: int = 0
    cache_hits: int = 0
    retries: int = 0
    judge_seconds: float = 0.0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)

    def add(self, **deltas: float) -> None:
        """Add to several counters at once."""
        with self._lock:
            for name, delta in deltas.items():
                setattr(self, name, getattr(self, name) + delta)

    def as_dict(self) -> dict[str, float]:
        """The counters as a plain dict (serialisable for pytest-xdist)."""
        with self._lock:
            return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "_lock"}
