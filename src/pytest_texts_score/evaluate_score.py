"""Scores as numbers: single runs, multiple runs and their aggregates.

These functions return scores instead of asserting. All of them are thin doors onto one
pipeline that sends the independent judge calls of a call together (see the package README), so
``texts_multiple_f1(e, g, 5, 1)`` costs two judge round trips, not twenty.

They call each other, and the judge, through this module's names, looked up at call time as the
reference does: a test may replace ``make_questions`` and ``evaluate_questions`` (imported here
from ``communication``), ``score_one_side``, ``texts_evaluate_*``, ``texts_multiple_*``,
``scores_agg``, ``f1_score`` or ``MAXIMAL_RETRY_ON_ERROR`` with ``unittest.mock.patch`` and the
functions above them use the replacement (see ``docs/texts/testing-without-a-judge.md``).

Directions: **precision** = questions from ``given`` answered from ``expected``; **recall** =
questions from ``expected`` answered from ``given``.

Over 400 lines: one function per public name of the reference API, each with its
docstring; the work is in ``_scores`` and ``_pipeline``.
"""

from __future__ import annotations

import math
import statistics

import pytest_texts_score._scores as _scores
import pytest_texts_score._seams as _seams
import pytest_texts_score._validation as v
from pytest_texts_score._outcome import AggLike, AggType, ScoreType, TextsOutcome
from pytest_texts_score._outcome import f1_score as _f1

# The seams the scoring functions reach the judge through (see communication).
from pytest_texts_score.communication import evaluate_questions, make_questions

# The maximum number of times to retry an LLM call upon failure before raising an exception:
# the judge layer's limit per call, and the limit per public call of the retries of failed
# question runs here (read at call time, so a test may patch it).
from scorekit.judges import MAXIMAL_RETRY_ON_ERROR

__all__ = [
    "MAXIMAL_RETRY_ON_ERROR",
    "AggType",
    "ScoreType",
    "evaluate_questions",
    "f1_score",
    "make_questions",
    "score_one_side",
    "scores_agg",
    "texts_agg_f1",
    "texts_agg_precision",
    "texts_agg_recall",
    "texts_evaluate_f1",
    "texts_evaluate_precision",
    "texts_evaluate_recall",
    "texts_multiple_f1",
    "texts_multiple_precision",
    "texts_multiple_recall",
]


def f1_score(precision: float, recall: float) -> float:
    """Calculate the F1 score from precision and recall.

    The harmonic mean of the two; 0.0 when both are 0 (no division by zero).

    Args:
        precision: the precision score (between 0.0 and 1.0).
        recall: the recall score (between 0.0 and 1.0).

    Returns:
        The F1 score.

    Raises:
        ValueError: a value is NaN, infinite or outside ``[0, 1]``.

    Example:
        >>> f1_score(1.0, 0.5)
        0.6666666666666666
        >>> f1_score(0.0, 0.0)
        0.0
    """
    __tracebackhide__ = True
    return _f1(precision, recall)


def score_one_side(base_text: str, answer_text: str, retry_on_error: bool = True) -> float:
    """Calculate a one-sided score: questions from ``base_text`` answered with ``answer_text``.

    The building block of precision (``score_one_side(given, expected)``) and recall
    (``score_one_side(expected, given)``): the mean of the answers' support numbers. A blank
    ``base_text`` claims nothing and scores 1.0 without a judge call.

    Args:
        base_text: the text to generate questions from.
        answer_text: the text to answer the questions with.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The average score from the evaluation, in ``[0, 1]``.

    Raises:
        scorekit.judges.JudgeError: the judge failed after the maximum number of retries.
        pytest_texts_score.RetriesExhaustedError: a replaced ``make_questions`` or
            ``evaluate_questions`` still failed after ``MAXIMAL_RETRY_ON_ERROR`` retries.

    Example:
        >>> score_one_side("Paris is in France.", "Paris is in France.")  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    base_text = v.check_text(base_text, "base_text")
    answer_text = v.check_text(answer_text, "answer_text")
    return _scores.one_side_work(base_text, answer_text, retry_on_error).score


def _agg_type(agg_type: object) -> AggType:
    __tracebackhide__ = True
    try:
        return AggType(agg_type)
    except ValueError:
        known = ", ".join(repr(a.value) for a in AggType)
        raise ValueError(f"Unknown aggregation type: {agg_type!r}; use one of {known}.") from None


def scores_agg(scores: list[float], agg_type: AggLike) -> float:
    """Aggregate a list of scores with min, max, median or mean/average.

    Args:
        scores: a non-empty list of scores.
        agg_type: the aggregation method to use.

    Returns:
        The aggregated score.

    Raises:
        ValueError: an unknown aggregation type, an empty list or a NaN/infinite score.

    Example:
        >>> scores_agg([0.5, 1.0, 0.75], "median")
        0.75
        >>> scores_agg([0.5, 1.0], AggType.MINIMUM)
        0.5
    """
    __tracebackhide__ = True
    how = _agg_type(agg_type)
    values = list(scores)
    if not values:
        raise ValueError("scores_agg: `scores` is empty; there is nothing to aggregate.")
    for s in values:
        if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s):
            raise ValueError(f"scores_agg: every score must be a finite number; {s!r} given.")
    if how is AggType.MINIMUM:
        return float(min(values))
    if how is AggType.MAXIMUM:
        return float(max(values))
    if how is AggType.MEDIAN:
        return float(statistics.median(values))
    return math.fsum(values) / len(values)


def texts_evaluate_f1(expected: str, given: str, retry_on_error: bool = True) -> float:
    """Calculate the F1 score between two texts (one run: precision and recall together).

    Args:
        expected: the reference text.
        given: the text to be evaluated against the reference.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The calculated F1 score.

    Example:
        >>> texts_evaluate_f1("Paris is in France.", "Paris is in France.")  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    return _scores.evaluate_work("f1", expected, given, retry_on_error).score


def texts_evaluate_precision(expected: str, given: str, retry_on_error: bool = True) -> float:
    """Evaluate precision: questions from ``given``, answered from ``expected``.

    How much of the information in ``given`` is also present in ``expected``.

    Args:
        expected: the reference text used for answering questions.
        given: the text from which questions are generated.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The calculated precision score.

    Example:
        >>> texts_evaluate_precision("Paris is in France.", "Paris is big.")  # doctest: +SKIP
        0.0
    """
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    return _scores.evaluate_work("precision", expected, given, retry_on_error).score


def texts_evaluate_recall(expected: str, given: str, retry_on_error: bool = True) -> float:
    """Evaluate recall: questions from ``expected``, answered from ``given``.

    How much of the information in ``expected`` is covered by ``given``.

    Args:
        expected: the reference text from which questions are generated.
        given: the text used for answering questions.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The calculated recall score.

    Example:
        >>> texts_evaluate_recall("Paris is in France.", "Paris is in France.")  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    return _scores.evaluate_work("recall", expected, given, retry_on_error).score


def _runs(generate_questions: int, generate_answers_per_questions: int) -> tuple[int, int]:
    __tracebackhide__ = True
    names = ("generate_questions", "generate_answers_per_questions")
    return v.check_runs(generate_questions, generate_answers_per_questions, names=names)


def _multiple_runs(
    metric: str, expected: str, given: str, q: int, a: int, retry: bool
) -> TextsOutcome:
    """Score every run of a multiple-run function together (its run counts checked)."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    return _scores.multiple_work(metric, expected, v.check_text(given, "given"), q, a, retry)


def texts_multiple_f1(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    score_only: bool = True,
    retry_on_error: bool = True,
) -> list[float] | list[tuple[int, int, float, float, float]]:
    """Perform multiple evaluation runs to get a list of F1 scores.

    Each of ``generate_questions`` runs writes new question sets for both sides; each set is
    answered ``generate_answers_per_questions`` times; F1 is computed per (question run, answer
    run) pair from that pair's precision and recall. All calls are sent together.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        score_only: if True, return only the F1 scores; else tuples
            ``(question_run, answer_run, precision, recall, f1_score)``. Defaults to True.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        A list of F1 scores or of detailed tuples, question run outer, answer run inner.

    Raises:
        scorekit.judges.JudgeError: the judge failed after the maximum number of retries.
        pytest_texts_score.RetriesExhaustedError: a replaced ``make_questions`` or
            ``evaluate_questions`` still failed after ``MAXIMAL_RETRY_ON_ERROR`` retries.

    Example:
        >>> texts_multiple_f1("A is B.", "A is B.", 2, 1)  # doctest: +SKIP
        [1.0, 1.0]
    """
    __tracebackhide__ = True
    q, a = _runs(generate_questions, generate_answers_per_questions)
    outcome = _multiple_runs("f1", expected, given, q, a, retry_on_error)
    if score_only:
        return outcome.scores("f1")
    return [
        (r.question_run, r.answer_run, p, rc, f)
        for r, p, rc, f in zip(
            outcome.runs,
            outcome.scores("precision"),
            outcome.scores("recall"),
            outcome.scores("f1"),
            strict=True,
        )
    ]


def _one_side_multiple(
    metric: str, expected: str, given: str, q: int, a: int, score_only: bool, retry: bool
) -> list[float] | list[tuple[int, int, float]]:
    __tracebackhide__ = True
    outcome = _multiple_runs(metric, expected, given, q, a, retry)
    scores = outcome.scores(metric)
    if score_only:
        return scores
    return [(r.question_run, r.answer_run, s) for r, s in zip(outcome.runs, scores, strict=True)]


def texts_multiple_precision(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    score_only: bool = True,
    retry_on_error: bool = True,
) -> list[float] | list[tuple[int, int, float]]:
    """Perform multiple evaluation runs to get a list of precision scores.

    Each run writes a new question set from ``given``; each set is answered
    ``generate_answers_per_questions`` times from ``expected``. All calls are sent together.

    Args:
        expected: the reference text for answering.
        given: the text to generate questions from.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        score_only: if True, return only scores; else ``(question_run, answer_run, precision)``
            tuples. Defaults to True.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        A list of precision scores or of detailed tuples.

    Example:
        >>> texts_multiple_precision("A is B.", "A is B.", 3, 1)  # doctest: +SKIP
        [1.0, 1.0, 1.0]
    """
    __tracebackhide__ = True
    q, a = _runs(generate_questions, generate_answers_per_questions)
    return _one_side_multiple("precision", expected, given, q, a, score_only, retry_on_error)


def texts_multiple_recall(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    score_only: bool = True,
    retry_on_error: bool = True,
) -> list[float] | list[tuple[int, int, float]]:
    """Perform multiple evaluation runs to get a list of recall scores.

    Each run writes a new question set from ``expected``; each set is answered
    ``generate_answers_per_questions`` times from ``given``. All calls are sent together.

    Args:
        expected: the reference text to generate questions from.
        given: the text for answering.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        score_only: if True, return only scores; else ``(question_run, answer_run, recall)``
            tuples. Defaults to True.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        A list of recall scores or of detailed tuples.

    Example:
        >>> texts_multiple_recall("A is B.", "A is B.", 1, 2)  # doctest: +SKIP
        [1.0, 1.0]
    """
    __tracebackhide__ = True
    q, a = _runs(generate_questions, generate_answers_per_questions)
    return _one_side_multiple("recall", expected, given, q, a, score_only, retry_on_error)


def _aggregated(
    metric: str, expected: str, given: str, q: int, a: int, how: AggType, retry: bool
) -> float:
    """The aggregate of ``metric`` over the runs (run counts and aggregation checked)."""
    __tracebackhide__ = True
    expected = v.check_text(expected, "expected")
    given = v.check_text(given, "given")
    return _scores.agg_work(metric, expected, given, q, a, how, retry)[0]


def texts_agg_f1(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    agg_type: AggLike,
    retry_on_error: bool = True,
) -> float:
    """Calculate an aggregated F1 score over multiple runs (see :func:`texts_multiple_f1`).

    Args:
        expected: the reference text.
        given: the text to evaluate.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        agg_type: the aggregation method to use on the collected scores.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The final aggregated F1 score.

    Example:
        >>> texts_agg_f1("A is B.", "A is B.", 5, 1, "mean")  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    how = _agg_type(agg_type)
    q, a = _runs(generate_questions, generate_answers_per_questions)
    return _aggregated("f1", expected, given, q, a, how, retry_on_error)


def texts_agg_precision(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    agg_type: AggLike,
    retry_on_error: bool = True,
) -> float:
    """Calculate an aggregated precision score over multiple runs.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        agg_type: the aggregation method to use on the collected scores.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The final aggregated precision score.

    Example:
        >>> texts_agg_precision("A is B.", "A is B.", 5, 1, AggType.MINIMUM)  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    how = _agg_type(agg_type)
    q, a = _runs(generate_questions, generate_answers_per_questions)
    return _aggregated("precision", expected, given, q, a, how, retry_on_error)


def texts_agg_recall(
    expected: str,
    given: str,
    generate_questions: int,
    generate_answers_per_questions: int,
    agg_type: AggLike,
    retry_on_error: bool = True,
) -> float:
    """Calculate an aggregated recall score over multiple runs.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        generate_questions: the number of times to generate a new set of questions.
        generate_answers_per_questions: the number of times to evaluate answers per set.
        agg_type: the aggregation method to use on the collected scores.
        retry_on_error: whether to retry transient judge failures. Defaults to True.

    Returns:
        The final aggregated recall score.

    Example:
        >>> texts_agg_recall("A is B.", "A is B.", 5, 1, "median")  # doctest: +SKIP
        1.0
    """
    __tracebackhide__ = True
    how = _agg_type(agg_type)
    q, a = _runs(generate_questions, generate_answers_per_questions)
    return _aggregated("recall", expected, given, q, a, how, retry_on_error)


# Every public name is a seam a test may patch; these are the originals.
_seams.register(__name__, *__all__)
