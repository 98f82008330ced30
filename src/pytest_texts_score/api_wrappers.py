"""Alternative names for the assertion functions.

*completeness* is precision (questions from ``given``, answered from ``expected``), *correctness*
is recall (questions from ``expected``, answered from ``given``), and *average* is mean. An alias
behaves exactly like the function it names; its failure message names the metric both ways
(``Text completeness (precision) below minimum: ...``).

Note that Ragas and FActScore use the words precision and recall the other way round.
"""

from __future__ import annotations

import pytest_texts_score._assertion as _a
import pytest_texts_score._seams as _seams

# The functions the aliases call, under this module's names as in the reference (a test may
# patch ``api_wrappers.texts_agg_precision_mean``; see ``_assertion.check``).
from pytest_texts_score.api import texts_agg_f1_mean as texts_agg_f1_mean
from pytest_texts_score.api import texts_agg_precision_max as texts_agg_precision_max
from pytest_texts_score.api import texts_agg_precision_mean as texts_agg_precision_mean
from pytest_texts_score.api import texts_agg_precision_median as texts_agg_precision_median
from pytest_texts_score.api import texts_agg_precision_min as texts_agg_precision_min
from pytest_texts_score.api import texts_agg_recall_max as texts_agg_recall_max
from pytest_texts_score.api import texts_agg_recall_mean as texts_agg_recall_mean
from pytest_texts_score.api import texts_agg_recall_median as texts_agg_recall_median
from pytest_texts_score.api import texts_agg_recall_min as texts_agg_recall_min
from pytest_texts_score.api import texts_expect_precision_equal as texts_expect_precision_equal
from pytest_texts_score.api import texts_expect_precision_range as texts_expect_precision_range
from pytest_texts_score.api import texts_expect_recall_equal as texts_expect_recall_equal
from pytest_texts_score.api import texts_expect_recall_range as texts_expect_recall_range

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
    _a.check(
        "texts_agg_completeness_average",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_completeness_max",
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_completeness_mean",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_completeness_median",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_completeness_min",
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_correctness_average",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_correctness_max",
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_correctness_mean",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_correctness_median",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_correctness_min",
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_f1_average",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_precision_average",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_agg_recall_average",
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
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
    _a.check(
        "texts_expect_completeness_equal",
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
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
    _a.check(
        "texts_expect_completeness_range",
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
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
    _a.check(
        "texts_expect_correctness_equal",
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
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
    _a.check(
        "texts_expect_correctness_range",
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
    )


_seams.register(
    __name__,
    "texts_agg_f1_mean",
    "texts_agg_precision_max",
    "texts_agg_precision_mean",
    "texts_agg_precision_median",
    "texts_agg_precision_min",
    "texts_agg_recall_max",
    "texts_agg_recall_mean",
    "texts_agg_recall_median",
    "texts_agg_recall_min",
    "texts_expect_precision_equal",
    "texts_expect_precision_range",
    "texts_expect_recall_equal",
    "texts_expect_recall_range",
    "texts_agg_precision_average",
    "texts_agg_recall_average",
)
