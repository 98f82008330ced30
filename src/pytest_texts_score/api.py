"""The assertion functions: single runs (``texts_expect_*``) and aggregated runs
(``texts_agg_*``) of F1, precision and recall.

A score outside its bounds raises an ``AssertionError`` (a test failure) whose message shows
the score against the bounds and the evidence: the questions answered below 1 on each side,
and for aggregated assertions every run's scores, the mean and the spread. A judge that cannot
be reached or keeps replying nonsense raises ``scorekit.judges.JudgeError`` instead (a test
error, not a failure). Unusable arguments raise ``pytest.UsageError`` before any judge call.

Directions: **precision** = questions from ``given`` answered from ``expected``; **recall** =
questions from ``expected`` answered from ``given``.

Over 400 lines: one function per public assertion of the reference API (18 of them), each
with its signature and docstring; the work is in ``_assertion``.
"""

from __future__ import annotations

import pytest_texts_score._assertion as _a
import pytest_texts_score._seams as _seams

# MINIMAL_EXPECTED_MAX_DELTA (0.05): a recommended minimum value for the ``max_delta`` or range
# width. Used to warn users if their test's acceptance criteria are very strict, which might lead
# to flaky tests due to LLM non-determinism. It lives with the checks that use it.
from pytest_texts_score._validation import MINIMAL_EXPECTED_MAX_DELTA as MINIMAL_EXPECTED_MAX_DELTA

# The scoring functions the assertions reach through this module's names, as in the reference
# (a test may patch ``pytest_texts_score.api.texts_evaluate_f1``; see ``_scores``).
from pytest_texts_score.evaluate_score import ScoreType as ScoreType
from pytest_texts_score.evaluate_score import texts_agg_f1 as texts_agg_f1
from pytest_texts_score.evaluate_score import texts_agg_precision as texts_agg_precision
from pytest_texts_score.evaluate_score import texts_agg_recall as texts_agg_recall
from pytest_texts_score.evaluate_score import texts_evaluate_f1 as texts_evaluate_f1
from pytest_texts_score.evaluate_score import texts_evaluate_precision as texts_evaluate_precision
from pytest_texts_score.evaluate_score import texts_evaluate_recall as texts_evaluate_recall

__all__ = [
    "MINIMAL_EXPECTED_MAX_DELTA",
    "texts_agg_f1_max",
    "texts_agg_f1_mean",
    "texts_agg_f1_median",
    "texts_agg_f1_min",
    "texts_agg_precision_max",
    "texts_agg_precision_mean",
    "texts_agg_precision_median",
    "texts_agg_precision_min",
    "texts_agg_recall_max",
    "texts_agg_recall_mean",
    "texts_agg_recall_median",
    "texts_agg_recall_min",
    "texts_expect_f1_equal",
    "texts_expect_f1_range",
    "texts_expect_precision_equal",
    "texts_expect_precision_range",
    "texts_expect_recall_equal",
    "texts_expect_recall_range",
]


def texts_expect_f1_equal(
    expected: str,
    given: str,
    target: float = 1.0,
    max_delta: float = 0.2,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the F1 score is close to a target value.

    A convenience wrapper around :func:`texts_expect_f1_range`: one F1 evaluation, which
    must lie within ``target ± max_delta`` (clipped to ``[0, 1]``).

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected F1 score. Defaults to 1.0.
        max_delta: the allowed deviation from the target. Defaults to 0.2.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_f1_equal(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "France's capital is Paris."
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_f1_equal", (expected, given, target, max_delta, skip_warnings, retry_on_error)
    )


def texts_expect_f1_range(
    expected: str,
    given: str,
    min_score: float,
    max_score: float,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the F1 score falls within a specified range.

    One evaluation of the F1 between the two texts, which must lie in
    ``[min_score, max_score]``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        min_score: the minimum acceptable F1 score.
        max_score: the maximum acceptable F1 score.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: a bound is not a number in ``[0, 1]`` or ``max_score < min_score``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_f1_range(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.5, 1.0
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_f1_range",
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
    )


def texts_expect_precision_equal(
    expected: str,
    given: str,
    target: float = 1.0,
    max_delta: float = 0.2,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the precision score is close to a target value.

    A convenience wrapper around :func:`texts_expect_precision_range`: one precision evaluation,
    which must lie within ``target ± max_delta`` (clipped to ``[0, 1]``).

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected precision score. Defaults to 1.0.
        max_delta: the allowed deviation from the target. Defaults to 0.2.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_precision_equal(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "France's capital is Paris."
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_precision_equal",
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
    )


def texts_expect_precision_range(
    expected: str,
    given: str,
    min_score: float,
    max_score: float,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the precision score falls within a specified range.

    One evaluation of the precision between the two texts, which must lie in
    ``[min_score, max_score]``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        min_score: the minimum acceptable precision score.
        max_score: the maximum acceptable precision score.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: a bound is not a number in ``[0, 1]`` or ``max_score < min_score``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_precision_range(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.5, 1.0
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_precision_range",
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
    )


def texts_expect_recall_equal(
    expected: str,
    given: str,
    target: float = 1.0,
    max_delta: float = 0.2,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the recall score is close to a target value.

    A convenience wrapper around :func:`texts_expect_recall_range`: one recall evaluation, which
    must lie within ``target ± max_delta`` (clipped to ``[0, 1]``).

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected recall score. Defaults to 1.0.
        max_delta: the allowed deviation from the target. Defaults to 0.2.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_recall_equal(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "France's capital is Paris."
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_recall_equal",
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
    )


def texts_expect_recall_range(
    expected: str,
    given: str,
    min_score: float,
    max_score: float,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Assert that the recall score falls within a specified range.

    One evaluation of the recall between the two texts, which must lie in
    ``[min_score, max_score]``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        min_score: the minimum acceptable recall score.
        max_score: the maximum acceptable recall score.
        skip_warnings: if True, suppresses input validation warnings.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the score is outside the range (the message carries the evidence).
        pytest.UsageError: a bound is not a number in ``[0, 1]`` or ``max_score < min_score``.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_expect_recall_range(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.5, 1.0
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_expect_recall_range",
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
    )


def texts_agg_f1_min(
    expected: str,
    given: str,
    lower_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the minimum aggregated F1 score is above a lower bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the minimum F1 across the runs and asserts that it is greater than or equal to
    ``lower_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        lower_bound: the minimum acceptable score for the aggregated minimum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``lower_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_f1_min(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.6
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_f1_min",
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_f1_max(
    expected: str,
    given: str,
    upper_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the maximum aggregated F1 score is below an upper bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the maximum F1 across the runs and asserts that it is less than or equal to
    ``upper_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        upper_bound: the maximum acceptable score for the aggregated maximum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``upper_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_f1_max(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_f1_max",
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_f1_mean(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the mean aggregated F1 score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent
    together), takes the mean (average) F1 and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected mean score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_f1_mean(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_f1_mean",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_f1_median(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the median aggregated F1 score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent
    together), takes the median F1 and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected median score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_f1_median(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_f1_median",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_precision_min(
    expected: str,
    given: str,
    lower_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the minimum aggregated precision score is above a lower bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the minimum precision across the runs and asserts that it is greater than or equal to
    ``lower_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        lower_bound: the minimum acceptable score for the aggregated minimum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``lower_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_precision_min(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.6
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_precision_min",
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_precision_max(
    expected: str,
    given: str,
    upper_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the maximum aggregated precision score is below an upper bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the maximum precision across the runs and asserts that it is less than or equal to
    ``upper_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        upper_bound: the maximum acceptable score for the aggregated maximum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``upper_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_precision_max(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_precision_max",
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_precision_mean(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the mean aggregated precision score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the mean (average) precision and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected mean score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_precision_mean(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_precision_mean",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_precision_median(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the median aggregated precision score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent
    together), takes the median precision and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected median score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_precision_median(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_precision_median",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_recall_min(
    expected: str,
    given: str,
    lower_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the minimum aggregated recall score is above a lower bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the minimum recall across the runs and asserts that it is greater than or equal to
    ``lower_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        lower_bound: the minimum acceptable score for the aggregated minimum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``lower_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_recall_min(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.6
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_recall_min",
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_recall_max(
    expected: str,
    given: str,
    upper_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the maximum aggregated recall score is below an upper bound.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the maximum recall across the runs and asserts that it is less than or equal to
    ``upper_bound``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        upper_bound: the maximum acceptable score for the aggregated maximum.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of bounds (the message lists every run).
        pytest.UsageError: ``upper_bound`` is not a number in ``[0, 1]`` or a run count is not a
            positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_recall_max(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_recall_max",
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_recall_mean(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the mean aggregated recall score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent together),
    takes the mean (average) recall and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected mean score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_recall_mean(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_recall_mean",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


def texts_agg_recall_median(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Assert that the median aggregated recall score is close to a target value.

    Performs ``full_runs`` x ``each_question_runs`` evaluation runs (all judge calls sent
    together), takes the median recall and asserts that it lies within ``target ± max_delta``.

    Args:
        expected: the reference text.
        given: the text to evaluate.
        target: the expected median score.
        max_delta: the allowed deviation from the target. Defaults to 0.1.
        full_runs: number of times to generate new questions. Defaults to 5.
        each_question_runs: number of times to evaluate answers per question set. Defaults to 1.
        retry_on_error: if True, retries transient judge failures.

    Raises:
        AssertionError: the aggregate is out of range (the message lists every run).
        pytest.UsageError: ``target`` or ``max_delta`` is not a number in ``[0, 1]`` or a run
            count is not a positive integer.
        scorekit.judges.JudgeError: the judge failed (an error, not a failed assertion).

    Example:
        >>> texts_agg_recall_median(  # doctest: +SKIP
        ...     "Paris is the capital of France.", "Paris is in France.", 0.9
        ... )
    """
    __tracebackhide__ = True
    _a.check(
        "texts_agg_recall_median",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
    )


_seams.register(
    __name__,
    "texts_agg_f1",
    "texts_agg_precision",
    "texts_agg_recall",
    "texts_evaluate_f1",
    "texts_evaluate_precision",
    "texts_evaluate_recall",
)
