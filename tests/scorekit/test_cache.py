"""The judge reply cache on its own: storage, threads, processes and damage."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekit.judges import JudgeError, resolve_settings
from scorekit.session._cache import (
    CACHE_FILE_NAME,
    JudgeCache,
    JudgeCacheError,
    JudgeCacheWarning,
    open_cache,
)


@pytest.fixture
def cache(tmp_path: Path) -> Iterator[JudgeCache]:
    c = JudgeCache(tmp_path / "cache")
    yield c
    c.close()


def test_round_trip_and_miss(cache: JudgeCache) -> None:
    assert cache.get("absent") is None
    cache.put("q", ["Is Paris in France?", "Is it the capital?"])
    cache.put("a", [1.0, 0.25])
    assert cache.get("q") == ["Is Paris in France?", "Is it the capital?"]
    assert cache.get("a") == [1.0, 0.25]
    assert cache.count() == 2


def test_put_replaces_the_value_of_a_key(cache: JudgeCache) -> None:
    cache.put("k", [0.0])
    cache.put("k", [1.0])
    assert cache.get("k") == [1.0]
    assert cache.count() == 1


def test_put_if_absent_keeps_the_first_value(cache: JudgeCache) -> None:
    assert cache.put_if_absent("k", ["first?"]) == ["first?"]
    assert cache.put_if_absent("k", ["second?"]) == ["first?"]
    assert cache.get("k") == ["first?"]
    assert cache.put_if_absent("nan", [float("nan")]) is None
    assert cache.count() == 1


def test_values_survive_closing_and_a_new_instance(tmp_path: Path) -> None:
    first = JudgeCache(tmp_path)
    first.put("k", ["Q?"])
    first.close()
    second = JudgeCache(tmp_path)
    assert second.get("k") == ["Q?"]
    second.close()


def test_nothing_touches_the_disk_before_first_use(tmp_path: Path) -> None:
    calls: list[int] = []

    def folder() -> str:
        calls.append(1)
        return str(tmp_path / "lazy")

    c = JudgeCache(folder)
    assert c  # truthy even when empty, without opening anything
    assert calls == []
    assert not (tmp_path / "lazy").exists()
    assert c.get("k") is None
    assert calls == [1]
    assert (tmp_path / "lazy" / CACHE_FILE_NAME).is_file()
    c.put("k", [0.5])
    assert calls == [1]  # resolved once
    c.close()


def test_database_is_sqlite_in_wal_mode_with_one_table(cache: JudgeCache) -> None:
    cache.put("k", ["Q?"])
    assert cache.path is not None
    with sqlite3.connect(cache.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        assert tables == ["replies"]
        key, value, created = db.execute("SELECT key, value, created FROM replies").fetchone()
    assert key == "k"
    assert json.loads(value) == ["Q?"]
    assert abs(created - time.time()) < 3600


def test_unreadable_stored_json_is_a_miss(cache: JudgeCache) -> None:
    cache.put("k", [1.0])
    assert cache.path is not None
    with sqlite3.connect(cache.path) as db:
        db.execute("UPDATE replies SET value = '[1.0, tor' WHERE key = 'k'")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert cache.get("k") is None
    cache.put("k", [0.5])
    assert cache.get("k") == [0.5]


def test_unserialisable_value_is_not_stored(cache: JudgeCache) -> None:
    cache.put("nan", [float("nan")])
    cache.put("obj", [object()])
    assert cache.get("nan") is None
    assert cache.get("obj") is None
    assert cache.count() == 0


def test_threads_share_one_cache(cache: JudgeCache) -> None:
    errors: list[BaseException] = []

    def work(t: int) -> None:
        try:
            for i in range(150):
                cache.put(f"t{t}-{i}", [t, i])
                assert cache.get(f"t{t}-{i}") == [t, i]
        except BaseException as exc:  # reported below, threads swallow exceptions
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert errors == []
    assert cache.count() == 8 * 150


_WRITER = textwrap.dedent(
    """
    import sys, time, os
    from scorekit.session._cache import JudgeCache
    folder, writer, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    while not os.path.exists(go):
        time.sleep(0.002)
    cache = JudgeCache(folder)
    for i in range(300):
        # Long values make a torn write visible; every writer writes every key.
        cache.put(f"key-{i}", [f"writer {writer} question {i} " + "x" * 400] * 5)
        got = cache.get(f"key-{(i * 7) % 300}")
        assert got is None or len(got) == 5, got
    cache.close()
    print("done", writer)
    """
)


def test_processes_writing_the_same_keys_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    go = tmp_path / "go"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(folder), str(w), str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for w in range(3)
    ]
    time.sleep(0.3)  # let the interpreters start so the writes overlap
    go.write_text("go")
    outputs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outputs, strict=True):
        assert p.returncode == 0, err
        assert "JudgeCacheWarning" not in err, err
        assert out.startswith("done"), out
    c = JudgeCache(folder)
    assert c.count() == 300  # no lost entries
    for i in range(300):
        value = c.get(f"key-{i}")
        assert isinstance(value, list) and len(value) == 5
        writers = {v.split(" question ")[0] for v in value}
        assert len(writers) == 1 and writers <= {"writer 0", "writer 1", "writer 2"}
        assert value[0] == f"{writers.pop()} question {i} " + "x" * 400  # not torn
    c.close()


# -- damage: one warning, a run without the cache, never a crash ----------------------------


def _use_damaged(c: JudgeCache) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert c.get("k") is None
        c.put("k", [1.0])
        assert c.get("k") is None
        c.put("k2", ["Q?"])
        assert c.put_if_absent("k3", ["Q?"]) is None
        assert c.count() == 0
    assert c.disabled
    return [w for w in caught if issubclass(w.category, JudgeCacheWarning)]


def test_garbage_file_costs_one_warning(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE_NAME).write_bytes(b"this is not SQLite\n" * 200)
    found = _use_damaged(JudgeCache(tmp_path))
    assert len(found) == 1
    message = str(found[0].message)
    assert str(tmp_path / CACHE_FILE_NAME) in message
    assert "damaged" in message and "--cache-clear" in message
    # The damaged file is left alone for the user to inspect or delete.
    assert (tmp_path / CACHE_FILE_NAME).read_bytes().startswith(b"this is not SQLite")


def test_warnings_as_errors_make_one_judge_error(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE_NAME).write_bytes(b"garbage" * 100)
    c = JudgeCache(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(JudgeCacheError, match="damaged") as info:
            c.get("k")
        assert isinstance(info.value, JudgeError)  # reported as a test error, not a failure
        assert c.get("k") is None  # once: the rest of the run goes on without the cache
        c.put("k", [1.0])
    assert c.disabled


def test_truncated_file_costs_one_warning(tmp_path: Path) -> None:
    c = JudgeCache(tmp_path)
    for i in range(2000):
        c.put(f"key-{i}", ["some question that takes room " * 3] * 4)
    c.close()
    db = tmp_path / CACHE_FILE_NAME
    with db.open("r+b") as fh:
        fh.truncate(db.stat().st_size // 2)
    damaged = JudgeCache(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        values = [damaged.get(f"key-{i}") for i in range(0, 2000, 50)]
        damaged.put("new", [1.0])
    found = [w for w in caught if issubclass(w.category, JudgeCacheWarning)]
    assert len(found) == 1
    assert str(db) in str(found[0].message)
    # Whatever was still readable before the damage showed is the stored value, never another.
    assert all(v is None or v == ["some question that takes room " * 3] * 4 for v in values)
    assert damaged.disabled


def test_table_of_another_shape_costs_one_warning(tmp_path: Path) -> None:
    with sqlite3.connect(tmp_path / CACHE_FILE_NAME) as db:
        db.execute("CREATE TABLE replies (k TEXT, v BLOB)")
    found = _use_damaged(JudgeCache(tmp_path))
    assert len(found) == 1
    assert str(tmp_path / CACHE_FILE_NAME) in str(found[0].message)


def test_database_path_that_is_a_folder_costs_one_warning(tmp_path: Path) -> None:
    (tmp_path / CACHE_FILE_NAME).mkdir()
    found = _use_damaged(JudgeCache(tmp_path))
    assert len(found) == 1
    assert "--llm-cache-dir" in str(found[0].message)


def test_unwritable_location_costs_one_warning(tmp_path: Path) -> None:
    # A folder below a regular file can be created by nobody, root included.
    (tmp_path / "plain-file").write_text("x")
    found = _use_damaged(JudgeCache(tmp_path / "plain-file" / "cache"))
    assert len(found) == 1
    message = str(found[0].message)
    assert str(tmp_path / "plain-file" / "cache" / CACHE_FILE_NAME) in message
    assert "writable" in message and "--llm-cache=off" in message


def test_failing_folder_factory_costs_one_warning() -> None:
    def folder() -> str:
        raise PermissionError("pytest cache dir is not writable")

    found = _use_damaged(JudgeCache(folder))
    assert len(found) == 1
    assert "not writable" in str(found[0].message)


@contextlib.contextmanager
def _read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` read-only for this process, or skip when the system cannot.

    Tests may run as root, which ignores permission bits; then the immutable attribute
    (``chattr +i``, needs CAP_LINUX_IMMUTABLE and ext4/xfs/btrfs) does the job.
    """
    mode = folder.stat().st_mode
    folder.chmod(0o555)
    immutable = False
    try:
        probe = folder / "probe"
        try:
            probe.touch()
        except OSError:
            pass  # permission bits are honoured (not root)
        else:
            probe.unlink()
            done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
            if done.returncode != 0:
                pytest.skip("cannot make a folder read-only here (root, and chattr +i failed)")
            immutable = True
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=True)
        folder.chmod(mode)


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro"
    folder.mkdir()
    with _read_only(folder):
        yield folder


@pytest.fixture
def read_only_filled_folder(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "ro-filled"
    folder.mkdir()
    c = JudgeCache(folder)
    c.put("k", [1.0])
    c.close()
    with _read_only(folder):
        yield folder


def test_read_only_empty_folder_costs_one_warning(read_only_folder: Path) -> None:
    found = _use_damaged(JudgeCache(read_only_folder))
    assert len(found) == 1
    assert str(read_only_folder / CACHE_FILE_NAME) in str(found[0].message)
    assert not (read_only_folder / CACHE_FILE_NAME).exists()


def test_read_only_folder_with_a_cache_costs_one_warning(read_only_filled_folder: Path) -> None:
    found = _use_damaged(JudgeCache(read_only_filled_folder))
    assert len(found) == 1
    assert str(read_only_filled_folder / CACHE_FILE_NAME) in str(found[0].message)


def test_database_locked_beyond_the_timeout_costs_one_warning(tmp_path: Path) -> None:
    c = JudgeCache(tmp_path, timeout=0.1)
    c.put("k", [1.0])
    assert c.path is not None
    holder = sqlite3.connect(c.path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another process holding the write lock
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            c.put("k2", [0.0])
            assert c.get("k") is None  # the run goes on without the cache
            c.put("k3", [0.0])
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    found = [w for w in caught if issubclass(w.category, JudgeCacheWarning)]
    assert len(found) == 1
    assert "0.1 s" in str(found[0].message)
    c.close()


def test_a_forked_child_opens_its_own_connection(tmp_path: Path) -> None:
    if not hasattr(os, "fork"):
        pytest.skip("no fork on this platform")
    c = JudgeCache(tmp_path)
    c.put("parent", [1.0])
    with warnings.catch_warnings():
        # Python >= 3.12 warns about fork() with threads alive; the child only uses SQLite.
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # pragma: no cover - child
        code = 1
        try:
            c.put("child", [0.0])
            code = 0 if c.get("child") == [0.0] and c.get("parent") == [1.0] else 2
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert c.get("child") == [0.0]
    c.close()


# -- open_cache ----------------------------------------------------------------------------


def test_open_cache_off_gives_no_cache(tmp_path: Path) -> None:
    settings = resolve_settings(overrides={"cache": "off", "cache_dir": str(tmp_path)}, env={})
    assert open_cache(settings, lambda: str(tmp_path)) is None


def test_open_cache_outside_pytest_is_off_unless_a_folder_is_set(tmp_path: Path) -> None:
    assert open_cache(resolve_settings(env={}), None) is None
    from_env = open_cache(resolve_settings(env={"SCOREKIT_CACHE_DIR": str(tmp_path)}), None)
    assert from_env is not None
    from_env.put("k", [1.0])
    assert from_env.path == tmp_path / CACHE_FILE_NAME
    from_env.close()


def test_open_cache_prefers_an_explicit_folder_to_pytests(tmp_path: Path) -> None:
    settings = resolve_settings(overrides={"cache_dir": str(tmp_path / "mine")}, env={})
    c = open_cache(settings, lambda: str(tmp_path / "pytest"))
    assert c is not None
    c.put("k", [1.0])
    assert c.path == tmp_path / "mine" / CACHE_FILE_NAME
    assert not (tmp_path / "pytest").exists()
    c.close()


def test_open_cache_uses_the_factory_in_replay_mode_too(tmp_path: Path) -> None:
    settings = resolve_settings(overrides={"cache": "replay"}, env={})
    c = open_cache(settings, lambda: str(tmp_path / "pytest"))
    assert c is not None
    c.put("k", [1.0])
    assert c.path == tmp_path / "pytest" / CACHE_FILE_NAME
    c.close()
