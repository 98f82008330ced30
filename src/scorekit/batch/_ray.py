"""The ``ray`` engine: Ray Data feeds the input to the same per-batch function on the cluster;
results stream back, in order, to the driver, which writes them and builds the summary.

* JSON lines: the driver cuts each plain file into byte ranges (a few MiB each, a line belonging
  to the range its first byte is in) and the actors read their ranges themselves, from local
  paths or object-store URIs (``pyarrow.fs``), so one large file is read in parallel and its
  lines never pass through the object store. A file that cannot be cut (compressed, a ``.json``
  file that may hold one array) is one work item, read as the local engine reads it.
  ``ray.data.read_json`` does not fit: it loads each file whole and infers one Arrow schema for
  all rows, so tool-call arguments that differ between rows either fail the file (a number in
  one row, a string in another) or come back with ``null`` for every key a row did not have
  (which would score as unexpected arguments); one bad line would fail its file, where the
  local engine records an error row.
* Parquet: ``ray.data.read_parquet`` (local paths or object-store URIs), only the columns the
  task reads.
* A ``ray.data.Dataset`` the caller built is used as it is.

Each Ray worker prepares the task once (an actor per worker). Results travel as pickled
:class:`ResultBatch` objects, as the local engine's workers send theirs: a typed Arrow table
would cost a conversion on each side for rows the driver reads once. ``preserve_order`` keeps
them in source order, so the driver numbers rows exactly as the local engine does.
"""

from __future__ import annotations

import logging
import pickle
import warnings
from collections.abc import Iterator
from typing import Any

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import RAY_HINT, DatasetError
from scorekit.batch._readers import check_columns, line_ranges, range_batches, read_batches
from scorekit.batch._scoring import score_batch
from scorekit.batch._sources import Source, SourceFile, parquet_file
from scorekit.batch._task import BatchTask, ResultBatch, RowBatch

__all__ = ["ray_results", "ray_workers"]

_RESULT = "result"
#: Byte ranges of a JSON-lines file: enough per worker to balance the load, each big enough
#: that a range costs far more to score than to hand out.
_RANGE_MOST = 8 << 20
_RANGE_LEAST = 1 << 20
_RANGES_PER_WORKER = 4
#: Rows an actor scores before it sends their results on.
_SEND_ROWS = 4096


def _import_ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError:
        raise DatasetError(
            f"engine='ray' needs Ray Data, which is not installed: {RAY_HINT}"
        ) from None
    return ray


class _Scorer:
    """A Ray actor: prepares the task once, then scores what it is given: rows (a columnar
    source), or work items naming a file and a byte range of it to read and score."""

    def __init__(
        self,
        task: BatchTask,
        done: DoneIds | None,
        files: tuple[SourceFile, ...] | None,
        batch_size: int,
    ) -> None:
        self.task = task
        self.done = done
        self.files = files
        self.batch_size = batch_size
        task.prepare()

    def __call__(self, table: Any) -> Iterator[Any]:
        if self.files is None:
            yield _payload([score_batch(self.task, RowBatch(table=table), self.done)])
            return
        results: list[ResultBatch] = []
        rows = 0
        for batch in self._read(table):
            results.append(score_batch(self.task, batch, self.done))
            rows += len(batch)
            if rows >= _SEND_ROWS:
                yield _payload(results)
                results, rows = [], 0
        if results:
            yield _payload(results)

    def _read(self, table: Any) -> Iterator[RowBatch]:
        assert self.files is not None
        columns = [table.column(name).to_pylist() for name in ("file", "start", "end")]
        for index, start, end in zip(*columns, strict=True):
            file = self.files[index]
            if end < 0:  # a file that cannot be cut: read whole, as the local engine does
                whole = Source(file.path, (file,))
                yield from read_batches(whole, self.batch_size, self.task.columns)
            else:
                yield from range_batches(file, start, end, self.batch_size)


def _payload(results: list[ResultBatch]) -> Any:
    import pyarrow as pa

    return pa.table({_RESULT: pa.array([pickle.dumps(r, protocol=5) for r in results])})


def ray_workers(requested: int | None) -> int:
    """Ray workers to use: ``requested``, else the CPUs of the cluster (starting a local one
    when Ray is not initialised yet, as ``ray.init()`` does)."""
    if requested is not None:
        return requested
    ray = _import_ray()
    if not ray.is_initialized():
        from scorekit.batch._local import cpu_count

        return cpu_count()
    return max(int(ray.cluster_resources().get("CPU", 1)), 1)


def _dataset(
    ray: Any, source: Source, wanted: list[str], workers: int
) -> tuple[Any, tuple[SourceFile, ...] | None]:
    """The Ray dataset to score, and the files its work items name (None: it holds rows)."""
    if source.dataset is not None:
        check_columns(list(source.dataset.schema().names), wanted, source.label)
        return source.dataset, None
    if source.table is not None:
        return ray.data.from_arrow(source.table), None
    if source.records is not None:
        return ray.data.from_items(list(source.records)), None
    formats = source.formats
    if formats == {"parquet"}:
        for file in source.files:
            check_columns(parquet_file(file).schema_arrow.names, wanted, file.path)
        paths = [f.path for f in source.files]
        return ray.data.read_parquet(paths).select_columns(wanted), None
    if formats == {"jsonl"}:
        parts = max(_RANGES_PER_WORKER * workers // len(source.files), 1)
        items = [
            {"file": index, "start": start, "end": end}
            for index, file in enumerate(source.files)
            for start, end in line_ranges(file, parts, most=_RANGE_MOST, least=_RANGE_LEAST)
        ]
        return ray.data.from_items(items, override_num_blocks=len(items)), source.files
    raise DatasetError(
        f"{source.label}: the ray engine reads one format per run (JSON lines or Parquet);"
        " this source mixes them"
    )


def ray_results(
    source: Source,
    task: BatchTask,
    *,
    workers: int,
    batch_size: int,
    done: DoneIds | None,
) -> Iterator[ResultBatch]:
    """Score ``source`` on Ray with ``workers`` actors; results in source order.

    Starts a local Ray instance (``num_cpus=workers``) when none is running and shuts it down
    at the end; a running one (``ray.init(address=...)`` beforehand) is used and left running.

    Raises:
        DatasetError: Ray is not installed, or the source cannot be read.
    """
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            log_to_driver=False,
            logging_level=logging.WARNING,
            configure_logging=True,
        )
        started = True
    ctx = ray.data.DataContext.get_current()
    saved = (ctx.execution_options.preserve_order, ctx.enable_progress_bars)
    data_logger = logging.getLogger("ray.data")
    saved_level = data_logger.level
    try:
        ctx.execution_options.preserve_order = True
        ctx.enable_progress_bars = False
        data_logger.setLevel(logging.ERROR)
        wanted = [*task.columns, *([task.id_column] if task.id_column else [])]
        ds, files = _dataset(ray, source, wanted, workers)
        scored = ds.map_batches(
            _Scorer,
            fn_constructor_args=(task, done, files, batch_size),
            batch_size=batch_size if files is None else 1,
            batch_format="pyarrow",
            compute=ray.data.ActorPoolStrategy(size=workers),
            # Half a CPU each: a whole one per actor leaves Ray Data no room to schedule the
            # reads on a cluster with as many CPUs as workers, and the run waits forever.
            num_cpus=0.5,
        )
        with warnings.catch_warnings():
            # Ray Data's advice about its own tuning (block counts, deprecations) is not the
            # user's to act on here.
            warnings.filterwarnings("ignore", module=r"ray(\.|$)")
            for table in scored.iter_batches(batch_size=None, batch_format="pyarrow"):
                for payload in table.column(_RESULT).to_pylist():
                    yield pickle.loads(payload)
    finally:
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = saved
        data_logger.setLevel(saved_level)
        if started:
            ray.shutdown()
