"""Scoring one batch: raw rows in, result columns out. Every engine calls :func:`score_batch`.

It does the same for both faces and every engine: decode each row (a JSON line, or a record
from a columnar batch), read its id, drop the rows a resumed run already holds, let the task
score the others, and turn each failure into an error row instead of an exception.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import RowError
from scorekit.batch._jsonlines import decode_lines
from scorekit.batch._task import (
    ERROR,
    ERROR_KIND,
    ID,
    BatchTask,
    Field,
    ResultBatch,
    RowBatch,
    row_id,
)
from scorekit.runtime._gc_pause import gc_paused

__all__ = ["LINES_PER_STEP", "numeric_arrays", "score_batch"]


def _without_nulls(value: Any) -> Any:
    # A struct column has every field of its schema in every row, null where the row had no
    # such key: read a null field as an absent key, as the row was written.
    if isinstance(value, dict):
        return {k: _without_nulls(v) for k, v in value.items() if v is not None}
    if isinstance(value, list):
        return [_without_nulls(v) for v in value]
    return value


def _table_records(table: Any, wanted: Sequence[str]) -> list[dict[str, Any]]:
    import pyarrow as pa

    names = [n for n in wanted if n in table.schema.names]
    columns: list[list[Any]] = []
    for name in names:
        column = table.column(name)
        values = column.to_pylist()
        if pa.types.is_nested(column.type):
            values = [_without_nulls(v) for v in values]
        columns.append(values)
    return [dict(zip(names, row, strict=True)) for row in zip(*columns, strict=True)] or [
        {} for _ in range(table.num_rows)
    ]


_DTYPES = {"float": "float64", "int": "int64"}


def numeric_arrays(columns: dict[str, Any], fields: Sequence[Field]) -> dict[str, Any]:
    """Turn each ``float`` and ``int`` field's list into a numpy array, in place, unless it
    holds a None (an error row's empty field; numpy would make it NaN, or fail).

    A batch's numbers then cross to the driver as one buffer per column instead of one object
    per value, and become Arrow columns and summary arrays without a pass over Python objects
    (the saving per row: docs/contributing.md, Benchmarks).

    Example:
        >>> numeric_arrays({"score": [0.5, 1.0], "n": [1, None]},
        ...                [Field("score"), Field("n", "int")])
        {'score': array([0.5, 1. ]), 'n': [1, None]}
    """
    for f in fields:
        dtype = _DTYPES.get(f.kind)
        values = columns.get(f.name)
        if dtype is not None and type(values) is list and None not in values:
            # Not plain numbers (an int beyond 64 bits): kept as they are.
            with contextlib.suppress(TypeError, ValueError, OverflowError):
                columns[f.name] = np.array(values, dtype=dtype)
    return columns


def score_batch(task: BatchTask, batch: RowBatch, done: DoneIds | None = None) -> ResultBatch:
    """Score one batch of rows with ``task``: the one function every engine runs.

    Args:
        task: the face's row scorer (prepared in this process).
        batch: the rows.
        done: ids (and, for id-less rows, positions) already in the output; those rows are
            skipped, not scored.

    Returns:
        The result columns (numbers as numpy arrays: :func:`numeric_arrays`); a row that
        cannot be scored is an error row (``error`` and ``error_kind`` set, the fields None),
        never an exception.
    """
    if task.pause_gc:
        # Paused until the batch's rows are freed: only the result is left for the collector.
        with gc_paused():
            result = _score_in_steps(task, batch, done, LINES_PER_STEP)
    else:
        result = _score_in_steps(task, batch, done, None)
    numeric_arrays(result.columns, task.fields)
    return result


#: JSON lines of a pure-computation task are decoded and scored this many at a time: the rows
#: just decoded are still in the CPU caches when they are scored (decoding a whole batch of
#: 512 first and then scoring it costs a fifth more CPU per small tool-call row).
LINES_PER_STEP = 32


def _score_in_steps(
    task: BatchTask, batch: RowBatch, done: DoneIds | None, size: int | None
) -> ResultBatch:
    """Decode and score ``batch`` a slice of ``size`` JSON lines at a time (None, or rows that
    are not JSON lines: all at once), the result columns built once (the same rows, fields and
    counters as one pass over the whole batch: each row is scored on its own)."""
    lines = batch.lines
    parts: Iterable[tuple[int, RowBatch]] = [(0, batch)]
    if lines is not None and size is not None and len(lines) > size:
        parts = (
            (
                offset,
                RowBatch(
                    lines=lines[offset : offset + size],
                    start=None if batch.start is None else batch.start + offset,
                    facts=batch.facts,
                ),
            )
            for offset in range(0, len(lines), size)
        )
    keep: list[int] = []
    ids: list[str | None] = []
    first: list[RowError | None] = []
    todo: list[int] = []
    scored: list[tuple[Any, ...] | RowError] = []
    skipped = 0
    stats: dict[str, float] = {}
    for offset, part in parts:
        step = _step(task, part, done)
        keep += [offset + i for i in step.keep]
        ids += step.ids
        first += step.first
        todo += [offset + i for i in step.todo]
        scored += step.scored
        skipped += step.skipped
        for key, value in step.stats.items():
            stats[key] = stats.get(key, 0) + value
    with gc_paused():
        columns = _columns(task, keep, ids, first, todo, scored)
    return ResultBatch(
        index=keep,
        columns=columns,
        consumed=len(ids),
        skipped=skipped,
        nbytes=batch.nbytes,
        stats=stats,
    )


@dataclass
class _Step:
    """One slice of a batch, decoded and scored: the rows kept (not in the output already),
    each row's id and the error that stopped it before scoring, the rows scored and how."""

    keep: Sequence[int]
    ids: list[str | None]
    first: list[RowError | None]
    todo: list[int]
    scored: list[tuple[Any, ...] | RowError]
    skipped: int
    stats: dict[str, float]


def _step(task: BatchTask, batch: RowBatch, done: DoneIds | None) -> _Step:
    with gc_paused():
        decoded, raw, ids, first = _decode(task, batch)
        keep: Sequence[int] = range(len(decoded))
        skipped = 0
        if done is not None and not done.empty:
            skip = done.skip_mask(ids, batch.start)
            keep = [i for i in keep if not skip[i]]
            skipped = len(decoded) - len(keep)
        todo = [i for i in keep if first[i] is None]
        rows: list[dict[str, Any]] = [decoded[i] for i in todo]  # type: ignore[misc]
        lines = [raw[i] for i in todo]
    # Without pause_gc the collector runs while the task scores: that may take long (an LLM
    # judge), on other threads too.
    scored, stats = task.score_rows(rows, lines, batch.facts.no_dollar)
    return _Step(keep, ids, first, todo, scored, skipped, stats)


def _decode(
    task: BatchTask, batch: RowBatch
) -> tuple[
    list[dict[str, Any] | RowError], Sequence[bytes | None], list[str | None], list[RowError | None]
]:
    """Each row decoded (or the error that stops it), its raw line, its id."""
    raw: Sequence[bytes | None]
    decoded: list[dict[str, Any] | RowError]
    if batch.lines is not None:
        raw = batch.lines
        decoded = decode_lines(raw, batch.facts)
    elif batch.table is not None:
        wanted = [*task.columns, *([task.id_column] if task.id_column else [])]
        decoded = list(_table_records(batch.table, wanted))
        raw = [None] * len(decoded)
    else:
        decoded = [
            r
            if isinstance(r, dict)
            else (
                dict(r)
                if isinstance(r, Mapping)
                else RowError("bad_json", f"the row is a {type(r).__name__}, not a mapping")
            )
            for r in batch.records or []
        ]
        raw = [None] * len(decoded)

    id_column = task.id_column
    if id_column is None:
        return (
            decoded,
            raw,
            [None] * len(decoded),
            [rec if isinstance(rec, RowError) else None for rec in decoded],
        )
    ids: list[str | None] = []
    first: list[RowError | None] = []
    add_id, add_first = ids.append, first.append
    for rec in decoded:
        if isinstance(rec, RowError):
            add_id(None)
            add_first(rec)
            continue
        value = rec.get(id_column)
        if value is None:
            add_id(None)
            add_first(
                RowError(
                    "missing_column",
                    f"the row has no {id_column!r} value (its id); "
                    f"columns: {', '.join(map(str, list(rec)[:8])) or 'none'}",
                )
            )
        else:
            add_id(value if type(value) is str else row_id(value))
            add_first(None)
    return decoded, raw, ids, first


def _columns(
    task: BatchTask,
    keep: Sequence[int],
    ids: list[str | None],
    first: list[RowError | None],
    todo: list[int],
    scored: list[tuple[Any, ...] | RowError],
) -> dict[str, list[Any]]:
    n_fields = len(task.fields)
    outcome: list[Any] = list(first)
    for i, result in zip(todo, scored, strict=True):
        outcome[i] = result
    if len(keep) != len(outcome):
        outcome = [outcome[i] for i in keep]
        ids = [ids[i] for i in keep]
    if all(type(result) is tuple for result in outcome):
        field_values = outcome
        errors: list[str | None] = [None] * len(outcome)
        kinds: list[str | None] = errors.copy()
    else:
        empty = (None,) * n_fields
        field_values = []
        errors, kinds = [], []
        for result in outcome:
            if isinstance(result, RowError):
                field_values.append(empty)
                errors.append(result.message)
                kinds.append(result.kind)
            else:
                field_values.append(result)
                errors.append(None)
                kinds.append(None)
    columns: dict[str, list[Any]] = {ID: ids}
    transposed = list(zip(*field_values, strict=True)) if field_values else [()] * n_fields
    for f, values in zip(task.fields, transposed, strict=True):
        columns[f.name] = list(values)
    columns[ERROR] = errors
    columns[ERROR_KIND] = kinds
    return columns
