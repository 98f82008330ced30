"""The ``ray`` engine: Ray Data reads the input and runs the same per-batch function on the
cluster; results stream back, in order, to the driver, which writes them and builds the summary.

* Parquet: ``ray.data.read_parquet`` (local paths or object-store URIs), only the columns the
  task reads.
* JSON lines: Ray Data's file-based datasource machinery (the same path, URI, filesystem and
  compression handling as ``read_json``) with a reader that streams each file and hands every
  line over undecoded. ``read_json`` itself does not fit: it loads each file whole, and infers
  one Arrow schema for all rows, so tool-call arguments that differ between rows either fail
  the file (a number in one row, a string in another) or come back with ``null`` for every key
  a row did not have (which would score as unexpected arguments). One bad line would also fail
  its file, where the local engine records an error row.
* A ``ray.data.Dataset`` the caller built is used as it is.

Each Ray worker prepares the task once (an actor per worker). Results travel as Arrow tables;
each batch's counters (rows consumed and skipped, judge calls) ride in one extra marker row at
its end, which the driver removes. ``preserve_order`` keeps the rows in source order, so the
driver can number them exactly as the local engine does.
"""

from __future__ import annotations

import json
import logging
import warnings
from collections.abc import Iterator
from typing import Any

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import RAY_HINT, DatasetError
from scorekit.batch._readers import check_columns, split_lines
from scorekit.batch._sinks import arrow_schema
from scorekit.batch._sources import Source, parquet_file
from scorekit.batch._task import ID, ROW, BatchTask, ResultBatch, RowBatch, score_batch

__all__ = ["ray_results", "ray_workers"]

_INDEX = "__index"
_META = "__meta"
_LINE = "line"
_NBYTES = "nbytes"


def _import_ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError:
        raise DatasetError(
            f"engine='ray' needs Ray Data, which is not installed: {RAY_HINT}"
        ) from None
    return ray


def _lines_datasource(paths: list[str], batch_size: int) -> Any:
    import pyarrow as pa
    from ray.data.datasource import FileBasedDatasource

    class JsonLinesDatasource(FileBasedDatasource):  # type: ignore[misc,unused-ignore]
        """Every non-blank line of JSON-lines files, undecoded, with its size in bytes."""

        def _read_stream(self, f: Any, path: str) -> Iterator[Any]:
            lines: list[bytes] = []
            sizes: list[int] = []
            for line in split_lines(f.read):
                lines.append(line)
                sizes.append(len(line) + 1)
                if len(lines) >= batch_size:
                    yield pa.table({_LINE: pa.array(lines, pa.binary()), _NBYTES: sizes})
                    lines, sizes = [], []
            if lines:
                yield pa.table({_LINE: pa.array(lines, pa.binary()), _NBYTES: sizes})

    return JsonLinesDatasource(paths)


class _Scorer:
    """A Ray actor: prepares the task once, then scores the batches it is given."""

    def __init__(self, task: BatchTask, done: DoneIds | None, lines: bool) -> None:
        import pyarrow as pa

        self.task = task
        self.done = done
        self.lines = lines
        task.prepare()
        schema = arrow_schema(task.fields)
        fields = [f for f in schema if f.name != ROW]
        self.schema = pa.schema(
            [*fields, pa.field(_INDEX, pa.int64()), pa.field(_META, pa.string())]
        )

    def __call__(self, table: Any) -> Any:
        import pyarrow as pa

        if self.lines:
            batch = RowBatch(
                lines=table.column(_LINE).to_pylist(),
                nbytes=int(pa.compute.sum(table.column(_NBYTES)).as_py() or 0),
            )
        else:
            batch = RowBatch(table=table)
        result = score_batch(self.task, batch, self.done)
        columns: dict[str, list[Any]] = {
            name: [*values, None] for name, values in result.columns.items()
        }
        columns[_INDEX] = [*result.index, -1]
        meta = {
            "consumed": result.consumed,
            "skipped": result.skipped,
            "nbytes": result.nbytes,
            "stats": result.stats,
        }
        columns[_META] = [None] * len(result.index) + [json.dumps(meta)]
        return pa.Table.from_pydict(columns, schema=self.schema)


def _unpack(table: Any, names: list[str]) -> Iterator[ResultBatch]:
    index = table.column(_INDEX).to_pylist()
    meta = table.column(_META).to_pylist()
    values = {name: table.column(name).to_pylist() for name in names}
    begin = 0
    for i, marker in enumerate(meta):
        if marker is None:
            continue
        info = json.loads(marker)
        yield ResultBatch(
            index=index[begin:i],
            columns={name: column[begin:i] for name, column in values.items()},
            consumed=int(info["consumed"]),
            skipped=int(info["skipped"]),
            nbytes=int(info["nbytes"]),
            stats={k: float(v) for k, v in info["stats"].items()},
        )
        begin = i + 1


def ray_workers(requested: int | None) -> int:
    """Ray workers to use: ``requested``, else the CPUs of the cluster (starting a local one
    when Ray is not initialised yet, as ``ray.init()`` does)."""
    if requested is not None:
        return requested
    ray = _import_ray()
    if not ray.is_initialized():
        return _local_cpus()
    return max(int(ray.cluster_resources().get("CPU", 1)), 1)


def _local_cpus() -> int:
    from scorekit.batch._local import cpu_count

    return cpu_count()


def _dataset(ray: Any, source: Source, task: BatchTask, wanted: list[str], batch_size: int) -> Any:
    if source.dataset is not None:
        check_columns(list(source.dataset.schema().names), wanted, source.label)
        return source.dataset, False
    if source.table is not None:
        return ray.data.from_arrow(source.table), False
    if source.records is not None:
        return ray.data.from_items(list(source.records)), False
    formats = source.formats
    if formats == {"parquet"}:
        for file in source.files:
            check_columns(parquet_file(file).schema_arrow.names, wanted, file.path)
        paths = [f.path for f in source.files]
        return ray.data.read_parquet(paths).select_columns(wanted), False
    if formats == {"jsonl"}:
        paths = [f.path for f in source.files]
        return ray.data.read_datasource(_lines_datasource(paths, batch_size)), True
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
        ds, lines = _dataset(ray, source, task, wanted, batch_size)
        scored = ds.map_batches(
            _Scorer,
            fn_constructor_args=(task, done, lines),
            batch_size=batch_size,
            batch_format="pyarrow",
            compute=ray.data.ActorPoolStrategy(size=workers),
            # Half a CPU each: a whole one per actor leaves Ray Data no room to schedule the
            # reads on a cluster with as many CPUs as workers, and the run waits forever.
            num_cpus=0.5,
        )
        names = [n for n in arrow_schema(task.fields).names if n != ROW]
        assert names[0] == ID
        with warnings.catch_warnings():
            # Ray Data's advice about its own tuning (block counts, deprecations) is not the
            # user's to act on here.
            warnings.filterwarnings("ignore", module=r"ray(\.|$)")
            for table in scored.iter_batches(batch_size=None, batch_format="pyarrow"):
                yield from _unpack(table, names)
    finally:
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = saved
        data_logger.setLevel(saved_level)
        if started:
            ray.shutdown()
