r"""Snapshot tests for tool calls: record once, review and approve, then replay.

A snapshot is one JSON file holding the tool calls an agent made for one test. The first run
records it (pending approval); a person reviews the file and approves it
(``toolscore approve NAME``); every later run compares the agent's calls with the approved
ones and fails, showing what changed, when they drift.

Better than a plain recording, a snapshot may hold matchers in the JSON encoding gold files use
(``{"$any": true}``, ``{"$regex": "FL-\d+"}``, ``{"$approx": 72.5, "rel": 0.01}``...), so
an approved snapshot can say "any date" where a value changes from run to run. Files are
written atomically, with sorted keys, one argument per line, and only when their content
changes, so they diff cleanly under version control.

When an approved snapshot drifts, the test fails with a diff and (outside CI) this run's calls
are kept beside it as a *pending change* (``<file>.json.new``): ``toolscore approve NAME``
accepts it, a passing run discards it. Re-recording (``--toolscore-update``,
``toolscore approve``) keeps every matcher that still matches.

Example:
    >>> import tempfile
    >>> from toolscore.snapshots import SnapshotStore, snapshot_check
    >>> store = SnapshotStore(tempfile.mkdtemp())
    >>> calls = [{"tool": "search", "args": {"q": "flights to NYC"}}]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True):
    ...     snapshot_check("test_search", calls, store=store)  # first run: records, returns None
    >>> _ = store.approve("test_search")
    >>> snapshot_check("test_search", calls, store=store).score
    1.0
"""

from toolscore._engine.snapshots.states import snapshot_check
from toolscore._engine.snapshots.store import (
    DEFAULT_ROOT,
    SCHEMA_VERSION,
    Snapshot,
    SnapshotStore,
    SnapshotWarning,
)

__all__ = [
    "DEFAULT_ROOT",
    "SCHEMA_VERSION",
    "Snapshot",
    "SnapshotStore",
    "SnapshotWarning",
    "snapshot_check",
]
