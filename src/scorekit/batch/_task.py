"""The per-batch function: raw rows in, result columns out. Every engine calls it.

A face (``toolscore``, ``pytest_texts_score``) describes how to score one row with a
:class:`BatchTask`; ``_scoring.score_batch`` does the rest the same way for both faces and
every engine. This module holds the contract between them: the task protocol, the batch types
and the result columns. Nothing here knows where rows come from or where results go.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from scorekit.batch._errors import RowError
from scorekit.batch._jsonlines import NO_FACTS, LineFacts

__all__ = [
    "ERROR",
    "ERROR_KIND",
    "ID",
    "ROW",
    "BatchTask",
    "Field",
    "ResultBatch",
    "RowBatch",
    "RowError",
    "freeze_heap",
    "result_columns",
]

#: The columns every result row has besides the task's own fields.
ID = "id"
ROW = "row"
ERROR = "error"
ERROR_KIND = "error_kind"


@dataclass(frozen=True)
class Field:
    """One result column of a task.

    Attributes:
        name: the column name.
        kind: ``float``, ``int``, ``str`` or ``list[str]`` (its type in Parquet).
        score: a score in ``[0, 1]``: the summary shows its mean, quantiles and histogram.
        category: the summary counts each value (a grade).
        failure: for an ``int`` field, the summary counts the rows where it is above 0 under
            this label (``"missing calls"``); for a ``list[str]`` field, the values seen most
            often under this label (``"most often missing"``).
    """

    name: str
    kind: str = "float"
    score: bool = False
    category: bool = False
    failure: str | None = None


class BatchTask(Protocol):
    """How a face scores rows. Instances are sent to worker processes, so they must pickle.

    Attributes:
        fields: the result columns the task adds, in order (``id``/``row``/``error`` aside).
        columns: the source columns it reads (a columnar source reads only these).
        id_column: the column holding each row's id, or None to identify rows by position.
        main_score: the field whose mean is "the" score (``--min-mean``, the lowest rows).
        batch_size: rows per batch when the caller does not choose.
        processes: True when scoring is CPU-bound (worker processes help); False when it
            waits on a remote judge (one process with many calls in flight is enough).
        pause_gc: True when the garbage collector may be paused while a batch is scored.
    """

    @property
    def fields(self) -> tuple[Field, ...]: ...

    @property
    def columns(self) -> tuple[str, ...]: ...

    @property
    def id_column(self) -> str | None: ...

    @property
    def main_score(self) -> str: ...

    @property
    def batch_size(self) -> int: ...

    @property
    def processes(self) -> bool: ...

    @property
    def pause_gc(self) -> bool:
        """True when scoring is pure computation on this thread that leaves no reference
        cycles behind: the garbage collector is then paused for the whole batch (it would
        rescan the batch's many small containers again and again)."""
        ...

    def prepare(self) -> None:
        """Load what scoring needs (a judge, a gold index) once per process."""

    def for_workers(self, workers: int) -> BatchTask:
        """The task as each of ``workers`` processes runs it (a judge's concurrency limit is
        shared out among them)."""
        ...

    def score_rows(
        self,
        rows: Sequence[Mapping[str, Any]],
        raw: Sequence[bytes | None],
        no_dollar: bool = False,
    ) -> tuple[list[tuple[Any, ...] | RowError], dict[str, float]]:
        """Score decoded rows; return one tuple of field values (or a RowError) per row, and
        counters for the summary (judge calls, warnings, ...).

        ``raw`` holds each row's JSON line where the row came from one (else None), so a task
        can look for text cheaply (``b'"$'``: a matcher) before walking the decoded values.
        ``no_dollar`` is True when the engine found no ``$`` in any of those lines (it looked
        at their whole byte range at once): then no line needs looking at.
        """
        ...


@dataclass
class RowBatch:
    """Rows to score, in source order: JSON lines, a columnar batch, or decoded records.

    Attributes:
        lines: one JSON object per item (bytes, undecoded).
        table: a ``pyarrow`` Table or RecordBatch of records.
        records: rows already decoded (an in-memory source).
        start: the position of the first row in the whole source, when the engine knows it
            (a resumed run then skips id-less rows without scoring them).
        nbytes: input size, for progress.
        facts: what the engine found out about all of ``lines`` at once (their byte range),
            so that no line is searched on its own.
    """

    lines: list[bytes] | None = None
    table: Any = None
    records: list[Any] | None = None
    start: int | None = None
    nbytes: int = 0
    facts: LineFacts = NO_FACTS

    def __len__(self) -> int:
        if self.lines is not None:
            return len(self.lines)
        if self.records is not None:
            return len(self.records)
        return int(self.table.num_rows) if self.table is not None else 0


@dataclass
class ResultBatch:
    """The results of one batch, as columns.

    Attributes:
        index: each result row's position inside its input batch (skipped rows have none).
        columns: ``id``, the task's fields, ``error``, ``error_kind``: one list each, except
            that a ``float`` or ``int`` field without a None in the batch is a numpy array
            (``float64``, ``int64``; see :func:`numeric_arrays`).
        consumed: input rows the batch had (scored, failed and skipped).
        skipped: rows dropped because the output already holds them.
        nbytes: input bytes the batch had.
        stats: the task's counters (summed over batches by the summary).
    """

    index: list[int]
    columns: dict[str, Any]
    consumed: int
    skipped: int = 0
    nbytes: int = 0
    stats: dict[str, float] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.index)


def result_columns(task: BatchTask) -> list[str]:
    """The output columns of ``task`` in file order: ``id``, ``row``, fields, error columns."""
    return [ID, ROW, *(f.name for f in task.fields), ERROR, ERROR_KIND]


def row_id(value: Any) -> str | None:
    """A row's id as text (ids are written as text whatever their type in the source)."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def freeze_heap() -> bool:
    """Move every object alive now out of the cyclic collector's sight (``gc.freeze``).

    A run's process holds tens of thousands of long-lived objects (numpy, pyarrow, the
    engine's modules) that every full collection would rescan while millions of rows go by.
    Returns False, freezing nothing, when the process froze objects of its own already (the
    caller then must not ``gc.unfreeze()``).
    """
    if gc.get_freeze_count():
        return False
    gc.freeze()
    return True
