"""Argument validation: UsageError before any judge call, UserWarning for weak or costly tests."""

from __future__ import annotations

import math
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from texts_judges import ScriptedJudge

import pytest_texts_score as pts
from pytest_texts_score.api import MINIMAL_EXPECTED_MAX_DELTA

pytest_plugins = ["texts_fixtures"]

SAME = "Paris is in France."


def test_minimal_expected_max_delta() -> None:
    assert MINIMAL_EXPECTED_MAX_DELTA == 0.05


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: pts.texts_expect_f1_equal(SAME, SAME, target=1.5),
            r"`target` value must be in range 0 to 1; 1.5",
        ),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, target=-0.1), r"`target`"),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, max_delta=2), r"`max_delta`"),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, target=math.nan), r"`target`.*NaN"),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, max_delta=math.nan), r"`max_delta`.*NaN"),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, target=True), r"`target` must be a number"),
        (lambda: pts.texts_expect_f1_equal(SAME, SAME, target="1"), r"`target` must be a number"),
        (lambda: pts.texts_expect_recall_range(SAME, SAME, 0.2, 1.2), r"`max_score`"),
        (lambda: pts.texts_expect_recall_range(SAME, SAME, -0.2, 0.8), r"`min_score`"),
        (
            lambda: pts.texts_expect_recall_range(SAME, SAME, 0.9, 0.5),
            r"cannot be smaller than `min_score`",
        ),
        (lambda: pts.texts_expect_recall_range(SAME, SAME, math.nan, 0.5), r"`min_score`.*NaN"),
        (lambda: pts.texts_agg_f1_min(SAME, SAME, 1.1), r"`lower_bound`"),
        (lambda: pts.texts_agg_f1_min(SAME, SAME, math.nan), r"`lower_bound`.*NaN"),
        (lambda: pts.texts_agg_recall_max(SAME, SAME, -1), r"`upper_bound`"),
        (lambda: pts.texts_agg_precision_mean(SAME, SAME, 2.0), r"`target`"),
        (lambda: pts.texts_agg_precision_median(SAME, SAME, 0.5, max_delta=-0.1), r"`max_delta`"),
        (
            lambda: pts.texts_agg_f1_mean(SAME, SAME, 0.9, full_runs=0),
            r"`full_runs` must be a positive integer; 0",
        ),
        (lambda: pts.texts_agg_f1_mean(SAME, SAME, 0.9, full_runs=True), r"`full_runs`.*True"),
        (lambda: pts.texts_agg_f1_mean(SAME, SAME, 0.9, full_runs=2.0), r"`full_runs`"),
        (
            lambda: pts.texts_agg_f1_min(SAME, SAME, 0.5, each_question_runs=-1),
            r"`each_question_runs`",
        ),
        (
            lambda: pts.texts_agg_f1_min(SAME, SAME, 0.5, each_question_runs=False),
            r"`each_question_runs`",
        ),
        (lambda: pts.texts_expect_f1_equal(None, SAME), r"`expected` must be a str"),
        (lambda: pts.texts_expect_f1_equal(SAME, 3), r"`given` must be a str"),
        (lambda: pts.texts_agg_completeness_min(SAME, SAME, 7), r"`lower_bound`"),
        (lambda: pts.texts_expect_correctness_equal(SAME, SAME, target=9), r"`target`"),
    ],
)
def test_usage_errors_before_any_judge_call(
    scripted: ScriptedJudge, call: Callable[[], Any], match: str
) -> None:
    with pytest.raises(pytest.UsageError, match=match):
        call()
    assert scripted.calls == []


def test_multiple_runs_counts_are_validated(scripted: ScriptedJudge) -> None:
    from pytest_texts_score.evaluate_score import texts_multiple_f1

    with pytest.raises(pytest.UsageError, match="`generate_questions`"):
        texts_multiple_f1(SAME, SAME, 0, 1)
    with pytest.raises(pytest.UsageError, match="`generate_answers_per_questions`"):
        texts_multiple_f1(SAME, SAME, 1, True)


def _warnings_of(call: Callable[[], Any]) -> list[warnings.WarningMessage]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [w for w in caught if issubclass(w.category, UserWarning)]


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (
            lambda: pts.texts_expect_f1_equal(SAME, SAME, target=0.5, max_delta=0.5),
            "covers all possible values",
        ),
        (
            lambda: pts.texts_expect_f1_equal(SAME, SAME, target=1.0, max_delta=0.01),
            r"max_delta` \(0.01\) is strict.*0.05",
        ),
        (lambda: pts.texts_expect_f1_range(SAME, SAME, 0.0, 1.0), "covers all possible values"),
        (lambda: pts.texts_expect_f1_range(SAME, SAME, 0.98, 1.0), r"Range \(0.020\) is strict"),
        (lambda: pts.texts_agg_f1_min(SAME, SAME, 0.0, full_runs=1), "`lower_bound` is 0"),
        (lambda: pts.texts_agg_f1_max(SAME, SAME, 1.0, full_runs=1), "`upper_bound` is 1"),
        (lambda: pts.texts_agg_f1_mean(SAME, SAME, 1.0, max_delta=0.0, full_runs=1), "is strict"),
        (
            lambda: pts.texts_agg_f1_mean(SAME, SAME, 1.0, full_runs=11, each_question_runs=5),
            r"total number of runs \(55",
        ),
    ],
)
def test_user_warnings(scripted: ScriptedJudge, call: Callable[[], Any], match: str) -> None:
    caught = _warnings_of(call)
    assert len(caught) == 1, [str(w.message) for w in caught]
    assert re.search(match, str(caught[0].message))
    # The warning points at the caller's line, not at our package.
    assert caught[0].filename == __file__


def test_no_warning_for_a_sensible_test(scripted: ScriptedJudge) -> None:
    assert _warnings_of(lambda: pts.texts_expect_f1_equal(SAME, SAME)) == []
    assert _warnings_of(lambda: pts.texts_expect_f1_range(SAME, SAME, 0.8, 1.0)) == []
    assert _warnings_of(lambda: pts.texts_agg_f1_mean(SAME, SAME, 0.9, full_runs=50)) == []


def test_skip_warnings_is_honoured(scripted: ScriptedJudge) -> None:
    assert _warnings_of(lambda: pts.texts_expect_f1_equal(SAME, SAME, 0.5, 0.5, True)) == []
    assert _warnings_of(lambda: pts.texts_expect_f1_equal(SAME, SAME, 1.0, 0.0, True)) == []
    assert (
        _warnings_of(
            lambda: pts.texts_expect_recall_range(SAME, SAME, 0.0, 1.0, skip_warnings=True)
        )
        == []
    )


def test_warnings_through_an_alias_point_at_the_caller(scripted: ScriptedJudge) -> None:
    caught = _warnings_of(
        lambda: pts.texts_expect_completeness_equal(SAME, SAME, target=0.5, max_delta=0.5)
    )
    assert [w.filename for w in caught] == [__file__]


def test_usage_error_exists_outside_a_pytest_run() -> None:
    # pytest.UsageError is importable and raisable in plain Python, which the API relies on.
    assert issubclass(pytest.UsageError, Exception)
