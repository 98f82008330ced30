"""Intervals of aggregated assertions and borderline reruns (``--llm-max-runs``), with a judge
whose scores depend on the question run, so means, intervals and waves are known exactly."""

from __future__ import annotations

import json

import pytest

from scorekit.stats._intervals import aggregate_stats, bootstrap_interval, t975, t_interval

RUN_JUDGE = """
import threading

SCORES = {scores!r}

class RunJudge:
    '''Question set n (in call order) is one question, answered SCORES[n] (recall = SCORES[n]).'''

    def __init__(self):
        self.n = 0
        self.calls = 0
        self.lock = threading.Lock()

    def make_questions(self, text):
        with self.lock:
            n = self.n
            self.n += 1
            self.calls += 1
        return [f"q{{n}}"]

    def answer_questions(self, text, questions):
        with self.lock:
            self.calls += 1
        return [SCORES[int(q[1:]) % len(SCORES)] for q in questions]

JUDGE = RunJudge()
"""

TEST = """
import run_judge
from pytest_texts_score import {function}

def test_agg():
    try:
        {function}("A fact.", "A fact.", {bounds}, full_runs=5)
    finally:
        print("JUDGE CALLS", run_judge.JUDGE.calls)
"""

#: First five runs straddle 0.5 (mean 0.6, t-interval 0.404-0.796); then a wave of 2 (still
#: straddling: 0.481-0.719) and a wave of 4 (11 runs: 0.533-0.667) clear it.
BORDERLINE = [0.4, 0.5, 0.6, 0.7, 0.8] + [0.6] * 15


def _suite(pytester: pytest.Pytester, scores: list[float], function: str, bounds: str) -> None:
    pytester.makepyfile(run_judge=RUN_JUDGE.format(scores=scores))
    pytester.syspathinsert()
    pytester.makepyfile(test_agg=TEST.format(function=function, bounds=bounds))


def _run(pytester: pytest.Pytester, *extra: str) -> tuple[pytest.RunResult, dict[str, object]]:
    result = pytester.runpytest(
        "--llm-provider=run_judge:JUDGE", "--llm-report=report.json", "-s", "-p", "no:randomly",
        *extra,
    )  # fmt: skip
    (row,) = json.loads((pytester.path / "report.json").read_text())["texts"]
    return result, row


def test_t_quantiles_and_intervals_by_hand() -> None:
    assert t975(4) == 2.7764 and t975(30) == 2.0423
    assert abs(t975(40) - 2.0211) < 1e-3 and abs(t975(120) - 1.9799) < 1e-3
    # 0.5..0.9: mean 0.7, s = 0.158114; half-width 2.7764 * s / sqrt(5) = 0.196321.
    low, high = t_interval([0.5, 0.6, 0.7, 0.8, 0.9]) or (0.0, 0.0)
    assert (round(low, 4), round(high, 4)) == (0.5037, 0.8963)
    assert t_interval([0.7]) is None
    # Scores live in [0, 1]: so does the interval of their mean.
    assert t_interval([0.1, 0.9, 0.8, 0.85, 0.2]) == (pytest.approx(0.08992, abs=1e-5), 1.0)
    assert t_interval([0.0, 0.0, 0.3]) == (0.0, pytest.approx(0.5303, abs=1e-4))
    stats = aggregate_stats([0.5, 0.6, 0.7, 0.8, 0.9], "mean")
    assert stats.mean == pytest.approx(0.7) and stats.stdev == pytest.approx(0.158114, abs=1e-6)


def test_bootstrap_is_fixed_by_the_scores_not_their_order() -> None:
    scores = [0.31, 0.92, 0.55, 0.47, 0.78, 0.66]
    first = bootstrap_interval(scores, "median")
    assert first == bootstrap_interval(list(reversed(scores)), "median")
    assert first == bootstrap_interval(sorted(scores), "median")
    low, high = first or (0.0, 0.0)
    assert 0.31 <= low <= high <= 0.92
    assert bootstrap_interval(scores, "min") is not None
    _low_max, high_max = bootstrap_interval(scores, "max") or (0.0, 0.0)
    assert high_max == 0.92  # the max of a resample is never above the largest score


def test_failure_message_and_report_hold_the_interval(pytester: pytest.Pytester) -> None:
    _suite(
        pytester, [0.5, 0.6, 0.7, 0.8, 0.9], "texts_agg_recall_mean", "target=0.3, max_delta=0.1"
    )
    result, row = _run(pytester, "--junitxml=junit.xml")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*recall: 95% interval of the mean 0.5037-0.8963 (t, sample sd 0.1581)*"]
    )
    assert row["mean"] == pytest.approx(0.7)
    assert [round(x, 4) for x in row["interval"]] == [0.5037, 0.8963]  # type: ignore[union-attr]
    assert row["borderline_runs"] is None
    junit = (pytester.path / "junit.xml").read_text()
    assert 'name="texts_recall_mean_ci_low" value="0.503679"' in junit


def test_median_uses_a_bootstrap_interval(pytester: pytest.Pytester) -> None:
    scores = [0.5, 0.6, 0.7, 0.8, 0.9]
    _suite(pytester, scores, "texts_agg_recall_median", "target=0.3, max_delta=0.1")
    result, row = _run(pytester)
    result.assert_outcomes(failed=1)
    assert row["interval"] == list(bootstrap_interval(scores, "median") or ())
    result.stdout.fnmatch_lines(["*95% interval of the median * (bootstrap, sample sd 0.1581)*"])


def test_borderline_mean_adds_waves_until_clear(pytester: pytest.Pytester) -> None:
    _suite(pytester, BORDERLINE, "texts_agg_recall_mean", "target=0.75, max_delta=0.25")
    result, row = _run(pytester, "--llm-max-runs=20")
    result.assert_outcomes(passed=1)
    assert row["borderline_runs"] == 11 and len(row["runs"]) == 11  # type: ignore[arg-type]
    result.stdout.fnmatch_lines(["*JUDGE CALLS 22*"])
    low, high = row["interval"]  # type: ignore[misc]
    assert 0.5 < low < high < 1.0


def test_borderline_failure_says_how_many_runs(pytester: pytest.Pytester) -> None:
    # Bounds [0.65, 1.0]: at 11 runs (0.533-0.667) it still straddles, and 11 is the limit.
    _suite(pytester, BORDERLINE, "texts_agg_recall_mean", "target=0.825, max_delta=0.175")
    result, row = _run(pytester, "--llm-max-runs=11")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*borderline: 11 runs*"])
    assert row["borderline_runs"] == 11


def test_reruns_off_by_default_and_clear_case_pays_full_runs(pytester: pytest.Pytester) -> None:
    _suite(pytester, BORDERLINE, "texts_agg_recall_mean", "target=0.75, max_delta=0.25")
    result, row = _run(pytester)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*JUDGE CALLS 10*"])
    assert len(row["runs"]) == 5  # type: ignore[arg-type]


def test_clear_case_pays_only_full_runs(pytester: pytest.Pytester) -> None:
    _suite(
        pytester, [0.5, 0.6, 0.7, 0.8, 0.9], "texts_agg_recall_mean", "target=0.3, max_delta=0.1"
    )
    result, row = _run(pytester, "--llm-max-runs=20")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*JUDGE CALLS 10*"])
    assert row["borderline_runs"] is None


def test_min_is_never_rerun(pytester: pytest.Pytester) -> None:
    _suite(pytester, BORDERLINE, "texts_agg_recall_min", "lower_bound=0.45")
    result, _row = _run(pytester, "--llm-max-runs=20")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*JUDGE CALLS 10*"])


def test_max_runs_below_the_default_full_runs_is_a_usage_error(pytester: pytest.Pytester) -> None:
    _suite(pytester, BORDERLINE, "texts_agg_recall_mean", "target=0.75, max_delta=0.25")
    result = pytester.runpytest("--llm-provider=run_judge:JUDGE", "--llm-max-runs=3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--llm-max-runs 3 (ini llm_max_runs) is below the default full_runs=5*"]
    )
    assert "JUDGE CALLS" not in result.stdout.str()  # stopped before any test ran


def test_max_runs_below_a_tests_full_runs_is_a_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(run_judge=RUN_JUDGE.format(scores=BORDERLINE))
    pytester.syspathinsert()
    pytester.makepyfile(
        test_agg=TEST.format(
            function="texts_agg_recall_mean", bounds="target=0.75, max_delta=0.25"
        ).replace("full_runs=5", "full_runs=8")
    )
    result = pytester.runpytest("--llm-provider=run_judge:JUDGE", "--llm-max-runs=6", "-s")
    # Like every usage error found when a test calls an assertion (a bad argument), the test
    # fails on a one-line UsageError.
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*JUDGE CALLS 0*",  # checked before the first judge call
            "*UsageError: --llm-max-runs 6 (ini llm_max_runs) is below full_runs=8 of this"
            " assertion*",
        ]
    )


def test_configure_max_runs_wins_over_the_option(pytester: pytest.Pytester) -> None:
    _suite(pytester, BORDERLINE, "texts_agg_recall_mean", "target=0.75, max_delta=0.25")
    pytester.makeconftest(
        "import pytest, pytest_texts_score\n"
        "@pytest.fixture(autouse=True)\n"
        "def _seven():\n"
        "    pytest_texts_score.configure(max_runs=7)\n"
    )
    result, row = _run(pytester, "--llm-max-runs=20")
    result.assert_outcomes(passed=1)
    # 5 runs straddle, a wave of 2 reaches the 7 configure() allows (20 would go to 11).
    assert row["borderline_runs"] == 7
    result.stdout.fnmatch_lines(["*JUDGE CALLS 14*"])


def test_max_runs_must_be_a_whole_number(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_x="def test_x(): pass")
    result = pytester.runpytest("--llm-max-runs=many")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--llm-max-runs: expected a whole number of runs >= 1*"])
