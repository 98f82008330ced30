"""The ``if __name__ == "__main__":`` trap of worker processes, as one clear error.

The ``local`` engine starts its workers with ``spawn``, which imports the main module again in
every worker. A script that calls ``evaluate_dataset(..., workers=2)`` at module level, without
the guard, calls it again there, while the worker is still starting; multiprocessing then
fails with a long traceback in each worker and the run with "a worker process died".

Instead, a dataset run started while its process is importing the main module for
multiprocessing (:func:`refuse_in_starting_worker`) does nothing: in a worker of our pool it
leaves the reason in a note for the driver and exits quietly; the driver
(:func:`worker_note`) raises one :class:`~scorekit.batch.DatasetError` that names the guard. In
a process some other pool started, the error is raised there.

The driver looks first (:func:`refuse_unguarded_main`), before it starts a pool: a call made
by the main script's module-level code, outside every ``if`` that tests ``__name__``, is
refused at once with the same advice. That keeps the error the same whichever way the workers
start (on Linux a pure-computation task's workers are forked, and never import the script):
a script that works here works on macOS and Windows too.
"""

from __future__ import annotations

import ast
import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

from scorekit.batch._errors import DatasetError

__all__ = [
    "WORKER_NOTE_ENV",
    "read_note",
    "refuse_in_starting_worker",
    "refuse_unguarded_main",
    "unguarded_main_message",
    "worker_note",
]

#: Set in the driver while its worker pool lives: the file a worker writes its reason to.
WORKER_NOTE_ENV = "SCOREKIT_BATCH_WORKER_NOTE"

_lock = threading.Lock()
_pools = 0
_saved: str | None = None


def _starting_worker() -> bool:
    """True while multiprocessing imports the main module in a new process (spawn, forkserver)."""
    process = sys.modules.get("multiprocessing.process")
    if process is None:  # multiprocessing never imported: not a worker
        return False
    # The flag multiprocessing's own check reads (multiprocessing.spawn, 3.10 to 3.14).
    return bool(getattr(process.current_process(), "_inheriting", False))


def _main_line() -> str:
    """Where the main module, being imported by multiprocessing, made the call (or "")."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        # multiprocessing runs the main module's code under this name in a worker.
        if frame.f_globals.get("__name__") == "__mp_main__":
            return f" ({frame.f_code.co_filename}, line {frame.f_lineno})"
        frame = frame.f_back
    return ""


def unguarded_main_message(workers: int | None, what: str = "evaluate_dataset") -> str:
    """The error for a dataset run found in a worker that is importing the main module."""
    call = f"{what}(workers={workers})" if workers is not None else f"{what}()"
    return (
        f"{call} was called while the module is being imported by a worker process"
        f'{_main_line()}; put the call under `if __name__ == "__main__":` (worker processes'
        " are started with spawn, which imports the main module again), or pass workers=1"
    )


def refuse_in_starting_worker(workers: int | None, what: str = "evaluate_dataset") -> None:
    """Stop a dataset run that a worker process reached while importing the main module.

    Call it first, before the run reads or writes anything: a worker must not score the
    dataset again, nor touch the driver's output.

    Args:
        workers: the ``workers`` argument of the call, for the message.
        what: the public function called, for the message.

    Raises:
        SystemExit: in a worker of a pool of ours, after leaving the message for the driver
            (which raises it as a :class:`DatasetError`); nothing is printed here.
        DatasetError: in a process another pool started (the message names the guard).
    """
    if not _starting_worker():
        return
    message = unguarded_main_message(workers, what)
    note = os.environ.get(WORKER_NOTE_ENV)
    if note:
        with contextlib.suppress(OSError):
            scratch = Path(f"{note}.{os.getpid()}")
            scratch.write_text(message, encoding="utf-8")
            os.replace(scratch, note)  # whole, however many workers write it
            raise SystemExit(1)
    raise DatasetError(message)


@contextlib.contextmanager
def worker_note() -> Iterator[Path]:
    """While a worker pool of this process lives: the file its workers explain a refusal in.

    The pool's workers inherit :data:`WORKER_NOTE_ENV` naming it (the variable is put back as
    it was when the last pool of this process ends). Read it after the pool broke: a message
    there is the reason.
    """
    global _pools, _saved
    note = Path(tempfile.gettempdir()) / f"scorekit-worker-note-{os.getpid()}"
    with _lock:
        if _pools == 0:
            _saved = os.environ.get(WORKER_NOTE_ENV)
            with contextlib.suppress(OSError):
                note.unlink()  # a stale note of an earlier process with this pid
        os.environ[WORKER_NOTE_ENV] = str(note)
        _pools += 1
    try:
        yield note
    finally:
        with _lock:
            _pools -= 1
            if _pools == 0:
                if _saved is None:
                    os.environ.pop(WORKER_NOTE_ENV, None)
                else:
                    os.environ[WORKER_NOTE_ENV] = _saved
                with contextlib.suppress(OSError):
                    note.unlink()


def read_note(note: Path) -> str | None:
    """The message a worker left in ``note``, or None."""
    try:
        text = note.read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return text or None


def _main_script_frame() -> FrameType | None:
    """The frame of the main script's module-level code, when this call comes from it."""
    main = sys.modules.get("__main__")
    if main is None or not getattr(main, "__file__", None):
        return None  # python -c, a REPL, a notebook: nothing for a worker to import again
    spec = getattr(main, "__spec__", None)
    if spec is not None and str(spec.name).endswith(".__main__"):
        return None  # python -m package: multiprocessing never runs __main__.py again
    frame: FrameType | None = sys._getframe(1)
    while frame is not None:
        if frame.f_globals is main.__dict__ and frame.f_code.co_name == "<module>":
            return frame
        frame = frame.f_back
    return None


def _guarded(source: str, line: int) -> bool:
    """True when ``line`` is inside an ``if`` that tests ``__name__``, either branch (``if
    __name__ != "__main__": ... else: run()`` guards too), or the source cannot be read: in
    doubt, the call is not refused.

    Example:
        >>> _guarded("run()\\n", 1), _guarded('if __name__ == "__main__":\\n    run()\\n', 2)
        (False, True)
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return True
    return any(
        isinstance(node, ast.If)
        and node.lineno <= line <= (node.end_lineno or node.lineno)
        and any(isinstance(n, ast.Name) and n.id == "__name__" for n in ast.walk(node.test))
        for node in ast.walk(tree)
    )


def refuse_unguarded_main(workers: int | None, what: str = "evaluate_dataset") -> None:
    """Refuse a run with worker processes that the main script starts at module level,
    outside ``if __name__ == "__main__":`` (call it just before a pool is started).

    Raises:
        DatasetError: naming the call's file and line and the guard.
    """
    frame = _main_script_frame()
    if frame is None:
        return
    path, line = frame.f_code.co_filename, frame.f_lineno
    try:
        with open(path, "rb") as fh:
            source = fh.read().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return
    if _guarded(source, line):
        return
    call = f"{what}(workers={workers})" if workers is not None else f"{what}()"
    raise DatasetError(
        f"{call} was called at the main script's module level ({path}, line {line}), where"
        f" every worker process would run it again; put the call under"
        ' `if __name__ == "__main__":`, or pass workers=1'
    )
