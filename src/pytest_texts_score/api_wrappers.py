"""Alternative names for the assertion functions.

*completeness* is precision (questions from ``given``, answered from ``expected``), *correctness*
is recall (questions from ``expected``, answered from ``given``), and *average* is mean. An alias
behaves exactly like the function it names; its failure message names the metric both ways
(``Text completeness (precision) below minimum: ...``).

Note that Ragas and FActScore use the words precision and recall the other way round.

Over 400 lines: one function per public alias of the reference API, each with its
signature and docstring (the reference's, for drop-in use).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import pytest_texts_score._assertion as _a
import pytest_texts_score._seams as _seams

# The functions the aliases call, under this module's names as in the reference (a test may
# patch ``api_wrappers.texts_agg_precision_mean``; see ``_alias``).
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


def _alias(
    chain: Sequence[str],
    args: Sequence[Any],
    internal: Callable[..., None],
    *,
    alias: str | None,
) -> None:
    """Call the aliased function through this module's name for it, as the reference does.

    ``chain`` is the alias's path of names here (``texts_agg_completeness_average`` calls
    ``texts_agg_precision_average``, which calls ``texts_agg_precision_mean``): the first one a
    test replaced is called with the alias's positional arguments; when none is replaced the
    assertion runs as ``internal(*args, alias=alias)``, under the alias's own name (its failure
    message says ``completeness``).
    """
    __tracebackhide__ = True
    replacement = _seams.first_replacement([(_seams.WRAPPERS, name) for name in chain])
    if replacement is not None:
        replacement(*args)
        return
    internal(*args, alias=alias)


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
    _alias(
        ("texts_agg_precision_average", "texts_agg_precision_mean"),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "precision", "texts_agg_completeness_average", AggType.MEAN),
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
    _alias(
        ("texts_agg_precision_max",),
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_bound, "precision", "texts_agg_completeness_max", AggType.MAXIMUM),
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
    _alias(
        ("texts_agg_precision_mean",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "precision", "texts_agg_completeness_mean", AggType.MEAN),
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
    _alias(
        ("texts_agg_precision_median",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "precision", "texts_agg_completeness_median", AggType.MEDIAN),
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
    _alias(
        ("texts_agg_precision_min",),
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_bound, "precision", "texts_agg_completeness_min", AggType.MINIMUM),
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
    _alias(
        ("texts_agg_recall_average", "texts_agg_recall_mean"),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "recall", "texts_agg_correctness_average", AggType.MEAN),
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
    _alias(
        ("texts_agg_recall_max",),
        (expected, given, upper_bound, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_bound, "recall", "texts_agg_correctness_max", AggType.MAXIMUM),
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
    _alias(
        ("texts_agg_recall_mean",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "recall", "texts_agg_correctness_mean", AggType.MEAN),
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
    _alias(
        ("texts_agg_recall_median",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "recall", "texts_agg_correctness_median", AggType.MEDIAN),
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
    _alias(
        ("texts_agg_recall_min",),
        (expected, given, lower_bound, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_bound, "recall", "texts_agg_correctness_min", AggType.MINIMUM),
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
    _alias(
        ("texts_agg_f1_mean",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "f1", "texts_agg_f1_average", AggType.MEAN),
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
    _alias(
        ("texts_agg_precision_mean",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "precision", "texts_agg_precision_average", AggType.MEAN),
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
    _alias(
        ("texts_agg_recall_mean",),
        (expected, given, target, max_delta, full_runs, each_question_runs, retry_on_error),
        partial(_a.agg_target, "recall", "texts_agg_recall_average", AggType.MEAN),
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
    _alias(
        ("texts_expect_precision_equal",),
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
        partial(_a.expect_equal, "precision", "texts_expect_completeness_equal"),
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
    _alias(
        ("texts_expect_precision_range",),
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
        partial(_a.expect_range, "precision", "texts_expect_completeness_range"),
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
    _alias(
        ("texts_expect_recall_equal",),
        (expected, given, target, max_delta, skip_warnings, retry_on_error),
        partial(_a.expect_equal, "recall", "texts_expect_correctness_equal"),
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
    _alias(
        ("texts_expect_recall_range",),
        (expected, given, min_score, max_score, skip_warnings, retry_on_error),
        partial(_a.expect_range, "recall", "texts_expect_correctness_range"),
        alias="correctness",
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
