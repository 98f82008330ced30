"""Snapshot tests for tool calls: record once, review and approve, then replay.

Behind :mod:`toolscore.snapshots`, which re-exports it (the same objects).
"""

from __future__ import annotations

import builtins
import json
import os
import warnings
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from scorekit.files import write_text_atomic
from toolscore._engine.snapshots.drift import encode_calls
from toolscore._engine.snapshots.files import CHANGE_SUFFIX, dumps_canonical, snapshot_file_name

__all__ = [
    "DEFAULT_ROOT",
    "SCHEMA_VERSION",
    "Snapshot",
    "SnapshotStore",
    "SnapshotWarning",
]

DEFAULT_ROOT = ".toolscore/snapshots"
"""Where snapshots live unless told otherwise (relative to the working directory)."""

SCHEMA_VERSION = 1
"""Layout version of snapshot files (the same as Toolscore 1.10's)."""

# Written on every real change; left out when deciding whether a file's content changed.
_VOLATILE = ("updated_at", "toolscore_version")


class SnapshotWarning(UserWarning):
    """A snapshot was recorded, re-recorded or is waiting for approval (the test still ran)."""


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _version() -> str:
    from toolscore._engine.version import package_version

    return package_version()


@dataclass
class Snapshot:
    """The recorded tool calls of one test.

    Attributes:
        name: the snapshot's identifier (the fixture uses the pytest node id).
        calls: ``[{"tool": name, "args": {...}}]``; argument values may be matchers, and
            ``args`` may be ``None`` (arguments not checked on replay).
        approved: whether a person approved these calls as the baseline.
        source: how it was made: ``"pytest"``, ``"record"`` or ``"trace"``.
        created_at / updated_at: ISO-8601 UTC times, filled in when left empty.
        schema_version: the file layout version.
        toolscore_version: the version of the package that wrote it.
    """

    name: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    approved: bool = False
    source: str = "pytest"
    created_at: str = ""
    updated_at: str = ""
    schema_version: int = SCHEMA_VERSION
    toolscore_version: str = ""

    def __post_init__(self) -> None:
        self.created_at = self.created_at or _now()
        self.updated_at = self.updated_at or self.created_at
        self.toolscore_version = self.toolscore_version or _version()

    def to_dict(self) -> dict[str, Any]:
        """The snapshot as JSON data, matchers in their ``$`` encoding.

        Raises:
            ValueError: an argument value JSON cannot hold (a ``datetime``, a set, NaN...);
                the message names the call and the argument.
        """
        return {
            "schema_version": self.schema_version,
            "name": self.name,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "toolscore_version": self.toolscore_version,
            "approved": self.approved,
            "source": self.source,
            "calls": encode_calls(self.calls, "calls"),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Snapshot:
        """Read a snapshot from :meth:`to_dict`'s form (or a Toolscore 1.10 file's content).

        Raises:
            ValueError: ``calls`` is not a list of ``{"tool", "args"}`` objects, or holds an
                unknown matcher key.
        """
        from toolscore._engine.read.gold_files import decode_gold

        calls = data.get("calls", [])
        if not isinstance(calls, builtins.list):
            raise ValueError(f"'calls' must be a list of tool calls, got {type(calls).__name__}")
        # Toolscore 1.10 may have stored more of each call (an id, a result): calls are the
        # tool and its arguments.
        calls = [
            {k: c[k] for k in ("tool", "args") if k in c} if isinstance(c, dict) else c
            for c in calls
        ]
        return cls(
            name=str(data["name"]),
            calls=decode_gold(calls, "calls"),
            approved=bool(data.get("approved", False)),
            source=str(data.get("source", "pytest")),
            created_at=str(data.get("created_at", "")),
            updated_at=str(data.get("updated_at", "")),
            schema_version=int(data.get("schema_version", SCHEMA_VERSION)),
            toolscore_version=str(data.get("toolscore_version", "")),
        )


def _read(path: Path) -> Snapshot:
    try:  # UnicodeDecodeError and json.JSONDecodeError are ValueErrors
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or "name" not in data or "calls" not in data:
            raise ValueError("expected a JSON object with 'name' and 'calls'")
        return Snapshot.from_dict(data)
    except (OSError, TypeError, ValueError) as exc:
        raise ValueError(f"Corrupt snapshot file at {path}: {exc}") from None


def _same_content(path: Path, document: dict[str, Any]) -> dict[str, Any] | None:
    """The file's document when it equals ``document`` apart from the volatile fields."""
    try:
        on_disk = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(on_disk, dict):
        return None
    strip = {k: v for k, v in document.items() if k not in _VOLATILE}
    return on_disk if {k: v for k, v in on_disk.items() if k not in _VOLATILE} == strip else None


class SnapshotStore:
    """A folder of snapshot files, one per snapshot (nothing is created until a save).

    Args:
        root: the folder (default ``.toolscore/snapshots``, relative to the working directory).

    Example:
        >>> import tempfile
        >>> store = SnapshotStore(tempfile.mkdtemp())
        >>> _ = store.save(Snapshot("t", [{"tool": "search", "args": {"q": "x"}}]))
        >>> [s.name for s in store.pending()]
        ['t']
        >>> store.approve("t").approved
        True
    """

    def __init__(self, root: str | os.PathLike[str] = DEFAULT_ROOT) -> None:
        self.root = Path(root)

    def path_for(self, name: str) -> Path:
        """The file of the snapshot called ``name`` (inside ``root`` whatever the name holds)."""
        return self.root / snapshot_file_name(name)

    def change_path_for(self, name: str) -> Path:
        """The file of the pending change of the snapshot called ``name``."""
        path = self.path_for(name)
        return path.with_name(path.name + CHANGE_SUFFIX)

    def exists(self, name: str) -> bool:
        """Whether a snapshot called ``name`` is stored."""
        return self.path_for(name).exists()

    def load(self, name: str) -> Snapshot | None:
        """The snapshot called ``name``, or ``None`` when there is none.

        Raises:
            ValueError: the file exists but is not a valid snapshot (the message names it).
        """
        path = self.path_for(name)
        return _read(path) if path.exists() else None

    def load_change(self, name: str) -> Snapshot | None:
        """The pending change recorded for ``name`` (an unapproved snapshot), or ``None``."""
        path = self.change_path_for(name)
        return _read(path) if path.exists() else None

    def _write(self, path: Path, snapshot: Snapshot) -> Path:
        try:
            document = snapshot.to_dict()
        except ValueError as exc:
            raise ValueError(f"Cannot save snapshot {snapshot.name!r}: {exc}") from None
        # Unchanged content keeps the file byte for byte: no churn in version control.
        same = _same_content(path, document) if path.exists() else None
        if same is not None:
            snapshot.updated_at = str(same.get("updated_at", snapshot.updated_at))
            snapshot.toolscore_version = str(same.get("toolscore_version", ""))
            return path
        snapshot.updated_at = _now()
        snapshot.toolscore_version = _version() or snapshot.toolscore_version
        document.update(
            updated_at=snapshot.updated_at, toolscore_version=snapshot.toolscore_version
        )
        write_text_atomic(path, dumps_canonical(document))
        return path

    def save(self, snapshot: Snapshot) -> Path:
        """Write ``snapshot`` (atomically; not at all when its content did not change).

        Returns:
            The file's path.

        Raises:
            ValueError: an argument value JSON cannot hold; the message names it.
        """
        return self._write(self.path_for(snapshot.name), snapshot)

    def save_change(self, snapshot: Snapshot) -> Path:
        """Keep ``snapshot`` as the pending change of the snapshot with its name."""
        snapshot.approved = False
        return self._write(self.change_path_for(snapshot.name), snapshot)

    def discard_change(self, name: str) -> bool:
        """Delete the pending change of ``name``; True when there was one."""
        try:
            self.change_path_for(name).unlink()
        except FileNotFoundError:
            return False
        return True

    def approve(self, name: str) -> Snapshot:
        """Approve ``name``: accept its pending change if it has one, else mark it approved.

        Raises:
            KeyError: no snapshot and no pending change is called ``name``.
        """
        change = self.load_change(name)
        snapshot = self.load(name) or change
        if snapshot is None:
            raise KeyError(f"No snapshot named {name!r} to approve")
        if change is not None:
            snapshot.calls = change.calls
        snapshot.approved = True
        self.save(snapshot)
        self.discard_change(name)
        return snapshot

    def delete(self, name: str) -> None:
        """Delete the snapshot called ``name`` and its pending change (no error if absent)."""
        for path in (self.path_for(name), self.change_path_for(name)):
            path.unlink(missing_ok=True)

    def list(self) -> builtins.list[Snapshot]:
        """Every stored snapshot, sorted by name.

        A file that is not a valid snapshot is left out with a :class:`SnapshotWarning` that
        names it, so one broken file does not hide the others.
        """
        if not self.root.is_dir():
            return []
        found: builtins.list[Snapshot] = []
        for path in sorted(self.root.glob("*.json")):
            try:
                found.append(_read(path))
            except ValueError as exc:
                warnings.warn(f"skipped: {exc}", SnapshotWarning, stacklevel=2)
        return sorted(found, key=lambda s: s.name)

    def changed(self) -> builtins.list[str]:
        """Names of the approved snapshots that have a pending change, sorted."""
        return [s.name for s in self.list() if s.approved and self.change_path_for(s.name).exists()]

    def pending(self) -> builtins.list[Snapshot]:
        """Everything waiting for approval, sorted by name: unapproved snapshots, and the
        pending changes of approved ones (as unapproved snapshots)."""
        out: builtins.list[Snapshot] = []
        for snapshot in self.list():
            change = self.load_change(snapshot.name)
            if change is not None:
                out.append(change)
            elif not snapshot.approved:
                out.append(snapshot)
        return out
