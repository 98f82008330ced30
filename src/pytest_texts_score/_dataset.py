"""``pytest_texts_score.evaluate_dataset``: score every text pair of a dataset.

Each row holds an id, a reference text and a text under test. Each pair goes through the same
pipeline as the assertions (question sets, answers, precision / recall / F1) on the configured
judge; the batch layer (``scorekit.batch``) reads the rows, runs them, writes per-row results
and sums them up.

Concurrency: the local judge is CPU-bound, so the pairs run in one worker process per CPU. An
LLM judge is remote: one process keeps ``llm_max_concurrency`` calls in flight (two batches
overlap so a batch's slowest calls do not idle the rest). With several worker processes (or
Ray workers), each process gets ``llm_max_concurrency // workers`` calls (at least 1), so the
limit holds for the run as a whole. The reply cache (``llm_cache_dir``) is one SQLite database
that every process shares.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_texts_score._pipeline import aevaluate_texts, judge_of
from scorekit.batch import DatasetSummary, Field, RowError, refuse_in_starting_worker, run_dataset
from scorekit.judges import Backend, Judge, JudgeError, JudgeSettings, JudgeStats, run_sync
from scorekit.session import ScoreSession, current_session

__all__ = ["METRICS", "TextTask", "evaluate_dataset"]

METRICS = ("precision", "recall", "f1")
#: An answer below this counts as "not supported" in the per-row counts.
SUPPORTED = 0.5


@dataclass(frozen=True)
class TextTask:
    """Scores one row of two texts on the judge (the fields are the arguments of
    :func:`evaluate_dataset`; ``workers``: processes sharing the judge's concurrency limit)."""

    expected: str = "expected"
    given: str = "given"
    id_column: str | None = "id"
    metrics: tuple[str, ...] = ("f1",)
    question_runs: int = 1
    answer_runs: int = 1
    settings: JudgeSettings | None = None
    backend: Backend | None = None
    workers: int = 1
    batch_size: int = 32
    _state: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides the metrics need."""
        wanted = set(self.metrics)
        if "f1" in wanted or {"precision", "recall"} <= wanted:
            return ("precision", "recall")
        return ("precision",) if "precision" in wanted else ("recall",)

    @property
    def metric(self) -> str:
        """The pipeline's metric: ``f1`` for both sides, else the one side."""
        return "f1" if len(self.sides) == 2 else self.sides[0]

    @property
    def fields(self) -> tuple[Field, ...]:
        """Scores of the computed sides, then question counts per side."""
        scores = [m for m in METRICS if m in self.sides or (m == "f1" and len(self.sides) == 2)]
        out = [Field(m, score=True) for m in scores]
        if "precision" in self.sides:
            out += [
                Field("given_questions", "int"),
                Field("unsupported", "int", failure="statements of given not in expected"),
            ]
        if "recall" in self.sides:
            out += [
                Field("expected_questions", "int"),
                Field("missing", "int", failure="facts of expected missing from given"),
            ]
        return tuple(out)

    @property
    def main_score(self) -> str:
        """The first metric asked for."""
        return self.metrics[0]

    @property
    def columns(self) -> tuple[str, ...]:
        """The two text columns."""
        return (self.expected, self.given)

    #: The judge may run for long, on threads of its own: the collector keeps running.
    pause_gc = False

    @property
    def processes(self) -> bool:
        """True for the local judge (CPU-bound); an LLM judge waits on the network."""
        if self.backend is not None:
            return False
        assert self.settings is not None
        return self.settings.resolved_provider == "local"

    def __getstate__(self) -> dict[str, Any]:
        # The judge built in one process is not sent to another: each builds its own.
        state = dict(self.__dict__)
        state["_state"] = {}
        return state

    def for_workers(self, workers: int) -> TextTask:
        """The task for one of ``workers`` processes: the concurrency limit shared out."""
        if workers <= 1:
            return self
        assert self.settings is not None
        share = max(1, self.settings.max_concurrency // workers)
        return replace(
            self, settings=self.settings.replace(max_concurrency=share), workers=workers, _state={}
        )

    def prepare(self) -> None:
        """Build the judge once per process (the local judge loads its model here).

        Raises:
            JudgeConfigError: the judge cannot be built (the message says what to set).
        """
        if "judge" in self._state:
            return
        if self.workers <= 1 and self.settings is current_session().settings:
            session = current_session()
        else:
            assert self.settings is not None
            session = ScoreSession(self.settings, backend=self.backend)
        self._state["judge"] = judge_of(session)

    def _judge(self) -> Judge:
        # One Judge per batch, sharing the process's backend, cache and limit: its counters
        # are then exactly this batch's calls.
        base: Judge = self._state["judge"]
        return Judge(
            base.backend,
            max_concurrency=base.max_concurrency,
            cache=base.cache,
            cache_mode=base.cache_mode,
            stats=JudgeStats(),
            surface=base.surface,
        )

    def _texts(self, row: Mapping[str, Any]) -> tuple[str, str]:
        out = []
        for column in (self.expected, self.given):
            if column not in row or row[column] is None:
                raise RowError(
                    "missing_column",
                    f"the row has no {column!r} text; columns:"
                    f" {', '.join(map(str, row)) or 'none'}",
                )
            value = row[column]
            if not isinstance(value, str):
                raise RowError("bad_value", f"{column!r} must be text, got {type(value).__name__}")
            out.append(value)
        return out[0], out[1]

    async def _one(self, judge: Judge, row: Mapping[str, Any]) -> tuple[Any, ...] | RowError:
        try:
            expected, given = self._texts(row)
            outcome = await aevaluate_texts(
                expected,
                given,
                judge=judge,
                metric=self.metric,
                question_runs=self.question_runs,
                answer_runs=self.answer_runs,
            )
        except RowError as exc:
            return exc
        except JudgeError as exc:
            return RowError("judge_error", " ".join(str(exc).split()))
        except Exception as exc:  # one odd pair must not stop the run
            return RowError("internal", f"{type(exc).__name__}: {exc}")
        values: list[Any] = [getattr(outcome, f.name) for f in self.fields if f.score]
        first = [e for e in outcome.evidence if e.run == [0, 0]]
        for side in self.sides:
            answers = [e.answer for e in first if e.side == side]
            values += [len(answers), sum(1 for a in answers if a < SUPPORTED)]
        return tuple(values)

    def score_rows(
        self,
        rows: Sequence[Mapping[str, Any]],
        raw: Sequence[bytes | None],
        no_dollar: bool = False,
    ) -> tuple[list[tuple[Any, ...] | RowError], dict[str, float]]:
        """Score every pair of the batch at once (the judge's limit bounds the calls; the
        raw lines are not needed)."""
        self.prepare()
        judge = self._judge()

        async def run() -> list[tuple[Any, ...] | RowError]:
            return list(await asyncio.gather(*(self._one(judge, r) for r in rows)))

        results = run_sync(run()) if rows else []
        return results, dict(judge.stats.as_dict())


def evaluate_dataset(
    source: Any,
    *,
    expected: str = "expected",
    given: str = "given",
    id: str | None = "id",
    metrics: Sequence[str] = ("f1",),
    question_runs: int = 1,
    answer_runs: int = 1,
    engine: str = "local",
    workers: int | None = None,
    output: str | os.PathLike[str] | None = None,
    resume: bool = False,
    max_errors: int | None = None,
    batch_size: int | None = None,
    progress: bool | None = None,
) -> DatasetSummary:
    """Score every text pair of a dataset on the configured judge; write per-row results.

    The judge is the current session's (``configure(...)``, or the environment; the local
    offline judge by default).

    Args:
        source: JSON lines or Parquet (a path, a folder, an object-store URI), a list of paths,
            rows (an iterable of dicts), a ``pyarrow.Table``, or with ``engine="ray"`` a
            ``ray.data.Dataset``.
        expected: the column holding the reference text.
        given: the column holding the text under test.
        id: the column holding each row's id (written as text); None numbers rows by position.
        metrics: any of ``precision``, ``recall``, ``f1``; the first is the main score.
        question_runs: question sets written per side (scores are the mean over the runs, as
            for ``texts_agg_*_mean``).
        answer_runs: times each question set is answered.
        engine: ``"local"`` or ``"ray"`` (``pip install 'llm-scorekit[ray]'``).
        workers: worker processes (or Ray workers); default: every CPU for the local judge,
            1 for an LLM judge. The judge's ``max_concurrency`` is shared out among them.
        output: per-row results, ``.parquet`` or ``.jsonl``; None writes none.
        resume: skip the ids ``output`` already holds.
        max_errors: stop once more than this many rows could not be scored.
        batch_size: pairs per batch (default 32).
        progress: None: a bar on a terminal, a line every 10 s elsewhere; False: silent.

    Returns:
        A :class:`~scorekit.batch.DatasetSummary` with the judge's calls and estimated cost.

    Raises:
        ValueError: unknown metrics, bad run counts, or a source/output/column that cannot be
            used (``scorekit.batch.DatasetError``, also raised for ``workers > 1`` from a
            script that calls this at module level without ``if __name__ == "__main__":``).
        scorekit.judges.JudgeConfigError: the judge cannot be built.
        scorekit.batch.JudgeOutageError: the judge failed on many rows in a row (resumable).

    Example:
        >>> import pytest_texts_score as pts
        >>> rows = [{"id": 1, "expected": "The sky is blue.", "given": "The sky is blue."}]
        >>> pts.evaluate_dataset(rows, workers=1, progress=False).mean  # doctest: +SKIP
        1.0
    """
    refuse_in_starting_worker(workers)  # a module-level call without the __main__ guard
    metrics = (metrics,) if isinstance(metrics, str) else tuple(metrics)
    unknown = [m for m in metrics if m not in METRICS]
    if not metrics or unknown:
        raise ValueError(
            f"metrics must be one or more of {', '.join(METRICS)}; got {list(metrics)!r}"
        )
    for name, value in (("question_runs", question_runs), ("answer_runs", answer_runs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    for name, column in (("expected", expected), ("given", given), ("id", id)):
        if column is not None and (not isinstance(column, str) or not column):
            raise ValueError(f"{name} must name a column (a non-empty string); got {column!r}")
    session = current_session()
    task = TextTask(
        expected=expected,
        given=given,
        id_column=id,
        metrics=metrics,
        question_runs=question_runs,
        answer_runs=answer_runs,
        settings=session.settings,
        backend=session.backend_override,
        batch_size=batch_size or 32,
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
        judge_info={"judge": session.judge_name, "model": session.settings.model},
    )
