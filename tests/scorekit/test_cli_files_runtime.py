"""The pieces both faces share: reading a data file, exit codes, the event-loop thread."""

from __future__ import annotations

import asyncio
import concurrent.futures
import io
import threading
from pathlib import Path

import pytest

from scorekit.cli import (
    EXIT_BAD_INPUT,
    EXIT_JUDGE_FAILED,
    fail,
    judge_exit,
)
from scorekit.files import DataFileError, quoted_words, read_text_file
from scorekit.judges import JudgeConfigError, JudgeError, SettingsError
from scorekit.runtime import LoopThread, run_sync


class Missing(ValueError):
    pass


def test_a_data_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text('\ufeff{"a": 1}', encoding="utf-8")
    assert read_text_file(path, encoding="utf-8-sig") == '{"a": 1}'


@pytest.mark.parametrize(
    ("make", "plain", "quoted"),
    [
        (lambda p: None, "{p}: no such file", "labelled file '{p}' does not exist"),
        (lambda p: p.mkdir(), "{p}: is a folder, not a JSON file", "is a folder; give a JSON"),
        (
            lambda p: p.write_bytes(b"caf\xe9"),
            "{p}: not a text file (expected UTF-8 JSON)",
            "labelled file '{p}' is not UTF-8 text",
        ),
    ],
)
def test_each_way_a_data_file_fails_is_named(
    tmp_path: Path, make: object, plain: str, quoted: str
) -> None:
    path = tmp_path / "data.json"
    make(path)  # type: ignore[operator]
    with pytest.raises(DataFileError) as info:
        read_text_file(path, kind="JSON")
    assert str(info.value) == plain.format(p=path)
    with pytest.raises(Missing) as other:
        read_text_file(path, words=quoted_words("labelled", "a JSON lines file"), error=Missing)
    assert quoted.format(p=path) in str(other.value)


def test_a_missing_file_can_raise_its_own_error(tmp_path: Path) -> None:
    class NotFound(DataFileError, FileNotFoundError):
        pass

    with pytest.raises(NotFound):
        read_text_file(tmp_path / "gone.json", missing_error=NotFound)
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(DataFileError) as info:
        read_text_file(tmp_path / "dir.json", missing_error=NotFound)
    assert not isinstance(info.value, NotFound)


@pytest.mark.parametrize(
    ("error", "code", "message"),
    [
        (SettingsError("--timeout must be a number"), EXIT_BAD_INPUT, "--timeout must be"),
        (JudgeConfigError("no model"), EXIT_BAD_INPUT, "unusable judge settings: no model"),
        (JudgeError("the server said 500"), EXIT_JUDGE_FAILED, "the judge failed: the server"),
    ],
)
def test_judge_errors_map_to_one_exit_code_each(
    error: SettingsError | JudgeError, code: int, message: str
) -> None:
    err = io.StringIO()
    assert judge_exit("prog", error, err) == code
    assert err.getvalue().startswith(f"prog: error: {message}")
    assert err.getvalue().count("\n") == 1


def test_a_failure_is_one_line() -> None:
    err = io.StringIO()
    assert fail("prog", 7, "two\nlines  here", err) == 7
    assert err.getvalue() == "prog: error: two lines here\n"


def test_run_sync_works_from_a_thread_that_runs_a_loop() -> None:
    async def inner() -> str:
        return threading.current_thread().name

    async def outer() -> str:
        return run_sync(inner())  # asyncio.run would refuse here

    assert asyncio.run(outer()) == "scorekit-judge-loop"


def test_a_loop_thread_runs_tasks_and_stops() -> None:
    loop = LoopThread("test-loop")
    started = threading.Event()

    async def forever() -> None:
        started.set()
        await asyncio.sleep(3600)

    handle = loop.start_task(forever())
    assert started.wait(5)
    loop.cancel(handle)
    with pytest.raises(concurrent.futures.CancelledError):
        handle.finished.result(timeout=5)
    loop.stop()
    assert not loop.thread.is_alive() and loop.loop.is_closed()
