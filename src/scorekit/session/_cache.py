"""The on-disk judge reply cache: one SQLite database (WAL) shared by threads and processes.

Inside pytest the database lives in pytest's cache directory (``.pytest_cache/d/llm-scorekit``,
emptied by ``--cache-clear``); outside pytest the cache is off unless a folder is configured
(``--llm-cache-dir``, ``SCOREKIT_CACHE_DIR`` or ``configure(cache_dir=...)``).

The cache is an optimisation and never a source of failure: a damaged or unusable database
costs one :class:`JudgeCacheWarning` and the run goes on without it. Values are the validated
replies (lists of questions or numbers) as JSON; the judge layer validates them again on read,
so a value that does not fit is a miss, never a wrong score.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeAlias, TypeVar

from scorekit.judges._errors import JudgeError
from scorekit.judges._settings import JudgeSettings, setting_value, setting_with_env

__all__ = ["CACHE_FILE_NAME", "JudgeCache", "JudgeCacheError", "JudgeCacheWarning", "open_cache"]

#: The database file inside the cache folder (the suffix names the schema version).
CACHE_FILE_NAME = "judge-replies-v1.sqlite3"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS replies ("
    " key TEXT PRIMARY KEY,"
    " value TEXT NOT NULL,"  # JSON
    " created REAL NOT NULL"
    ")"
)

_T = TypeVar("_T")

# Quoted so that Python 3.10 never evaluates the union at import time.
_DirSource: TypeAlias = "str | os.PathLike[str] | Callable[[], str | os.PathLike[str]]"


class JudgeCacheWarning(UserWarning):
    """The judge reply cache cannot be used; the run goes on without it.

    The message names the database file, what went wrong and how to fix it.
    """


class JudgeCacheError(JudgeError):
    """:class:`JudgeCacheWarning` when warnings are turned into errors (``-W error``).

    Raised once, by the judge call that found the cache unusable; the cache is off for the
    rest of the run.
    """


def _advice(exc: BaseException, path: Path | None, timeout: float, surface: str) -> str:
    text = str(exc).lower()
    where = str(path) if path is not None else "the cache folder"
    if isinstance(exc, sqlite3.DatabaseError) and (
        "not a database" in text or "malformed" in text or "corrupt" in text
    ):
        return (
            f"the file is damaged: delete {where} (inside pytest, `pytest --cache-clear` does it)"
            " and the next run rebuilds it"
        )
    if "locked" in text or "busy" in text:
        return (
            f"another process held the database for more than {timeout:g} s: check for a stuck"
            f" test run, or delete {where}"
        )
    return (
        f"make the folder writable, point {setting_with_env('cache_dir', surface)} at a"
        f" writable folder, or turn the cache off with {setting_value('cache', 'off', surface)}"
    )


def _encode(value: Any) -> str | None:
    """The stored form of a reply, or None when JSON cannot hold it faithfully (NaN, objects)."""
    try:
        return json.dumps(value, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None  # not storable; the caller still has the reply


def _decode(row: Any) -> Any | None:
    """The reply in a fetched row; a missing row or one we cannot read is a miss (None)."""
    if row is None:
        return None
    try:
        return json.loads(row[0])
    except (TypeError, ValueError):
        return None  # the next put replaces it


class JudgeCache:
    """Judge replies on disk, keyed by :func:`scorekit.judges._keys.reply_key`.

    Safe to share between threads (one connection behind a lock) and between processes
    (SQLite WAL, a busy timeout, single-row atomic writes so two writers of one key never
    tear an entry; :meth:`put_if_absent` lets the first writer win). The database opens on
    first use, so a run that never calls a cached judge creates no file.

    Args:
        directory: the cache folder, or a function that returns it (called on first use).
        timeout: seconds to wait for another process that holds the database.
        surface: where the settings are given (``pytest``, ``cli``, ``python``), so that a
            warning names them as the user writes them (``--llm-cache=off``, ``--cache off``).

    Example:
        >>> import tempfile
        >>> cache = JudgeCache(tempfile.mkdtemp())
        >>> cache.put("k", ["Is Paris in France?"])
        >>> cache.get("k")
        ['Is Paris in France?']
        >>> cache.get("missing") is None
        True
        >>> cache.close()
    """

    def __init__(
        self, directory: _DirSource, *, timeout: float = 10.0, surface: str = "pytest"
    ) -> None:
        self._directory = directory
        self.timeout = timeout
        #: How messages name the cache settings (``pytest``, ``cli`` or ``python``).
        self.surface = surface
        self._path: Path | None = None
        self._conn: sqlite3.Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()
        #: Set once the cache gave up (after its one warning); every call is then a no-op.
        self.disabled = False

    @property
    def path(self) -> Path | None:
        """The database file, once known."""
        return self._path

    # -- public ------------------------------------------------------------------------------
    def get(self, key: str) -> Any | None:
        """Return the stored value for ``key``, or None (a miss, or the cache is unusable)."""
        row = self._with_db(
            "reading",
            None,
            lambda db: db.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone(),
        )
        return _decode(row)

    def put(self, key: str, value: Any) -> None:
        """Store ``value`` (JSON-serialisable) under ``key``; never raises."""
        blob = _encode(value)
        if blob is None:
            return
        self._with_db(
            "writing to",
            None,
            lambda db: db.execute(
                "INSERT OR REPLACE INTO replies (key, value, created) VALUES (?, ?, ?)",
                (key, blob, time.time()),
            ),
        )

    def put_if_absent(self, key: str, value: Any) -> Any | None:
        """Store ``value`` unless ``key`` already has one; return the value now stored.

        The first writer wins: when two workers ask the judge the same thing at once, both
        use the reply stored first, so a rerun from the cache scores exactly as this run did.
        Returns None when the cache is unusable or ``value`` is not storable; never raises.

        Example:
            >>> import tempfile
            >>> with JudgeCache(tempfile.mkdtemp()) as cache:
            ...     cache.put_if_absent("k", [1.0]), cache.put_if_absent("k", [0.0])
            ([1.0], [1.0])
        """
        blob = _encode(value)
        if blob is None:
            return None

        def store(db: sqlite3.Connection) -> Any:
            db.execute(
                "INSERT OR IGNORE INTO replies (key, value, created) VALUES (?, ?, ?)",
                (key, blob, time.time()),
            )
            return db.execute("SELECT value FROM replies WHERE key = ?", (key,)).fetchone()

        return _decode(self._with_db("writing to", None, store))

    def count(self) -> int:
        """Number of stored replies (0 when the cache is unusable).

        A method, not ``__len__``: an empty cache must not be falsy (``if cache:``).
        """
        return self._with_db(
            "reading", 0, lambda db: int(db.execute("SELECT COUNT(*) FROM replies").fetchone()[0])
        )

    def close(self) -> None:
        """Close the database (a later call opens it again)."""
        with self._lock:
            self._close_connection()

    def __enter__(self) -> JudgeCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------------
    def _with_db(self, action: str, default: _T, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` on the connection under the lock; ``default`` when the cache is
        unusable or gives up on this error (after its one warning)."""
        with self._lock:
            conn = self._connection()
            if conn is None:
                return default
            try:
                return work(conn)
            except sqlite3.Error as exc:
                self._give_up(exc, action)
                return default

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None and self._pid == os.getpid():
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    def _connection(self) -> sqlite3.Connection | None:
        if self.disabled:
            return None
        if self._conn is not None:
            if self._pid == os.getpid():
                return self._conn
            # A forked child must not use its parent's connection (SQLite forbids it).
            self._conn = None
        try:
            path = self._resolve_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = self._open(path)
            self._pid = os.getpid()
        except (OSError, sqlite3.Error, ValueError) as exc:
            self._give_up(exc, "opening")
            return None
        return self._conn

    def _resolve_path(self) -> Path:
        if self._path is None:
            source = self._directory
            folder = source() if callable(source) else source
            self._path = Path(folder) / CACHE_FILE_NAME
        return self._path

    def _open(self, path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(
            str(path),
            timeout=self.timeout,
            isolation_level=None,  # autocommit: every put is its own short transaction
            check_same_thread=False,  # guarded by self._lock
        )
        try:
            deadline = time.monotonic() + self.timeout
            while True:
                try:
                    conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
                    conn.execute("PRAGMA journal_mode = WAL")
                    conn.execute("PRAGMA synchronous = NORMAL")
                    conn.execute(_SCHEMA)
                    conn.execute("SELECT key, value, created FROM replies LIMIT 1").fetchall()
                    return conn
                except sqlite3.OperationalError as exc:
                    # Switching a fresh file to WAL can report "locked" without waiting while
                    # another process creates the same database; try again until the timeout.
                    message = str(exc).lower()
                    if ("locked" in message or "busy" in message) and time.monotonic() < deadline:
                        time.sleep(0.02)
                        continue
                    raise
        except BaseException:
            conn.close()
            raise

    def _give_up(self, exc: BaseException, action: str) -> None:
        self.disabled = True
        self._close_connection()
        where = str(self._path) if self._path is not None else "its folder"
        message = (
            f"scorekit judge cache: error {action} {where}: {type(exc).__name__}: {exc}."
            " This run goes on without the cache (judge replies are requested anew and"
            f" not stored; with {setting_value('cache', 'replay', self.surface)} every lookup is"
            " a miss). To fix it: " + _advice(exc, self._path, self.timeout, self.surface) + "."
        )
        try:
            warnings.warn(JudgeCacheWarning(message), stacklevel=2)
        except JudgeCacheWarning as escalated:
            # Warnings are errors here (-W error): make it a judge error, which the plugins
            # report as a test error with this one line, not as a failed assertion.
            raise JudgeCacheError(message) from escalated


def open_cache(
    settings: JudgeSettings, cache_dir_factory: Callable[[], str] | None
) -> JudgeCache | None:
    """Open the cache the settings ask for, or return None (no cache).

    An explicit ``settings.cache_dir`` wins; else ``cache_dir_factory`` (inside pytest: a
    folder in pytest's cache); else there is no cache. ``settings.cache == "off"`` means no
    cache. Nothing touches the disk until the first lookup.

    Args:
        settings: the resolved judge settings (``cache`` and ``cache_dir`` are read).
        cache_dir_factory: returns the default cache folder, or None outside pytest.

    Example:
        >>> from scorekit.judges import resolve_settings
        >>> open_cache(resolve_settings(env={}), None) is None
        True
        >>> cache = open_cache(resolve_settings(overrides={"cache_dir": "/tmp/c"}, env={}), None)
        >>> isinstance(cache, JudgeCache)
        True
    """
    if settings.cache == "off":
        return None
    if settings.cache_dir:
        return JudgeCache(Path(settings.cache_dir).expanduser(), surface=settings.surface)
    if cache_dir_factory is not None:
        return JudgeCache(cache_dir_factory, surface=settings.surface)
    return None
