"""The summary of a dataset run: counts, every score's distribution, grades, failures by kind,
errors by kind with examples, the lowest-scoring rows and the judge's work.

Built batch by batch in the driver from the result columns, in memory that does not grow with
the rows. The summary of a run that was killed and resumed is the summary of the whole output,
the same as that of one uninterrupted run (the timing and judge counters aside).
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from scorekit.batch._distribution import ScoreDistribution
from scorekit.batch._task import ERROR, ERROR_KIND, ID, ROW, Field

__all__ = ["SUMMARY_SCHEMA", "DatasetSummary", "Summarizer"]

SUMMARY_SCHEMA = "llm-scorekit-dataset/1"
_LOWEST = 20
_EXAMPLES = 3
_TOP = 10
_TOP_LIMIT = 10_000  # distinct values tracked per list field; the rest count as "(other)"


@dataclass
class DatasetSummary:
    """What a dataset run found, returned by ``evaluate_dataset`` and printed by the CLIs.

    Attributes:
        source: the input, as given.
        output: the per-row results file, or None.
        engine: ``local`` or ``ray``.
        workers: worker processes (``local``) or Ray workers.
        rows: result rows in the output (scored plus errors; a resumed run counts the earlier
            run's rows too).
        scored: rows with scores.
        errors: rows that could not be scored.
        resumed: rows an earlier run had written (skipped this time).
        seconds: wall time of this run.
        new_rows: rows this run scored or failed.
        main_score: the field ``mean`` refers to (``score`` for tool calls, the first metric for
            texts).
        scores: per score field: count, mean, std, min, p10, p25, p50, p75, p90, max,
            histogram (20 bins over [0, 1]) and whether the quantiles are exact.
        categories: per categorical field (``grade``): value -> rows.
        failures: per failure kind (``missing calls``): rows with it.
        top: per list field label (``most often missing``): ``[value, rows]`` pairs.
        error_kinds: error kind -> rows.
        error_examples: the first rows of each error kind: ``{"row", "id", "kind", "error"}``.
        lowest: the rows with the lowest main score: ``{"row", "id", "score"}``.
        judge: judge calls, cache hits, retries, tokens and estimated cost, or None.
        stopped: why the run stopped before the end, or None.
    """

    source: str
    output: str | None
    engine: str
    workers: int
    rows: int
    scored: int
    errors: int
    resumed: int
    seconds: float
    new_rows: int
    main_score: str
    scores: dict[str, dict[str, Any]] = field(default_factory=dict)
    categories: dict[str, dict[str, int]] = field(default_factory=dict)
    failures: dict[str, int] = field(default_factory=dict)
    top: dict[str, list[list[Any]]] = field(default_factory=dict)
    error_kinds: dict[str, int] = field(default_factory=dict)
    error_examples: list[dict[str, Any]] = field(default_factory=list)
    lowest: list[dict[str, Any]] = field(default_factory=list)
    judge: dict[str, Any] | None = None
    stopped: str | None = None

    @property
    def mean(self) -> float | None:
        """The mean of the main score over the scored rows (None when none was scored)."""
        stats = self.scores.get(self.main_score)
        value = stats.get("mean") if stats else None
        return float(value) if value is not None else None

    @property
    def rows_per_second(self) -> float:
        """Rows this run scored or failed, per second of wall time."""
        return self.new_rows / self.seconds if self.seconds > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable data (schema ``llm-scorekit-dataset/1``)."""
        return {
            "schema": SUMMARY_SCHEMA,
            "source": self.source,
            "output": self.output,
            "engine": self.engine,
            "workers": self.workers,
            "rows": self.rows,
            "scored": self.scored,
            "errors": self.errors,
            "resumed": self.resumed,
            "new_rows": self.new_rows,
            "seconds": round(self.seconds, 3),
            "rows_per_second": round(self.rows_per_second, 1),
            "main_score": self.main_score,
            "mean": self.mean,
            "scores": self.scores,
            "categories": self.categories,
            "failures": self.failures,
            "top": self.top,
            "error_kinds": self.error_kinds,
            "error_examples": self.error_examples,
            "lowest": self.lowest,
            "judge": self.judge,
            "stopped": self.stopped,
        }

    def render(self, width: int | None = None) -> str:
        """The summary as plain text for a terminal of ``width`` columns, or (None) a CI log."""
        from scorekit.report import render_dataset_text

        return render_dataset_text(self.to_dict(), width)

    def __str__(self) -> str:
        return self.render()


def _most_common(counter: Counter[str], n: int | None = None) -> list[tuple[str, int]]:
    # Ties by name, so the order does not depend on which row came first.
    items = sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))
    return items if n is None else items[:n]


def _floats(values: Sequence[Any]) -> np.ndarray[Any, np.dtype[np.float64]]:
    return np.asarray(values, dtype=np.float64)  # None reads as NaN


class Summarizer:
    """Folds result batches into a :class:`DatasetSummary` (``main_score``: the field the lowest
    rows and ``mean`` refer to)."""

    def __init__(self, fields: Sequence[Field], main_score: str) -> None:
        self.fields = list(fields)
        self.main_score = main_score
        self.rows = 0
        self.errors = 0
        self.resumed = 0
        self.resumed_errors = 0
        self.distributions = {f.name: ScoreDistribution() for f in fields if f.score}
        self.categories: dict[str, Counter[str]] = {f.name: Counter() for f in fields if f.category}
        self.failures: Counter[str] = Counter()
        self.top: dict[str, Counter[str]] = {
            f.failure: Counter() for f in fields if f.kind == "list[str]" and f.failure
        }
        self.error_kinds: Counter[str] = Counter()
        self._examples: dict[str, list[tuple[int, str | None, str]]] = {}
        self._lowest: list[tuple[float, int, str | None]] = []  # max-heap by (-score, -row)
        self.stats: Counter[str] = Counter()

    def add(self, columns: dict[str, Any], *, resumed: bool = False) -> None:  # noqa: C901 (one pass over a batch's columns, kept in one loop for speed)
        """Fold one batch of result columns (``row`` filled in; numbers may be numpy arrays)."""
        n = len(columns[ID])
        if not n:
            return
        self.rows += n
        if resumed:
            self.resumed += n
        kinds = columns[ERROR_KIND]
        rows = columns[ROW]
        ids = columns[ID]
        if kinds.count(None) != n:
            for i, kind in enumerate(kinds):
                if kind is not None:
                    self.errors += 1
                    self.resumed_errors += resumed
                    self.error_kinds[kind] += 1
                    self._example(kind, rows[i], ids[i], columns[ERROR][i])
        main = None
        for f in self.fields:
            values = columns[f.name]
            if f.score:
                scores = _floats(values)
                self.distributions[f.name].add(scores)
                if f.name == self.main_score:
                    main = scores
            if f.category:
                self.categories[f.name].update(
                    values if None not in values else [v for v in values if v is not None]
                )
            if f.failure and f.kind == "int":
                if isinstance(values, np.ndarray):
                    hits = int(np.count_nonzero(values))
                else:
                    hits = n - values.count(0) - values.count(None)  # ints: the rows above 0
                if hits:
                    self.failures[f.failure] += hits
            elif f.failure and f.kind == "list[str]":
                counter = self.top[f.failure]
                for items in values:
                    if not items:
                        continue
                    for item in set(items):
                        if item in counter or len(counter) < _TOP_LIMIT:
                            counter[item] += 1
                        else:
                            counter["(other)"] += 1
        if main is None:
            main = _floats(columns[self.main_score])
        self._keep_lowest(columns[self.main_score], main, rows, ids)

    def _example(self, kind: str, row: int, key: str | None, message: str) -> None:
        examples = self._examples.setdefault(kind, [])
        examples.append((row, key, message))
        if len(examples) > _EXAMPLES:
            examples.sort(key=lambda e: e[0])
            del examples[_EXAMPLES:]

    def _keep_lowest(
        self,
        scores: list[Any],
        values: np.ndarray[Any, np.dtype[np.float64]],
        rows: list[int],
        ids: list[Any],
    ) -> None:
        heap = self._lowest
        candidates: Any = range(len(scores))
        if len(heap) >= _LOWEST:
            # A full heap takes only scores up to its highest one (NaN and None never).
            candidates = np.flatnonzero(values <= -heap[0][0]).tolist()
        for i in candidates:
            score, row, key = scores[i], rows[i], ids[i]
            if score is None:
                continue
            item = (-float(score), -row, key)
            if len(heap) < _LOWEST:
                heapq.heappush(heap, item)
            elif item > heap[0]:
                heapq.heapreplace(heap, item)

    def finish(
        self,
        *,
        source: str,
        output: str | None,
        engine: str,
        workers: int,
        seconds: float,
        judge: dict[str, Any] | None = None,
        stopped: str | None = None,
    ) -> DatasetSummary:
        """The summary of everything folded so far."""
        examples = [
            {"row": row, "id": key, "kind": kind, "error": message}
            for kind in sorted(self._examples)
            for row, key, message in sorted(self._examples[kind], key=lambda e: e[0])
        ]
        lowest = sorted(((-s, -r, k) for s, r, k in self._lowest), key=lambda t: (t[0], t[1]))
        top = {
            label: [list(item) for item in _most_common(counter, _TOP)]
            for label, counter in self.top.items()
            if counter
        }
        return DatasetSummary(
            source=source,
            output=output,
            engine=engine,
            workers=workers,
            rows=self.rows,
            scored=self.rows - self.errors,
            errors=self.errors,
            resumed=self.resumed,
            seconds=seconds,
            new_rows=self.rows - self.resumed,
            main_score=self.main_score,
            scores={name: d.to_dict() for name, d in self.distributions.items()},
            categories={
                name: dict(sorted(counter.items())) for name, counter in self.categories.items()
            },
            failures=dict(_most_common(self.failures)),
            top=top,
            error_kinds=dict(_most_common(self.error_kinds)),
            error_examples=examples,
            lowest=[{"row": r, "id": k, "score": s} for s, r, k in lowest],
            judge=judge,
            stopped=stopped,
        )
