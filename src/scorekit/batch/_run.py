"""The driver of a dataset run: one loop for every engine.

The engine hands back result batches in source order; the driver numbers the rows, writes them,
folds them into the summary, reports progress and decides when to stop (``max_errors``, a judge
that keeps failing, Ctrl-C). On every way out the output keeps what was written, so a resumed
run goes on from there.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType
from typing import Any, TextIO

import numpy as np

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError, JudgeOutageError
from scorekit.batch._main_guard import refuse_in_starting_worker, refuse_unguarded_main
from scorekit.batch._progress import make_progress
from scorekit.batch._readers import read_batches
from scorekit.batch._sinks import open_sink
from scorekit.batch._sources import Source, resolve_source
from scorekit.batch._summary import DatasetSummary, Summarizer
from scorekit.batch._task import ERROR_KIND, ID, ROW, BatchTask, ResultBatch, freeze_heap

__all__ = ["ENGINES", "run_dataset"]

ENGINES = ("local", "ray")
#: Judge errors on this many rows in a row stop the run (the judge is down, not one row bad).
JUDGE_OUTAGE_ROWS = 25


def _check_whole(name: str, value: Any, low: int = 1) -> None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < low):
        raise ValueError(f"{name} must be a whole number >= {low} or None; got {value!r}")


def resolve_workers(task: BatchTask, engine: str, workers: int | None) -> int:
    """The worker count a run uses: ``workers``, else the machine's (or cluster's) CPUs for a
    CPU-bound task, else 1 (one process keeps many judge calls in flight)."""
    if workers is not None:
        return workers
    if engine == "ray":
        from scorekit.batch._ray import ray_workers

        return ray_workers(None)
    if not task.processes:
        return 1
    from scorekit.batch._local import cpu_count

    return cpu_count()


#: Inputs below this many bytes of JSON lines are scored in the calling process.
SMALL_INPUT_BYTES = 256 * 1024


def _small(source: Source, batch_size: int) -> bool:
    """One batch of rows, or a small file: not worth starting worker processes for."""
    total_bytes = source.total_bytes()
    if total_bytes is not None:
        return total_bytes < SMALL_INPUT_BYTES
    if source.files and any(f.format == "jsonl" for f in source.files):
        return False  # compressed or of unknown size
    rows = source.total_rows()
    return rows is not None and rows <= batch_size


class _Interrupts:
    """Ctrl-C during a run: the first one stops the run once the batch in hand is written (the
    output stays whole, nothing is written twice); a second one stops it at once.

    A ``KeyboardInterrupt`` raised wherever the signal lands could be lost (inside a finalizer)
    or land between writing rows and noting them. Installed only in the main thread over
    Python's default handler; a handler of the caller's own stays as it is.
    """

    def __init__(self) -> None:
        self.pending = False
        self._old: Any = None

    def __enter__(self) -> _Interrupts:
        if (
            threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is signal.default_int_handler
        ):
            self._old = signal.signal(signal.SIGINT, self._handle)
        return self

    def _handle(self, signum: int, frame: FrameType | None) -> None:
        if self.pending:
            raise KeyboardInterrupt
        self.pending = True

    def check(self) -> None:
        """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed."""
        if self.pending:
            raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self._old is not None:
            signal.signal(signal.SIGINT, self._old)


def _check_first_batch(result: ResultBatch, task: BatchTask) -> None:
    """Rows that all miss the same column mean the column name is wrong: stop at once."""
    kinds = result.columns[ERROR_KIND]
    if len(kinds) < 2 or any(k != "missing_column" for k in kinds):
        return
    messages = {m.split(";")[0] for m in result.columns["error"]}
    if len(messages) == 1:
        raise DatasetError(
            f"none of the first {len(kinds)} rows can be read: {next(iter(messages))};"
            " check the column names (e.g. --id-column, --gold-column)"
        )


def run_dataset(  # noqa: C901 (the run's steps in order: check, resume, engine, write, summary)
    source: Any,
    task: BatchTask,
    *,
    engine: str = "local",
    workers: int | None = None,
    output: str | os.PathLike[str] | None = None,
    resume: bool = False,
    max_errors: int | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
    progress_stream: TextIO | None = None,
    progress_interval: float = 10.0,
    judge_info: dict[str, Any] | None = None,
) -> DatasetSummary:
    """Score every row of ``source`` with ``task``; write per-row results; return a summary.

    Args:
        source: a path or URI (JSON lines or Parquet; a folder of them), a list of paths,
            rows (an iterable of mappings), a ``pyarrow.Table``, or (``engine="ray"``) a
            ``ray.data.Dataset``.
        task: the face's row scorer.
        engine: ``local`` (worker processes on this machine) or ``ray`` (Ray Data).
        workers: worker processes (local) or Ray actors; default: the CPUs for a CPU-bound
            task (1 for an input of one batch or under 256 KB), 1 for a task that waits on a
            remote judge.
        output: the per-row results file, ``.parquet`` or ``.jsonl``; None writes none.
        resume: skip the rows ``output`` already holds (also after a kill mid-write).
        max_errors: stop once more rows than this could not be scored; None never stops.
        batch_size: rows per batch (default: the task's).
        progress: None or True: a bar on a terminal, a line every ``progress_interval``
            seconds elsewhere; False: silent.
        progress_stream: where progress goes (default: stderr).
        progress_interval: seconds between plain progress lines.
        judge_info: ``judge`` and ``model`` names for the summary's judge line.

    Returns:
        The :class:`DatasetSummary`.

    Raises:
        DatasetError: bad arguments or input for the run as a whole (the message says which),
            or a worker process reached the call while importing the main module (a call at
            module level without ``if __name__ == "__main__":``).
        JudgeOutageError: the judge failed on many rows in a row (the run is resumable).
    """
    refuse_in_starting_worker(workers)  # an unguarded module-level call, imported by a worker
    if engine not in ENGINES:
        raise DatasetError(f"engine must be one of {', '.join(ENGINES)}; got {engine!r}")
    _check_whole("workers", workers)
    _check_whole("max_errors", max_errors, low=0)
    _check_whole("batch_size", batch_size)
    if resume and output is None:
        raise DatasetError("resume needs output: the results file of the run to resume")
    resolved = resolve_source(source)
    label = os.fspath(source) if isinstance(source, (str, os.PathLike)) else resolved.label
    size = batch_size or task.batch_size
    n_workers = resolve_workers(task, engine, workers)
    if workers is None and engine == "local" and _small(resolved, size):
        n_workers = 1  # starting worker processes would take longer than the scoring
    if engine == "local" and n_workers > 1:
        refuse_unguarded_main(workers)  # the same error whether workers fork or spawn
    task = task.for_workers(n_workers)

    sink = open_sink(output, task.fields, resume) if output is not None else None
    done: DoneIds = sink.done if sink is not None else DoneIds()
    summarizer = Summarizer(task.fields, task.main_score)
    if sink is not None and resume:
        for columns in sink.previous():
            summarizer.add(columns, resumed=True)

    total, unit = resolved.total_bytes(), "bytes"
    if total is None:
        total, unit = resolved.total_rows(), "rows"
    reporter = make_progress(
        progress, label, total, unit, stream=progress_stream, interval=progress_interval
    )

    started = time.monotonic()
    stopped: str | None = None
    results: Iterator[ResultBatch]
    if engine == "ray":
        from scorekit.batch._ray import ray_results

        results = ray_results(resolved, task, workers=n_workers, batch_size=size, done=done)
    else:
        from scorekit.batch._local import local_results, range_jobs

        wanted = [*task.columns, *([task.id_column] if task.id_column else [])]
        ranges = None
        if n_workers > 1 and task.processes and resolved.files:
            # Plain JSON lines: the workers read their byte ranges of the files themselves.
            ranges = range_jobs(resolved.files, size, n_workers)
        results = local_results(
            read_batches(resolved, size, wanted),
            task,
            workers=n_workers,
            done=done,
            ranges=ranges,
        )

    position = 0
    judge_failures = 0
    first = True
    frozen = freeze_heap()
    with _Interrupts() as interrupts:
        try:
            for result in results:
                rows = [position + i for i in result.index]
                position += result.consumed
                columns = result.columns
                if done.positions.size:
                    # Id-less rows of a resumed run that an engine could not skip by position.
                    seen = done.done_positions(rows)
                    keep = [j for j, k in enumerate(columns[ID]) if k is not None or not seen[j]]
                    if len(keep) < len(rows):
                        result.skipped += len(rows) - len(keep)
                        columns = {
                            k: v[keep] if isinstance(v, np.ndarray) else [v[j] for j in keep]
                            for k, v in columns.items()
                        }
                        rows = [rows[j] for j in keep]
                columns = {ID: columns[ID], ROW: rows} | columns
                if first:
                    first = False
                    _check_first_batch(result, task)
                if sink is not None and rows:
                    sink.write(columns)
                before = summarizer.errors
                summarizer.add(columns)
                summarizer.stats.update(result.stats)  # the task's counters (judge calls...)
                new_errors = summarizer.errors - before
                reporter.update(
                    rows=len(rows), errors=new_errors, skipped=result.skipped, nbytes=result.nbytes
                )
                kinds = columns[ERROR_KIND]
                if kinds and "judge_error" not in kinds:
                    judge_failures = 0
                    kinds = []
                for kind in kinds:
                    judge_failures = judge_failures + 1 if kind == "judge_error" else 0
                    if judge_failures >= JUDGE_OUTAGE_ROWS:
                        raise JudgeOutageError(
                            f"the judge failed on {JUDGE_OUTAGE_ROWS} rows in a row; the last"
                            f" error: {_last_error(columns)}. Nothing more is scored; the rows"
                            " written so far are kept: rerun with resume (--resume) when the"
                            " judge is back"
                        )
                if (
                    max_errors is not None
                    and summarizer.errors - summarizer.resumed_errors > max_errors
                ):
                    stopped = (
                        f"more than {max_errors} rows could not be scored (--max-errors);"
                        " the rows written so far are kept"
                    )
                    break
                interrupts.check()
        finally:
            close_results = getattr(results, "close", None)
            if close_results is not None:
                close_results()
            reporter.close()
            if frozen:
                gc.unfreeze()
            if sink is not None:
                # Every orderly stop (the end, --max-errors, an error, Ctrl-C) leaves a
                # complete, readable output; a resumed run goes on from it. Only a hard kill
                # leaves parts behind.
                try:
                    sink.close()
                except Exception:
                    sink.abort()
                    raise
    interrupts.check()  # pressed while the output was being finished: it is whole now
    judge = None
    if judge_info is not None:
        from scorekit.report import judge_totals

        totals = judge_totals({**summarizer.stats, **judge_info})
        judge = totals.to_dict() if totals is not None else None
    return summarizer.finish(
        source=label,
        output=os.fspath(output) if output is not None else None,
        engine=engine,
        workers=n_workers,
        seconds=time.monotonic() - started,
        judge=judge,
        stopped=stopped,
    )


def _last_error(columns: dict[str, list[Any]]) -> str:
    errors = [e for e, k in zip(columns["error"], columns[ERROR_KIND], strict=True) if k]
    return errors[-1] if errors else "?"
