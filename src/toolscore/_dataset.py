"""``toolscore.evaluate_dataset``: score every row of a dataset of expected and actual calls.

Each row holds an id, the expected calls (the gold; argument matchers in their JSON encoding,
as in gold files) and what the agent did (a call list or any provider response
:func:`toolscore.auto_extract` reads). The gold may instead come from a separate file keyed by
id. Scoring is :func:`toolscore.evaluate` per row; the batch layer (``scorekit.batch``) reads,
runs the rows on every core or on Ray, writes per-row results and sums them up.
"""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import attrgetter
from typing import Any

from scorekit.batch import (
    DatasetSummary,
    Field,
    RowError,
    refuse_in_starting_worker,
    row_id,
    run_dataset,
)
from scorekit.report import TOOL_METRIC_NAMES
from toolscore._dataset_gold import load_gold_index
from toolscore._engine.read.gold_files import GoldFormatError, decode_value
from toolscore._engine.score.evaluate import evaluation
from toolscore._engine.score.flat_metrics import Evaluation, weighted_score
from toolscore._engine.score.weights import resolve_weights
from toolscore.core import evaluate
from toolscore.verdict import letter_grade

__all__ = ["TOOL_FIELDS", "ToolTask", "evaluate_dataset"]

#: The per-row result columns (after ``id`` and ``row``; ``error`` and ``error_kind`` follow).
TOOL_FIELDS: tuple[Field, ...] = (
    Field("score", score=True),
    Field("grade", "str", category=True),
    *(Field(name, score=True) for name in TOOL_METRIC_NAMES if name != "score"),
    Field("expected_calls", "int"),
    Field("actual_calls", "int"),
    Field("missing_calls", "int", failure="missing calls"),
    Field("extra_calls", "int", failure="extra calls"),
    Field("argument_mismatches", "int", failure="argument mismatches"),
    Field("wrong_order", "int", failure="calls out of order"),
    Field("missing_tools", "list[str]", failure="most often missing"),
    Field("extra_tools", "list[str]", failure="most often extra"),
    Field("warning", "str"),
)
_metrics = attrgetter(*(name for name in TOOL_METRIC_NAMES if name != "score"))


def _json_value(value: Any, column: str, kind: str) -> Any:
    """A column may hold JSON text instead of JSON values (Parquet string columns)."""
    if isinstance(value, (str, bytes)):
        try:
            return json.loads(value)
        except ValueError as exc:
            raise RowError(kind, f"{column!r} holds text that is not JSON ({exc})") from None
    return value


def _with_matchers(calls: Any, where: str) -> Any:
    """Decode JSON-encoded matchers (``{"$regex": ...}``) inside each call's arguments."""
    if not isinstance(calls, list):
        return calls
    return [
        {**call, "args": decode_value(call["args"], f"{where}[{i}].args")}
        if isinstance(call, dict) and isinstance(call.get("args"), dict)
        else call
        for i, call in enumerate(calls)
    ]


@lru_cache(maxsize=4096)
def _gold_from_text(text: str, where: str) -> Any:
    return _with_matchers(json.loads(text), where)


@dataclass(frozen=True)
class ToolTask:
    """Scores one row of expected and actual tool calls (see :func:`evaluate_dataset`).

    Attributes:
        gold: the column holding the expected calls.
        trace: the column holding what the agent did.
        id_column: the column holding the row id, or None to number rows by position.
        weights: score weights, as for :func:`toolscore.evaluate`.
        strict: exact types and values.
        gold_key: with ``gold_index``, the column whose value finds a row's gold.
        gold_index: gold key -> the expected calls as JSON text (from a gold file).
    """

    gold: str = "expected"
    trace: str = "actual"
    id_column: str | None = "id"
    weights: Mapping[str, float] | None = None
    strict: bool = False
    gold_key: str | None = None
    gold_index: Mapping[str, str] | None = None
    # Each batch costs the driver its own unpickling, Arrow conversion and summary pass, so
    # small rows go in large batches (benchmarks/bench_dataset.py measures the choice).
    batch_size: int = 2048

    fields = TOOL_FIELDS
    main_score = "score"
    processes = True
    pause_gc = True  # pure computation: the collector is paused for a whole batch
    fork_safe = True  # pure computation on this thread: workers may be forked (Linux)

    @property
    def columns(self) -> tuple[str, ...]:
        """The source columns each row needs."""
        if self.gold_index is not None:
            key = self.gold_key or self.id_column
            return (self.trace,) if key in (None, self.id_column) else (self.trace, key)
        return (self.gold, self.trace)

    @cached_property
    def _resolved_weights(self) -> Mapping[str, float]:
        # Worked out once per task, not for every 32 rows scored.
        return resolve_weights(self.weights)

    @cached_property
    def _graded(self) -> dict[tuple[float, ...], tuple[float, str]]:
        # Component values -> (score, grade) under this task's weights (see _fields).
        return {}

    def prepare(self) -> None:
        """Nothing to load: scoring is pure computation."""

    def for_workers(self, workers: int) -> ToolTask:
        """The same task in every worker."""
        return self

    def _expected(self, row: Mapping[str, Any], raw: bytes | None) -> Any:
        if self.gold_index is not None:
            key_column = self.gold_key or self.id_column
            assert key_column is not None
            key = row_id(row.get(key_column))
            if key is None:
                raise RowError("missing_column", f"the row has no {key_column!r} value")
            text = self.gold_index.get(key)
            if text is None:
                raise RowError("missing_gold", f"the gold file has no entry for {key!r}")
            return _gold_from_text(text, f"gold[{key!r}]")
        if self.gold not in row:
            raise RowError("missing_column", _missing(self.gold, row))
        value = row[self.gold]
        if isinstance(value, (str, bytes)):
            value = _json_value(value, self.gold, "bad_gold")
            has_matcher = True
        else:
            has_matcher = raw is None or b'"$' in raw
        return _with_matchers(value, self.gold) if has_matcher else value

    def _actual(self, row: Mapping[str, Any]) -> Any:
        if self.trace not in row:
            raise RowError("missing_column", _missing(self.trace, row))
        return _json_value(row[self.trace], self.trace, "bad_trace")

    def score_rows(
        self,
        rows: Sequence[Mapping[str, Any]],
        raw: Sequence[bytes | None],
        no_dollar: bool = False,
    ) -> tuple[list[tuple[Any, ...] | RowError], dict[str, float]]:
        """Score each row as :func:`toolscore.evaluate` does; only the flat numbers are read
        (the engine's :func:`~toolscore._engine.score.evaluate.evaluation`, no result object)."""
        out: list[tuple[Any, ...] | RowError] = []
        weights, graded, strict = self._resolved_weights, self._graded, self.strict
        gold, trace, gold_in_row = self.gold, self.trace, self.gold_index is None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for row, line in zip(rows, raw, strict=True):
                seen = len(caught)
                expected: Any = None
                try:
                    # The common row first: a gold call list with no matcher in its line, a
                    # trace of JSON values (what _expected and _actual give it, a third of the
                    # row's overhead sooner).
                    expected = row.get(gold) if gold_in_row else None
                    plain = type(expected) is list and (
                        no_dollar or (line is not None and b'"$' not in line)
                    )
                    if not plain:
                        expected = None  # while it is read: _blame tells gold from trace by it
                        expected = self._expected(row, line)
                    actual = row.get(trace, _ABSENT)
                    if actual is _ABSENT or isinstance(actual, (str, bytes)):
                        actual = self._actual(row)
                    ev = evaluation(expected, actual, strict, plain_gold=plain)
                except RowError as exc:
                    out.append(exc)
                except GoldFormatError as exc:
                    out.append(RowError("bad_gold", str(exc)))
                except (TypeError, ValueError) as exc:
                    out.append(_blame(expected, exc))
                except Exception as exc:  # a bug of ours must not stop a million-row run
                    out.append(RowError("internal", f"{type(exc).__name__}: {exc}"))
                else:
                    note = None
                    if len(caught) > seen:
                        note = "; ".join(" ".join(str(w.message).split()) for w in caught[seen:])
                    out.append(_fields(ev, weights, graded, note))
        return out, ({"warnings": float(len(caught))} if caught else {})


def _missing(column: str, row: Mapping[str, Any]) -> str:
    return f"the row has no {column!r} column; columns: {', '.join(map(str, row)) or 'none'}"


def _blame(expected: Any, exc: Exception) -> RowError:
    """A malformed row: say whether the gold or the trace is at fault."""
    message = " ".join(str(exc).split())
    if expected is None:
        return RowError("bad_gold", message)
    try:
        evaluate(expected, [])
    except (TypeError, ValueError):
        return RowError("bad_gold", message)
    return RowError("bad_trace", message)


_ABSENT = object()


#: Graded scores kept for each set of weights: a data set's rows take few distinct component
#: values, and a lookup costs a fraction of summing and grading again.
_GRADED_LIMIT = 4096


def _fields(
    ev: Evaluation,
    weights: Mapping[str, float],
    graded: dict[tuple[float, ...], tuple[float, str]],
    note: str | None,
) -> tuple[Any, ...]:
    """The row's ``TOOL_FIELDS``: what ``evaluate()``'s result would show, read directly.

    ``weights`` are resolved once per task; ``graded`` holds the score and letter grade of
    component values already seen with them (a NaN is never found there: it is scored, and
    fails, as before).
    """
    alignment = ev.alignment
    missing, extra = alignment.missing, alignment.extra
    rcr = ev.required_call_recall
    values = (
        ev.tool_f1,
        ev.argument_f1,
        ev.sequence_accuracy,
        1.0 - ev.redundant_rate,
        1.0 if rcr is None else rcr,
    )
    known = graded.get(values)
    if known is None:
        score = weighted_score(
            weights, ev.tool_f1, ev.argument_f1, ev.sequence_accuracy, ev.redundant_rate, rcr
        )
        known = (score, letter_grade(score))
        if len(graded) < _GRADED_LIMIT:
            graded[values] = known
    if not missing and alignment.agree == alignment.expected_units == alignment.actual_units:
        # A pair never agrees on more units than either side has: equal sums over the pairs
        # (no missing call adds expected units) mean every pair agrees on all of its units.
        mismatches = 0
    else:
        mismatches = len(alignment.pairs)
        for c in alignment.counts:
            if c.agree == c.expected == c.actual:
                mismatches -= 1
    tools, calls = ev.gold.tools, ev.trace.tools
    return (
        known
        + _metrics(ev)
        + (
            len(tools),
            len(calls),
            len(missing),
            len(extra),
            mismatches,
            int(not missing and not extra and ev.sequence_accuracy < 1.0),
            [tools[i] for i in missing] if missing else [],
            [calls[j] for j in extra] if extra else [],
            note,
        )
    )


def evaluate_dataset(
    source: Any,
    *,
    gold: str = "expected",
    trace: str = "actual",
    id: str | None = "id",
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    engine: str = "local",
    workers: int | None = None,
    output: str | os.PathLike[str] | None = None,
    resume: bool = False,
    max_errors: int | None = None,
    gold_file: str | os.PathLike[str] | None = None,
    gold_key: str | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
) -> DatasetSummary:
    """Score every row of a dataset of tool-call traces; write per-row results; summarise.

    Args:
        source: JSON lines or Parquet (a path, a folder of them, an object-store URI such as
            ``s3://bucket/traces/``), a list of paths, rows (an iterable of dicts), a
            ``pyarrow.Table``, or with ``engine="ray"`` a ``ray.data.Dataset``.
        gold: the column holding the expected calls (``[{"tool", "args"}]``; argument matchers
            in their JSON encoding, e.g. ``{"$regex": "NYC|JFK"}``; JSON text is accepted).
        trace: the column holding what the agent did: a call list or any provider response
            :func:`toolscore.auto_extract` reads (or its JSON text).
        id: the column holding each row's id (written as text); None numbers rows by position.
        weights: custom score weights, as for :func:`toolscore.evaluate`.
        strict: exact types and values, as for :func:`toolscore.evaluate`.
        engine: ``"local"`` (worker processes on this machine) or ``"ray"`` (Ray Data; needs
            ``pip install 'llm-scorekit[ray]'``).
        workers: worker processes or Ray actors (default: every CPU).
        output: per-row results, ``.parquet`` (needs ``llm-scorekit[parquet]``) or ``.jsonl``;
            None writes none.
        resume: skip the ids ``output`` already holds (also after a kill mid-write).
        max_errors: stop once more than this many rows could not be scored.
        gold_file: take the expected calls from this file instead of a column: JSON lines or
            Parquet rows with ``gold_key`` and ``gold`` columns, or a JSON object
            ``{key: calls}``.
        gold_key: the column joining rows to ``gold_file`` (default: ``id``).
        batch_size: rows per batch (default 2048).
        progress: None: a bar on a terminal, a line every 10 s elsewhere; False: silent.

    Returns:
        A :class:`~scorekit.batch.DatasetSummary`: counts, the mean and quantiles of every
        score, grades, failures by kind, errors by kind with examples, the lowest rows.

    Raises:
        ValueError: bad weights, or (``scorekit.batch.DatasetError``, a ``ValueError``) a
            source, output or column that cannot be used (a bad row is an error row instead),
            or ``workers > 1`` from a script that calls this at module level without
            ``if __name__ == "__main__":`` (worker processes import the script again).

    Example:
        >>> import toolscore
        >>> rows = [
        ...     {"id": "a", "expected": [{"tool": "search", "args": {"q": "x"}}],
        ...      "actual": [{"tool": "search", "args": {"q": "x"}}]},
        ...     {"id": "b", "expected": [{"tool": "search", "args": {"q": "x"}}],
        ...      "actual": []},
        ... ]
        >>> summary = toolscore.evaluate_dataset(rows, workers=1, progress=False)
        >>> summary.scored, summary.mean
        (2, 0.55)
    """
    refuse_in_starting_worker(workers)  # a module-level call without the __main__ guard
    evaluate([], [], weights=weights, strict=strict)  # bad weights or strict fail here, once
    for name, value in (("gold", gold), ("trace", trace), ("id", id), ("gold_key", gold_key)):
        if value is not None and (not isinstance(value, str) or not value):
            raise ValueError(f"{name} must name a column (a non-empty string); got {value!r}")
    index = None
    if gold_file is not None:
        key = gold_key or id
        if key is None:
            raise ValueError("gold_file needs gold_key (or id): the column that finds a row's gold")
        index = load_gold_index(gold_file, key, gold)
    task = ToolTask(
        gold=gold,
        trace=trace,
        id_column=id,
        weights=dict(weights) if weights is not None else None,
        strict=strict,
        gold_key=gold_key,
        gold_index=index,
        batch_size=ToolTask.batch_size if batch_size is None else batch_size,
    )
    return run_dataset(
        source,
        task,
        engine=engine,
        workers=workers,
        output=output,
        resume=resume,
        max_errors=max_errors,
        batch_size=batch_size,
        progress=progress,
    )
