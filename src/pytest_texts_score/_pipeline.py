"""The one path from two texts to scores: plan every judge call, run them together, score.

Directions (as in the reference document):

* **precision** (alias *completeness*): questions written from ``given``, answered from
  ``expected``: how much of what ``given`` says is backed by ``expected``.
* **recall** (alias *correctness*): questions written from ``expected``, answered from
  ``given``: how much of ``expected`` ``given`` covers.

For ``question_runs`` x ``answer_runs`` runs, each side writes ``question_runs`` question sets,
and each set is answered ``answer_runs`` times. Every question set of every side is requested at
once; each set's answer calls start as soon as its questions arrive, all of them together. So an
assertion costs two judge round trips however many runs it has (the process-wide limit
``llm_max_concurrency`` permitting). F1 is computed per (question run, answer run) pair from that
pair's precision and recall.

Every public function of the package (``score_one_side``, ``texts_multiple_*``,
``communication.*``, ``texts_evaluate_*`` and the assertions) goes through this module.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field
from typing import Literal, TypeVar

from scorekit._session import ScoreSession, current_session
from scorekit.judges import Judge, JudgeConfigError, reasons_of, run_sync
from scorekit.report import Evidence, RunScore

__all__ = [
    "Metric",
    "TextsOutcome",
    "aevaluate_texts",
    "answer_question_set",
    "evaluate_texts",
    "f1_score",
    "judge_of",
    "make_question_set",
]

Metric = Literal["precision", "recall", "f1"]
_METRICS = ("precision", "recall", "f1")

T = TypeVar("T")


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall; 0.0 when both are 0 (never a division by zero).

    Raises:
        ValueError: a value is NaN, infinite or outside ``[0, 1]``.

    Example:
        >>> f1_score(1.0, 0.5)
        0.6666666666666666
    """
    for name, value in (("precision", precision), ("recall", recall)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"f1_score: `{name}` must be a number in [0, 1]; {value!r} given.")
        if not (math.isfinite(value) and 0.0 <= value <= 1.0):
            raise ValueError(f"f1_score: `{name}` must be a number in [0, 1]; {value!r} given.")
    total = precision + recall
    if total == 0:
        return 0.0
    return float(2 * precision * recall / total)


@dataclass
class TextsOutcome:
    """The result of scoring two texts: scores, every run, every question with its answer.

    Attributes:
        metric: the metric asked for (``precision``, ``recall`` or ``f1``).
        precision: mean precision over the runs, or None when only recall was asked for.
        recall: mean recall over the runs, or None when only precision was asked for.
        f1: mean of the per-run F1 scores, or None unless ``metric == "f1"``.
        runs: one :class:`~scorekit.report.RunScore` per (question run, answer run) pair, in
            that order (question run outer).
        evidence: every question with its answer, per side and run.
        judge: the judge's short name (``local``, ``openai``, ``azure``, a class name).
        question_runs: question sets written per side.
        answer_runs: times each question set was answered.
    """

    metric: str
    precision: float | None
    recall: float | None
    f1: float | None
    runs: list[RunScore] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    judge: str = ""
    question_runs: int = 1
    answer_runs: int = 1

    @property
    def score(self) -> float:
        """The mean score of the metric asked for."""
        value = getattr(self, self.metric)
        assert value is not None  # the metric asked for is always computed
        return float(value)

    def scores(self, metric: str | None = None) -> list[float]:
        """Every run's score of ``metric`` (default: the metric asked for), run order kept."""
        name = metric or self.metric
        out: list[float] = []
        for run in self.runs:
            value = getattr(run, name)
            if value is None:
                raise ValueError(f"{name} was not computed for this outcome (metric={self.metric})")
            out.append(float(value))
        return out


def judge_of(session: ScoreSession | None = None) -> Judge:
    """The judge of ``session`` (default: the current session), built on first use.

    Raises:
        JudgeConfigError: the judge cannot be built (unknown provider, missing setting, the
            local judge's model or runtime missing).
    """
    session = session or current_session()
    try:
        return session.judge()
    except ImportError as exc:
        raise JudgeConfigError(
            f"the {session.judge_name} judge cannot be loaded: {exc}. Configure another judge"
            " (--llm-provider, or pytest_texts_score.configure(...))."
        ) from exc


async def _all(aws: Sequence[Awaitable[T]]) -> list[T]:
    """``asyncio.gather`` that cancels the siblings when one call fails.

    A failed run then stops spending judge calls, and nothing of it is scored.
    """
    tasks = [asyncio.ensure_future(a) for a in aws]
    try:
        return list(await asyncio.gather(*tasks))
    except BaseException:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        raise


@dataclass
class _SideRun:
    """One question set of one side and its answer runs."""

    side: str
    question_run: int
    scores: list[float]
    evidence: list[Evidence]


def _blank(text: str) -> bool:
    return not text.strip()


async def _side(
    judge: Judge,
    side: str,
    base_text: str,
    answer_text: str,
    question_run: int,
    answer_runs: int,
    retry: bool,
) -> _SideRun:
    if _blank(base_text):
        # Nothing is claimed, so nothing can be missing or unsupported: vacuously 1.0, no call.
        return _SideRun(side, question_run, [1.0] * answer_runs, [])
    questions = await judge.questions(base_text, run=question_run, retry=retry)
    if _blank(answer_text):
        # An empty text supports no question; asking a judge would only add noise and cost.
        answer_sets = [[0.0] * len(questions) for _ in range(answer_runs)]
    else:
        answer_sets = await _all(
            [
                judge.answers(answer_text, questions, run=(question_run, a), retry=retry)
                for a in range(answer_runs)
            ]
        )
    scores: list[float] = []
    evidence: list[Evidence] = []
    for a, answers in enumerate(answer_sets):
        scores.append(sum(answers) / len(answers) if answers else 1.0)
        evidence.extend(
            Evidence(side=side, question=q, answer=float(x), run=[question_run, a], reason=why)
            for q, x, why in zip(questions, answers, reasons_of(answers), strict=True)
        )
    return _SideRun(side, question_run, scores, evidence)


def _sides(metric: str) -> tuple[str, ...]:
    if metric == "precision":
        return ("precision",)
    if metric == "recall":
        return ("recall",)
    return ("precision", "recall")


def _check_plan(metric: str, question_runs: int, answer_runs: int) -> None:
    if metric not in _METRICS:
        raise ValueError(f"metric must be one of {', '.join(_METRICS)}; {metric!r} given.")
    for name, value in (("question_runs", question_runs), ("answer_runs", answer_runs)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive integer; {value!r} given.")


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


async def aevaluate_texts(
    expected: str,
    given: str,
    *,
    judge: Judge,
    metric: Metric | str = "f1",
    question_runs: int = 1,
    answer_runs: int = 1,
    retry_on_error: bool = True,
) -> TextsOutcome:
    """Coroutine form of :func:`evaluate_texts` for a judge already built.

    Run it on the judge loop (``scorekit.judges.run_sync``), e.g. to score many pairs at once:
    ``run_sync(asyncio.gather(*(aevaluate_texts(e, g, judge=j) for e, g in pairs)))``.
    """
    metric = str(metric)
    _check_plan(metric, question_runs, answer_runs)
    retry = bool(retry_on_error)
    plan = []
    for side in _sides(metric):
        base, answer = (given, expected) if side == "precision" else (expected, given)
        for q in range(question_runs):
            plan.append(_side(judge, side, base, answer, q, answer_runs, retry))
    side_runs = await _all(plan)

    by_side: dict[str, dict[int, _SideRun]] = {}
    evidence: list[Evidence] = []
    for sr in side_runs:
        by_side.setdefault(sr.side, {})[sr.question_run] = sr
        evidence.extend(sr.evidence)

    runs: list[RunScore] = []
    for q in range(question_runs):
        for a in range(answer_runs):
            p = by_side["precision"][q].scores[a] if "precision" in by_side else None
            r = by_side["recall"][q].scores[a] if "recall" in by_side else None
            f = f1_score(p, r) if (p is not None and r is not None) else None
            runs.append(RunScore(question_run=q, answer_run=a, precision=p, recall=r, f1=f))

    def mean_of(name: str) -> float | None:
        values = [getattr(run, name) for run in runs]
        return _mean(values) if values and all(v is not None for v in values) else None

    return TextsOutcome(
        metric=metric,
        precision=mean_of("precision"),
        recall=mean_of("recall"),
        f1=mean_of("f1"),
        runs=runs,
        evidence=evidence,
        judge=judge.name,
        question_runs=question_runs,
        answer_runs=answer_runs,
    )


def evaluate_texts(
    expected: str,
    given: str,
    *,
    metric: Metric | str = "f1",
    question_runs: int = 1,
    answer_runs: int = 1,
    retry_on_error: bool = True,
    session: ScoreSession | None = None,
) -> TextsOutcome:
    """Score ``given`` against ``expected`` with the session's judge.

    Args:
        expected: the reference text.
        given: the text under test.
        metric: ``"precision"`` or ``"recall"`` (one side only) or ``"f1"`` (both).
        question_runs: question sets written per side.
        answer_runs: times each question set is answered.
        retry_on_error: retry transient judge failures (up to ``MAXIMAL_RETRY_ON_ERROR``).
        session: the scoring session (default: the current one).

    Returns:
        The scores, every run and every question with its answer.

    Raises:
        scorekit.judges.JudgeError: the judge could not be built or could not give a valid
            reply (after the retries); no partial scores are returned.

    Example:
        >>> from scorekit._session import ScoreSession
        >>> from scorekit.judges import resolve_settings
        >>> class Yes:
        ...     def make_questions(self, text): return ["Is it so?"]
        ...     def answer_questions(self, text, qs): return [1.0] * len(qs)
        >>> s = ScoreSession(resolve_settings(env={}), backend=Yes())
        >>> evaluate_texts("It is so.", "It is so.", session=s).f1
        1.0
    """
    judge = judge_of(session)
    return run_sync(
        aevaluate_texts(
            expected,
            given,
            judge=judge,
            metric=metric,
            question_runs=question_runs,
            answer_runs=answer_runs,
            retry_on_error=retry_on_error,
        )
    )


def make_question_set(
    base_text: str,
    *,
    retry_on_error: bool = True,
    session: ScoreSession | None = None,
) -> list[str]:
    """The questions the session's judge writes from ``base_text`` ([] for a blank text)."""
    if _blank(base_text):
        return []
    judge = judge_of(session)
    return run_sync(judge.questions(base_text, run=0, retry=bool(retry_on_error)))


def answer_question_set(
    answer_text: str,
    questions: list[str],
    *,
    retry_on_error: bool = True,
    session: ScoreSession | None = None,
) -> list[float]:
    """The session judge's support numbers for ``questions`` read from ``answer_text``."""
    if not questions:
        return []
    if _blank(answer_text):
        return [0.0] * len(questions)
    judge = judge_of(session)
    return run_sync(judge.answers(answer_text, questions, run=(0, 0), retry=bool(retry_on_error)))
