"""From answers to scores: a side's score from its answers, run scores, the outcome.

Answers arrive as the reference's dicts (``{"question": ..., "answer": ...}``, optionally
``"reason"``), whether the judge layer wrote them or a test's replacement of
``evaluate_score.evaluate_questions`` did, so one set of rules scores both.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Literal

from scorekit.format import shorten
from scorekit.report import Evidence, RunScore

__all__ = [
    "AggLike",
    "AggType",
    "ScoreType",
    "SideRun",
    "TextsOutcome",
    "answer_dicts",
    "assemble",
    "f1_score",
    "score_answers",
]


class AggType(str, Enum):
    """Aggregation types for recall scores."""

    MINIMUM = "minimum"
    MAXIMUM = "maximum"
    MEDIAN = "median"
    AVERAGE = "average"
    MEAN = "mean"


class ScoreType(str, Enum):
    """The three scores: F1, precision and recall."""

    F1 = "f1"
    PRECISION = "precision"
    RECALL = "recall"


AggLike = AggType | Literal["minimum", "maximum", "median", "average", "mean"]


def f1_score(precision: float, recall: float) -> float:
    """Harmonic mean of precision and recall; 0.0 when both are 0 (never a division by zero).

    Raises:
        ValueError: a value is NaN, infinite or outside ``[0, 1]``.

    Example:
        >>> f1_score(1.0, 0.5)
        0.6666666666666666
    """
    __tracebackhide__ = True
    for name, value in (("precision", precision), ("recall", recall)):
        number = not isinstance(value, bool) and isinstance(value, (int, float))
        if not (number and math.isfinite(value) and 0.0 <= value <= 1.0):
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
        judge: the judge's short name (``local``, ``openai``, ``azure``, a class name), or
            what replaced it in a test (``replaced texts_multiple_f1``).
        question_runs: question sets written per side.
        answer_runs: times each question set was answered.
        evidence_known: False when a test replaced the function that computes the scores, so
            there are no questions to show.
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
    evidence_known: bool = True

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

    @classmethod
    def from_scores(
        cls,
        metric: str,
        scores: Sequence[float],
        *,
        judge: str,
        answer_runs: int = 1,
    ) -> TextsOutcome:
        """An outcome that only knows the run scores (a test replaced the function that
        computes them): no questions, no other metric.

        Example:
            >>> TextsOutcome.from_scores("f1", [1.0, 0.5], judge="t").runs[1].f1
            0.5
        """
        runs = [
            RunScore(i // answer_runs, i % answer_runs, **{metric: float(s)})
            for i, s in enumerate(scores)
        ]
        return cls(
            metric,
            *_means(runs),
            runs=runs,
            judge=judge,
            question_runs=max(1, len(scores) // answer_runs),
            answer_runs=answer_runs,
            evidence_known=False,
        )


def answer_dicts(
    questions: Sequence[str],
    answers: Sequence[float],
    reasons: Sequence[str | None] | None = None,
) -> list[dict[str, Any]]:
    """The reference's answer dicts: ``{"question", "answer"}`` and ``"reason"`` when known.

    Example:
        >>> answer_dicts(["Is it?"], [1.0])
        [{'question': 'Is it?', 'answer': 1.0}]
    """
    out: list[dict[str, Any]] = []
    for i, (q, a) in enumerate(zip(questions, answers, strict=True)):
        d: dict[str, Any] = {"question": q, "answer": float(a)}
        reason = reasons[i] if reasons is not None else None
        if reason:
            d["reason"] = reason
        out.append(d)
    return out


def _bad_answers(answers: object, why: str) -> ValueError:
    return ValueError(
        f"evaluate_questions returned {shorten(repr(answers), 200)}: {why}; expected a"
        ' non-empty list of dicts like {"question": "...", "answer": 1.0} (answer in [0, 1]).'
    )


def score_answers(
    answers: object,
    questions: Sequence[str] | None,
    side: str,
    run: tuple[int, int],
) -> tuple[float, list[Evidence]]:
    """A side's score (the mean answer) and its evidence, from one answer set.

    ``questions`` names the questions when an answer dict does not (``None``: unknown).

    Raises:
        ValueError: the answers are not a non-empty list of dicts with an ``"answer"`` number
            in ``[0, 1]``.

    Example:
        >>> score_answers([{"answer": 1}, {"answer": 0.5}], None, "recall", (0, 0))[0]
        0.75
    """
    __tracebackhide__ = True
    if not isinstance(answers, (list, tuple)) or not answers:
        raise _bad_answers(answers, "not a non-empty list")
    values: list[float] = []
    evidence: list[Evidence] = []
    for i, item in enumerate(answers):
        if not isinstance(item, Mapping):
            raise _bad_answers(answers, f"item {i + 1} is not a dict")
        value = item.get("answer")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _bad_answers(answers, f"item {i + 1} has no number under 'answer'")
        if not (math.isfinite(value) and 0.0 <= value <= 1.0):
            raise _bad_answers(answers, f"item {i + 1} has an answer outside [0, 1]")
        question = item.get("question")
        if not isinstance(question, str):
            known = questions is not None and i < len(questions)
            question = questions[i] if known and questions is not None else f"question {i + 1}"
        reason = item.get("reason")
        values.append(float(value))
        evidence.append(
            Evidence(
                side=side,
                question=question,
                answer=float(value),
                run=list(run),
                reason=reason if isinstance(reason, str) and reason.strip() else None,
            )
        )
    return math.fsum(values) / len(values), evidence


@dataclass
class SideRun:
    """One question set of one side and its answer runs."""

    side: str
    question_run: int
    scores: list[float]
    evidence: list[Evidence]


def _means(runs: Sequence[RunScore]) -> tuple[float | None, float | None, float | None]:
    """The mean precision, recall and F1 over ``runs``, None where a run lacks it."""
    means = []
    for name in ("precision", "recall", "f1"):
        values = [getattr(run, name) for run in runs]
        ok = values and all(v is not None for v in values)
        means.append(math.fsum(values) / len(values) if ok else None)
    return means[0], means[1], means[2]


def merge_outcomes(first: TextsOutcome, more: TextsOutcome) -> TextsOutcome:
    """One outcome of the runs of ``first`` then those of ``more`` (borderline reruns)."""
    runs = [*first.runs, *more.runs]
    return TextsOutcome(
        first.metric,
        *_means(runs),
        runs=runs,
        evidence=[*first.evidence, *more.evidence],
        judge=first.judge,
        question_runs=first.question_runs + more.question_runs,
        answer_runs=first.answer_runs,
        evidence_known=first.evidence_known and more.evidence_known,
    )


def assemble(
    metric: str,
    side_runs: Sequence[SideRun],
    question_runs: int,
    answer_runs: int,
    judge: str,
    *,
    first_run: int = 0,
) -> TextsOutcome:
    """The outcome of a scored plan: per-run P, R and F1 (F1 per run pair), means, evidence."""
    by_side: dict[str, dict[int, SideRun]] = {}
    evidence: list[Evidence] = []
    # Evidence reads side by side, question run by question run, however the calls were made.
    for sr in sorted(side_runs, key=lambda s: (s.side != "precision", s.question_run)):
        by_side.setdefault(sr.side, {})[sr.question_run] = sr
        evidence.extend(sr.evidence)

    runs: list[RunScore] = []
    for q in range(first_run, first_run + question_runs):
        for a in range(answer_runs):
            p = by_side["precision"][q].scores[a] if "precision" in by_side else None
            r = by_side["recall"][q].scores[a] if "recall" in by_side else None
            f = f1_score(p, r) if (p is not None and r is not None) else None
            runs.append(RunScore(question_run=q, answer_run=a, precision=p, recall=r, f1=f))
    return TextsOutcome(
        metric,
        *_means(runs),
        runs=runs,
        evidence=evidence,
        judge=judge,
        question_runs=question_runs,
        answer_runs=answer_runs,
    )
