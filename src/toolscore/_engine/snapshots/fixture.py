"""The ``toolscore_snapshot`` fixture's callable and the run's snapshot counts.

Kept free of pytest imports: the plugin hands in the node id, the store and the resolved
options. The counts travel from pytest-xdist workers to the controller as a plain dict.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from toolscore._engine.snapshots.states import check_snapshot
from toolscore._engine.snapshots.store import SnapshotStore, SnapshotWarning

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["SnapshotCounts", "SnapshotFixture"]


@dataclass
class SnapshotCounts:
    """What the snapshot fixture did in one run (summed over pytest-xdist workers)."""

    created: int = 0
    updated: int = 0
    pending: int = 0
    passed: int = 0
    failed: int = 0

    def add(self, other: dict[str, Any]) -> None:
        """Add counts sent by a worker (unknown keys and non-integers are ignored)."""
        for key, value in other.items():
            if key in asdict(self) and isinstance(value, int):
                setattr(self, key, getattr(self, key) + value)

    def as_dict(self) -> dict[str, int]:
        """The counts as a plain dict."""
        return asdict(self)

    def summary_line(self) -> str | None:
        """``toolscore: 2 snapshots created (pending approval), 1 updated, 5 passed``.

        ``None`` when the fixture was not used.

        Example:
            >>> SnapshotCounts(created=1, passed=2).summary_line()
            'toolscore: 1 snapshot created (pending approval), 2 passed'
        """
        parts = []
        if self.created:
            noun = "snapshot" if self.created == 1 else "snapshots"
            parts.append(f"{self.created} {noun} created (pending approval)")
        keys = ("updated", "pending", "passed", "failed")
        parts += [f"{getattr(self, key)} {key}" for key in keys if getattr(self, key)]
        return "toolscore: " + ", ".join(parts) if parts else None


class SnapshotFixture:
    """Returned by the ``toolscore_snapshot`` fixture: ``toolscore_snapshot(actual)``.

    The snapshot is named after the test's node id; a second unnamed call in the same test
    gets ``-2``, a third ``-3``, and so on.
    """

    def __init__(
        self,
        nodeid: str,
        store: SnapshotStore,
        *,
        update: bool,
        allow_pending: bool,
        counts: SnapshotCounts,
    ) -> None:
        self._nodeid = nodeid
        self._store = store
        self._update = update
        self._allow_pending = allow_pending
        self._counts = counts
        self._unnamed = 0

    def __repr__(self) -> str:
        return f"<toolscore_snapshot for {self._nodeid!r} in {str(self._store.root)!r}>"

    @property
    def store(self) -> SnapshotStore:
        """The snapshot store this test writes to."""
        return self._store

    def _next_name(self) -> str:
        self._unnamed += 1
        return self._nodeid if self._unnamed == 1 else f"{self._nodeid}-{self._unnamed}"

    def __call__(
        self,
        actual: Any,
        *,
        min_score: float = 1.0,
        weights: dict[str, float] | None = None,
        strict: bool = False,
        name: str | None = None,
    ) -> EvaluationResult | None:
        """Record, or replay against the approved snapshot, the calls in ``actual``.

        Args:
            actual: the agent's calls or its provider response.
            min_score: the score a replay needs (default 1.0: the calls as approved).
            weights: custom score weights, as for :func:`toolscore.evaluate`.
            strict: exact types and values, as for :func:`toolscore.evaluate`.
            name: the snapshot's name (default: the test's node id).

        Returns:
            The result of the replay, or ``None`` when the snapshot was just recorded, updated,
            or is still pending approval (a warning says which).

        Raises:
            ToolScoreAssertionError: the calls drifted from the approved snapshot (the message
                shows the diff), or in CI the snapshot is missing or pending.
        """
        __tracebackhide__ = True
        snapshot_name = name if name is not None else self._next_name()
        try:
            outcome = check_snapshot(
                snapshot_name,
                actual,
                store=self._store,
                update=self._update,
                min_score=min_score,
                weights=weights,
                strict=strict,
                allow_pending=self._allow_pending,
            )
        except AssertionError:
            self._counts.failed += 1
            raise
        setattr(self._counts, outcome.status, getattr(self._counts, outcome.status) + 1)
        if outcome.message:
            warnings.warn(outcome.message, SnapshotWarning, stacklevel=2)
        return outcome.result
