"""The work of the scoring functions, each reaching the next through its seam.

The reference's call graph, which a test may cut anywhere with ``unittest.mock.patch``::

    api.texts_expect_<m>_*  -> api.texts_evaluate_<m>    (evaluate_score.texts_evaluate_<m>)
    texts_evaluate_f1       -> texts_evaluate_precision, texts_evaluate_recall, f1_score
    texts_evaluate_<p|r>    -> score_one_side
    api.texts_agg_<m>_*     -> api.texts_agg_<m>         (evaluate_score.texts_agg_<m>)
    texts_agg_<m>           -> texts_multiple_<m>, scores_agg
    score_one_side, texts_multiple_<m> -> make_questions, evaluate_questions

Each ``*_work`` function below is the body of one of those functions; it calls the next name
through :func:`_via`, which takes the pipeline when the name is still the original and calls
the replacement (with the reference's arguments) when it is not. A body never looks up its own
name, so a ``patch(..., wraps=original)`` spy does not recurse.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

import pytest_texts_score._seams as _seams
from pytest_texts_score._outcome import AggType, TextsOutcome
from pytest_texts_score._pipeline import evaluate_texts
from scorekit.format import shorten
from scorekit.report import RunScore

if TYPE_CHECKING:
    from scorekit.session import ScoreSession

__all__ = ["agg_work", "assertion_work", "evaluate_work", "multiple_work", "one_side_work"]

ES = _seams.EVALUATE_SCORE


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    f = float(value)
    return f if math.isfinite(f) and 0.0 <= f <= 1.0 else None


def checked_score(value: object, name: str) -> float:
    """A replacement's score, or a ValueError saying what it returned."""
    __tracebackhide__ = True
    score = _number(value)
    if score is None:
        raise ValueError(
            f"{name} returned {shorten(repr(value), 120)}; a score must be a number in [0, 1]."
        )
    return score


def checked_scores(values: object, name: str) -> list[float]:
    """A replacement's run scores, or a ValueError saying what it returned."""
    __tracebackhide__ = True
    scores = [_number(v) for v in values] if isinstance(values, (list, tuple)) else []
    if not scores or any(s is None for s in scores):
        raise ValueError(
            f"{name} returned {shorten(repr(values), 120)}; expected a non-empty list of"
            " scores in [0, 1], one per run."
        )
    return [s for s in scores if s is not None]


def _via(
    seams: Sequence[tuple[str, str]],
    args: Sequence[Any],
    kwargs: Mapping[str, Any],
    internal: Callable[[], TextsOutcome],
    *,
    metric: str,
    answer_runs: int = 1,
) -> TextsOutcome:
    """Call the first replaced name of ``seams`` as the reference calls it, else ``internal``."""
    __tracebackhide__ = True
    replacement = _seams.first_replacement(seams)
    if replacement is None:
        return internal()
    name = seams[0][1]
    value = replacement(*args, **kwargs)
    judge = f"replaced {name}"
    if name.startswith("texts_multiple_"):
        scores = checked_scores(value, name)
        return TextsOutcome.from_scores(metric, scores, judge=judge, answer_runs=answer_runs)
    return TextsOutcome.from_scores(metric, [checked_score(value, name)], judge=judge)


def one_side_work(
    base_text: str, answer_text: str, retry: bool, session: ScoreSession | None = None
) -> TextsOutcome:
    """``score_one_side``: questions from ``base_text`` answered from ``answer_text``."""
    __tracebackhide__ = True
    return evaluate_texts(
        answer_text,
        base_text,
        metric="precision",
        retry_on_error=retry,
        session=session,
        what="score_one_side",
    )


def _merge_f1(p: TextsOutcome, r: TextsOutcome, f: float) -> TextsOutcome:
    return TextsOutcome(
        metric="f1",
        precision=p.score,
        recall=r.score,
        f1=f,
        runs=[RunScore(0, 0, precision=p.score, recall=r.score, f1=f)],
        evidence=[*p.evidence, *r.evidence],
        judge=" + ".join(dict.fromkeys([p.judge, r.judge])),
        evidence_known=p.evidence_known and r.evidence_known,
    )


def evaluate_work(
    metric: str, expected: str, given: str, retry: bool, session: ScoreSession | None = None
) -> TextsOutcome:
    """``texts_evaluate_<metric>``: one run."""
    __tracebackhide__ = True
    if metric in ("precision", "recall"):
        base, answer = (given, expected) if metric == "precision" else (expected, given)
        return _via(
            [(ES, "score_one_side")],
            (base, answer),
            {"retry_on_error": retry},
            partial(
                evaluate_texts,
                expected,
                given,
                metric=metric,
                retry_on_error=retry,
                session=session,
                what=f"texts_evaluate_{metric}",
            ),
            metric=metric,
        )
    composed = ("texts_evaluate_precision", "texts_evaluate_recall", "f1_score", "score_one_side")
    if not _seams.is_replaced(ES, *composed):
        # Both sides in one go: the reference's two score_one_side calls, made together.
        return evaluate_texts(
            expected,
            given,
            metric="f1",
            retry_on_error=retry,
            session=session,
            grouping="side",
            what="texts_evaluate_f1",
        )
    # The reference's order: all of precision, then all of recall, each through its name.
    p, r = (
        _via(
            [(ES, f"texts_evaluate_{side}")],
            (expected, given, retry),
            {},
            partial(evaluate_work, side, expected, given, retry, session),
            metric=side,
        )
        for side in ("precision", "recall")
    )
    f = checked_score(_seams.current(ES, "f1_score")(p.score, r.score), "f1_score")
    return _merge_f1(p, r, f)


def multiple_work(
    metric: str,
    expected: str,
    given: str,
    question_runs: int,
    answer_runs: int,
    retry: bool,
    session: ScoreSession | None = None,
    first_run: int = 0,
) -> TextsOutcome:
    """``texts_multiple_<metric>``: every run of the plan, numbered from ``first_run`` (a
    borderline wave adds runs after those made: all its judge calls in flight together)."""
    __tracebackhide__ = True
    return evaluate_texts(
        expected,
        given,
        metric=metric,
        question_runs=question_runs,
        answer_runs=answer_runs,
        retry_on_error=retry,
        session=session,
        what=f"texts_multiple_{metric}",
        first_run=first_run,
    )


def agg_work(
    metric: str,
    expected: str,
    given: str,
    question_runs: int,
    answer_runs: int,
    how: AggType,
    retry: bool,
    session: ScoreSession | None = None,
) -> tuple[float, TextsOutcome]:
    """``texts_agg_<metric>``: the run scores of ``texts_multiple_<metric>``, aggregated by
    ``scores_agg``."""
    __tracebackhide__ = True
    name = f"texts_multiple_{metric}"
    outcome = _via(
        [(ES, name)],
        (),
        {
            "expected": expected,
            "given": given,
            "generate_questions": question_runs,
            "generate_answers_per_questions": answer_runs,
            "score_only": True,
            "retry_on_error": retry,
        },
        partial(multiple_work, metric, expected, given, question_runs, answer_runs, retry, session),
        metric=metric,
        answer_runs=answer_runs,
    )
    return aggregate_of(outcome, metric, how), outcome


def aggregate_of(outcome: TextsOutcome, metric: str, how: AggType) -> float:
    """The aggregate ``scores_agg`` makes of an outcome's run scores."""
    value = _seams.current(ES, "scores_agg")(outcome.scores(metric), how)
    return checked_score(value, "scores_agg")


def assertion_work(
    metric: str,
    expected: str,
    given: str,
    *,
    agg: AggType | None,
    question_runs: int,
    answer_runs: int,
    retry: bool,
    session: ScoreSession | None,
) -> tuple[float, TextsOutcome]:
    """The score an assertion checks, and its outcome (evidence when the pipeline ran).

    A single run goes through ``texts_evaluate_<metric>`` (the ``api`` module's name for it,
    then ``evaluate_score``'s); an aggregate through ``texts_agg_<metric>`` likewise.
    """
    __tracebackhide__ = True
    if agg is None:
        name = f"texts_evaluate_{metric}"
        outcome = _via(
            [(_seams.API, name), (ES, name)],
            (expected, given),
            {"retry_on_error": retry},
            partial(evaluate_work, metric, expected, given, retry, session),
            metric=metric,
        )
        return outcome.score, outcome
    name = f"texts_agg_{metric}"
    replacement = _seams.first_replacement([(_seams.API, name), (ES, name)])
    if replacement is None:
        return agg_work(metric, expected, given, question_runs, answer_runs, agg, retry, session)
    score = checked_score(
        replacement(expected, given, question_runs, answer_runs, agg, retry), name
    )
    # Only the aggregate is known: no runs, no questions.
    outcome = TextsOutcome(
        metric=metric,
        precision=score if metric == "precision" else None,
        recall=score if metric == "recall" else None,
        f1=score if metric == "f1" else None,
        judge=f"replaced {name}",
        question_runs=question_runs,
        answer_runs=answer_runs,
        evidence_known=False,
    )
    return score, outcome
