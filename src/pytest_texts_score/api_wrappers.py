"""Alternative names for the assertion functions.

*completeness* is precision (questions from ``given``, answered from ``expected``), *correctness*
is recall (questions from ``expected``, answered from ``given``), and *average* is mean. An alias
behaves exactly like the function it names; its failure message names the metric both ways
(``Text completeness (precision) below minimum: ...``).

Note that Ragas and FActScore use the words precision and recall the other way round.
"""

from __future__ import annotations

from pytest_texts_score import _assertion as _a
from pytest_texts_score.evaluate_score import AggType

__all__ = [
    "texts_agg_completeness_average",
    "texts_agg_completeness_max",
    "texts_agg_completeness_mean",
    "texts_agg_completeness_median",
    "texts_agg_completeness_min",
    "texts_agg_correctness_average",
    "texts_agg_correctness_max",
    "texts_agg_correctness_mean",
    "texts_agg_correctness_median",
    "texts_agg_correctness_min",
    "texts_agg_f1_average",
    "texts_agg_precision_average",
    "texts_agg_recall_average",
    "texts_expect_completeness_equal",
    "texts_expect_completeness_range",
    "texts_expect_correctness_equal",
    "texts_expect_correctness_range",
]


def texts_agg_completeness_average(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api_wrappers.texts_agg_precision_average`."""
    __tracebackhide__ = True
    _a.agg_target(
        "precision",
        "texts_agg_completeness_average",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="completeness",
    )


def texts_agg_completeness_max(
    expected: str,
    given: str,
    upper_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_precision_max`."""
    __tracebackhide__ = True
    _a.agg_bound(
        "precision",
        "texts_agg_completeness_max",
        AggType.MAXIMUM,
        expected,
        given,
        upper_bound,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="completeness",
    )


def texts_agg_completeness_mean(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_precision_mean`."""
    __tracebackhide__ = True
    _a.agg_target(
        "precision",
        "texts_agg_completeness_mean",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="completeness",
    )


def texts_agg_completeness_median(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_precision_median`."""
    __tracebackhide__ = True
    _a.agg_target(
        "precision",
        "texts_agg_completeness_median",
        AggType.MEDIAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="completeness",
    )


def texts_agg_completeness_min(
    expected: str,
    given: str,
    lower_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_precision_min`."""
    __tracebackhide__ = True
    _a.agg_bound(
        "precision",
        "texts_agg_completeness_min",
        AggType.MINIMUM,
        expected,
        given,
        lower_bound,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="completeness",
    )


def texts_agg_correctness_average(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api_wrappers.texts_agg_recall_average`."""
    __tracebackhide__ = True
    _a.agg_target(
        "recall",
        "texts_agg_correctness_average",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="correctness",
    )


def texts_agg_correctness_max(
    expected: str,
    given: str,
    upper_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_recall_max`."""
    __tracebackhide__ = True
    _a.agg_bound(
        "recall",
        "texts_agg_correctness_max",
        AggType.MAXIMUM,
        expected,
        given,
        upper_bound,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="correctness",
    )


def texts_agg_correctness_mean(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_recall_mean`."""
    __tracebackhide__ = True
    _a.agg_target(
        "recall",
        "texts_agg_correctness_mean",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="correctness",
    )


def texts_agg_correctness_median(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_recall_median`."""
    __tracebackhide__ = True
    _a.agg_target(
        "recall",
        "texts_agg_correctness_median",
        AggType.MEDIAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="correctness",
    )


def texts_agg_correctness_min(
    expected: str,
    given: str,
    lower_bound: float,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_recall_min`."""
    __tracebackhide__ = True
    _a.agg_bound(
        "recall",
        "texts_agg_correctness_min",
        AggType.MINIMUM,
        expected,
        given,
        lower_bound,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias="correctness",
    )


def texts_agg_f1_average(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_f1_mean`."""
    __tracebackhide__ = True
    _a.agg_target(
        "f1",
        "texts_agg_f1_average",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias=None,
    )


def texts_agg_precision_average(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_precision_mean`."""
    __tracebackhide__ = True
    _a.agg_target(
        "precision",
        "texts_agg_precision_average",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias=None,
    )


def texts_agg_recall_average(
    expected: str,
    given: str,
    target: float,
    max_delta: float = 0.1,
    full_runs: int = 5,
    each_question_runs: int = 1,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_agg_recall_mean`."""
    __tracebackhide__ = True
    _a.agg_target(
        "recall",
        "texts_agg_recall_average",
        AggType.MEAN,
        expected,
        given,
        target,
        max_delta,
        full_runs,
        each_question_runs,
        retry_on_error,
        alias=None,
    )


def texts_expect_completeness_equal(
    expected: str,
    given: str,
    target: float = 1.0,
    max_delta: float = 0.2,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_expect_precision_equal`."""
    __tracebackhide__ = True
    _a.expect_equal(
        "precision",
        "texts_expect_completeness_equal",
        expected,
        given,
        target,
        max_delta,
        skip_warnings,
        retry_on_error,
        alias="completeness",
    )


def texts_expect_completeness_range(
    expected: str,
    given: str,
    min_score: float,
    max_score: float,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_expect_precision_range`."""
    __tracebackhide__ = True
    _a.expect_range(
        "precision",
        "texts_expect_completeness_range",
        expected,
        given,
        min_score,
        max_score,
        skip_warnings,
        retry_on_error,
        alias="completeness",
    )


def texts_expect_correctness_equal(
    expected: str,
    given: str,
    target: float = 1.0,
    max_delta: float = 0.2,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_expect_recall_equal`."""
    __tracebackhide__ = True
    _a.expect_equal(
        "recall",
        "texts_expect_correctness_equal",
        expected,
        given,
        target,
        max_delta,
        skip_warnings,
        retry_on_error,
        alias="correctness",
    )


def texts_expect_correctness_range(
    expected: str,
    given: str,
    min_score: float,
    max_score: float,
    skip_warnings: bool = False,
    retry_on_error: bool = True,
) -> None:
    """Alias for :func:`~pytest_texts_score.api.texts_expect_recall_range`."""
    __tracebackhide__ = True
    _a.expect_range(
        "recall",
        "texts_expect_correctness_range",
        expected,
        given,
        min_score,
        max_score,
        skip_warnings,
        retry_on_error,
        alias="correctness",
    )
