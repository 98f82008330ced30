"""The ``local`` engine: score batches in worker processes (CPU-bound tasks) or on threads of
this process (tasks that wait on a remote judge), results back in order.

Plain JSON-lines files are not read here: each worker reads the byte ranges it is given
(about 1 MiB, split at line boundaries: a line belongs to the range its first byte is in), so
the driver neither reads nor sends the rows; it only numbers, writes and sums up the results
that come back in range order. Other sources (compressed or Parquet files, rows, tables) are
read here and sent a batch at a time. At most ``2 * workers + 1`` ranges or batches are in
flight, so memory does not grow with the input.
Workers are started with ``spawn`` (the same on every platform, and safe with the judge's
background threads), except on Linux for a task that says it may be forked (``fork_safe``: pure
computation, such as tool-call scoring) while this process runs no other thread: a forked
worker starts at once, with the driver's modules already imported, where a spawned one spends
a third of a second of CPU importing them (5 % of a 200,000-row run on two cores). Workers
ignore Ctrl-C, which the driver handles for them. A script that starts
a run at module level, without ``if __name__ == "__main__":``, gets one error naming the guard
(``_main_guard``), not one multiprocessing traceback per worker.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import warnings
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError
from scorekit.batch._main_guard import read_note, worker_note
from scorekit.batch._readers import line_ranges, range_batches
from scorekit.batch._scoring import score_batch
from scorekit.batch._sources import SourceFile
from scorekit.batch._task import BatchTask, ResultBatch, RowBatch, freeze_heap
from scorekit.runtime._gc_pause import gc_paused

__all__ = ["RANGE_BYTES", "cpu_count", "local_results", "range_jobs", "start_method"]

#: Bytes of JSON lines per range a worker reads itself.
RANGE_BYTES = 1 << 20

#: A range job: the file, its byte range ``[start, end)`` and the rows per batch.
RangeJob = tuple[SourceFile, int, int, int]

_task: BatchTask | None = None
_done: DoneIds | None = None
_failed: BaseException | None = None


def cpu_count() -> int:
    """CPUs this process may use (its affinity mask where the platform has one)."""
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # pragma: no cover  # macOS, Windows
        return max(os.cpu_count() or 1, 1)


def start_method(task: BatchTask) -> str:
    """``fork`` where that is safe for ``task`` here (see the module docstring), else ``spawn``.

    Example:
        >>> start_method(object())  # a task that does not say it may be forked
        'spawn'
    """
    if not sys.platform.startswith("linux") or not getattr(task, "fork_safe", False):
        return "spawn"
    # Python threads only: the idle native pools of numpy's BLAS and pyarrow, which every
    # run has, are fork-safe (their libraries reset them in the child), and a forked worker
    # of a fork-safe task never uses them.
    return "fork" if threading.active_count() == 1 else "spawn"


def _start_workers(executor: ProcessPoolExecutor) -> None:
    """Start the pool's processes now (a forking pool starts them all on its first task).

    Python 3.12+ warns that forking a process with threads may deadlock the child; the only
    threads here are native pools that are safe across fork (see :func:`start_method`).
    """
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=r".*multi-threaded.*fork", category=DeprecationWarning
        )
        executor.submit(int).result()


def _init_worker(task: BatchTask, done: DoneIds | None) -> None:
    global _task, _done, _failed
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        task.prepare()
    except Exception as exc:
        # Raised from the first batch instead: an initializer that fails only breaks the
        # pool, and the driver would see "a worker died" without the reason.
        _failed = exc
    _task, _done = task, done
    freeze_heap()  # this process's own: never unfrozen


def _score_in_worker(job: RowBatch | RangeJob) -> bytes:
    if _failed is not None:
        raise _failed
    assert _task is not None, "worker not initialised"
    if isinstance(job, RowBatch):
        return _dumps([score_batch(_task, job, _done)])
    # No start position: the driver drops id-less rows a resumed run holds already.
    return _dumps([score_batch(_task, batch, _done) for batch in range_batches(*job) if len(batch)])


def _dumps(results: list[ResultBatch]) -> bytes:
    # Sent pickled: the pool's own thread then only copies bytes, and the driver unpickles
    # them on its thread with the collector paused (``_loads``).
    return pickle.dumps(results, protocol=pickle.HIGHEST_PROTOCOL)


def _loads(blob: bytes) -> list[ResultBatch]:
    """A worker's results. Unpickling builds thousands of small lists a batch, and the
    collector would rescan them again and again (a tenth of the driver's CPU)."""
    with gc_paused():
        results: list[ResultBatch] = pickle.loads(blob)
    return results


def range_jobs(files: Iterable[SourceFile], batch_size: int, workers: int) -> list[RangeJob] | None:
    """Byte ranges covering every file, in order: at most :data:`RANGE_BYTES` each, and at
    least ``4 * workers`` of them for a file over 1 MiB (the workers finish together); None
    when a file cannot be read in ranges (compressed, of unknown size, Parquet, ``.json``).

    Example:
        >>> range_jobs([SourceFile("a.jsonl", "jsonl", None, 10)], 512, 2)
        [(SourceFile(path='a.jsonl', format='jsonl', compression=None, size=10), 0, 10, 512)]
    """
    jobs: list[RangeJob] = []
    for file in files:
        if file.format != "jsonl":
            return None
        size = file.size or 0
        parts = max(size // RANGE_BYTES, 4 * workers)
        ranges = line_ranges(file, parts, most=RANGE_BYTES, least=RANGE_BYTES // 4)
        if ranges == [(0, -1)]:
            return None
        jobs += [(file, start, end, batch_size) for start, end in ranges]
    return jobs


def _ordered(
    executor: Executor,
    fn: Callable[[Any], Any],
    items: Iterable[Any],
    window: int,
) -> Iterator[Any]:
    pending: deque[Future[Any]] = deque()
    try:
        for item in items:
            pending.append(executor.submit(fn, item))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for fut in pending:
            fut.cancel()


def local_results(
    batches: Iterable[RowBatch],
    task: BatchTask,
    *,
    workers: int,
    done: DoneIds | None,
    ranges: list[RangeJob] | None = None,
) -> Iterator[ResultBatch]:
    """Score ``batches`` in order.

    With ``workers > 1``, in that many worker processes; given ``ranges`` (:func:`range_jobs`
    of the same source), the workers read those instead and ``batches`` is not read. With
    one worker, in this process: one batch after the other for a CPU-bound task, two at a time
    on threads for a task that waits on a remote judge (the next batch's calls start while the
    last ones of this batch are still out).

    Raises:
        DatasetError: the task cannot be sent to worker processes, or a worker process died
            (killed, out of memory); what was written so far stays for ``resume``.
    """
    if workers <= 1 and task.processes:
        task.prepare()
        for batch in batches:
            yield score_batch(task, batch, done)
        return
    with contextlib.ExitStack() as guard:
        executor: Executor
        note = None
        if workers > 1:
            import multiprocessing

            _check_pickles(task)
            note = guard.enter_context(worker_note())
            method = start_method(task)
            executor = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context(method),
                initializer=_init_worker,
                initargs=(task, done),
            )
            if method == "fork":
                _start_workers(executor)
        else:
            task.prepare()
            executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scorekit-batch")

            def fn(batch: RowBatch) -> ResultBatch:
                return score_batch(task, batch, done)

        try:
            window = 2 * max(workers, 2) + 1
            if workers > 1:
                jobs = ranges if ranges is not None else batches
                for blob in _ordered(executor, _score_in_worker, jobs, window):
                    yield from _loads(blob)
            else:
                yield from _ordered(executor, fn, batches, window)
        except BrokenProcessPool as exc:
            # A worker that found an unguarded module-level call left the reason before it
            # exited, which is what broke the pool.
            reason = read_note(note) if note is not None else None
            if reason is not None:
                raise DatasetError(reason) from None
            raise DatasetError(
                f"a worker process died ({exc}); the rows written so far are kept: rerun with"
                " resume (--resume) to go on"
            ) from None
        finally:
            executor.shutdown(wait=True, cancel_futures=True)


def _check_pickles(task: BatchTask) -> None:
    """Raise a clear error when the task (with its judge) cannot go to worker processes."""
    try:
        pickle.dumps(task)
    except Exception as exc:
        raise DatasetError(
            f"the task cannot be sent to worker processes ({exc}); use workers=1, or a judge"
            " that can be pickled (a package.module:attr provider, or a class defined in an"
            " importable module)"
        ) from None
