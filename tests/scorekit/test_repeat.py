"""``@pytest.mark.llm_repeat``: estimators against hand-computed values, verdicts, usage errors,
reports, xdist and the per-run cache index."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from fakes.openai_server import FakeLLM
from scorekit.judges._keys import reply_key
from scorekit.stats._repeat import (
    RepeatPlan,
    RepeatResult,
    make_plan,
    pass_at_k,
    pass_hat_k,
    repeat_run,
    wilson_interval,
)


def _frac(value: float) -> Fraction:
    return Fraction(value).limit_denominator(10_000)


def test_estimators_match_hand_computed_values() -> None:
    # N = 10, c = 6: C(6,3)/C(10,3) = 20/120 = 1/6; 1 - C(4,3)/C(10,3) = 1 - 4/120 = 29/30.
    assert _frac(pass_hat_k(10, 6, 3)) == Fraction(1, 6)
    assert _frac(pass_at_k(10, 6, 3)) == Fraction(29, 30)
    # k = 1 is the pass rate itself; pass^k is not p**k.
    assert pass_hat_k(10, 6, 1) == pytest.approx(0.6)
    assert pass_hat_k(10, 6, 2) == pytest.approx(15 / 45)
    assert pass_hat_k(10, 6, 2) != pytest.approx(0.36)
    assert pass_at_k(10, 10, 4) == 1.0
    assert pass_hat_k(10, 3, 4) == 0.0
    assert pass_at_k(10, 0, 8) == 0.0


def test_wilson_interval_known_values() -> None:
    # p = 0.6, n = 10, z = 1.96: centre 0.5725, half-width 0.2596.
    low, high = wilson_interval(6, 10)
    assert (round(low, 3), round(high, 3)) == (0.313, 0.832)
    assert wilson_interval(10, 10)[1] == 1.0
    low0, high0 = wilson_interval(0, 5)
    assert low0 == 0.0 and math.isclose(high0, 0.4345, abs_tol=1e-3)


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"runs": 0}, "runs must be a whole number >= 1"),
        ({"runs": True}, "runs must be a whole number >= 1"),
        ({"runs": 5, "min_pass_rate": 1.5}, "min_pass_rate must be a number in [0, 1]"),
        ({"runs": 5, "min_pass_rate": False}, "min_pass_rate must be a number in [0, 1]"),
        ({"runs": 5, "min_pass_k": 0.5}, "min_pass_k needs k"),
        ({"runs": 5, "k": 6}, "k=6 is more than runs=5"),
        ({"runs": 5, "kk": 6}, "unknown argument(s) kk"),
        ({}, "runs is required"),
    ],
)
def test_make_plan_rejects(kwargs: dict[str, object], needle: str) -> None:
    with pytest.raises(ValueError, match=r"llm_repeat on t\.py::t") as info:
        make_plan((), kwargs, where="t.py::t")
    assert needle in str(info.value)


def test_verdicts() -> None:
    fails = [(i, "AssertionError: no") for i in range(4)]
    assert RepeatResult(RepeatPlan(10), fails).missed() is not None
    assert RepeatResult(RepeatPlan(10, min_pass_rate=0.6), fails).missed() is None
    assert RepeatResult(RepeatPlan(10, min_pass_rate=0.7), fails).missed() is not None
    hat = RepeatResult(RepeatPlan(10, k=3, min_pass_k=0.2), fails)
    assert "pass^3 0.167 is below min_pass_k=0.2" in (hat.missed() or "")
    assert RepeatResult(RepeatPlan(10, k=3, min_pass_k=0.15), fails).missed() is None


def test_repeat_index_changes_cache_key_only_when_set() -> None:
    base = reply_key({"m": 1}, "questions", "t", None, (0,))
    assert reply_key({"m": 1}, "questions", "t", None, (0,), 0) == base
    assert reply_key({"m": 1}, "questions", "t", None, (0,), 2) != base
    with repeat_run(2):
        from scorekit.stats._repeat import current_repeat_run

        assert current_repeat_run() == 2


SUITE = """
import pytest

COUNT = {"n": 0}

def _run():
    COUNT["n"] += 1
    return COUNT["n"]

@pytest.mark.llm_repeat(runs=10, min_pass_rate=0.6, k=3)
def test_six_of_ten():
    n = _run()
    assert n % 10 not in (1, 3, 5, 7), f"run {n} failed"

@pytest.mark.llm_repeat(runs=4)
def test_all_must_pass():
    assert True

@pytest.mark.llm_repeat(runs=10, k=3, min_pass_k=0.2)
def test_pass_hat_k_too_low():
    n = COUNT.setdefault("m", 0) + 1
    COUNT["m"] = n
    if n in (2, 4, 6, 8):
        raise RuntimeError(f"agent crashed in run {n}\\nsecond line")
"""


def test_repeat_verdicts_reports_and_junit(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_rep=SUITE)
    result = pytester.runpytest(
        "-p",
        "no:randomly",
        "--junitxml=junit.xml",
        "--llm-report=report.json",
        "--llm-report-html=report.html",
    )
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "run 2: RuntimeError: agent crashed in run 2" in out
    assert "second line" not in out
    assert "6/10 runs passed" in out
    assert "pass^3 0.167 is below min_pass_k=0.2" in out
    assert "repeated tests (llm_repeat)" in out
    assert "test_rep.py::test_six_of_ten  6/10 passed  rate 0.6 [0.313, 0.832]" in out
    doc = json.loads((pytester.path / "report.json").read_text())
    rep = doc["tests"]["test_rep.py::test_six_of_ten"]["repeat"]
    assert rep["runs"] == 10 and rep["passed"] == 6 and rep["pass_rate"] == 0.6
    assert [round(x, 3) for x in rep["pass_rate_ci"]] == [0.313, 0.832]
    assert sorted(rep["pass_hat_k"]) == ["1", "2", "3", "4", "8"]
    assert rep["pass_hat_k"]["3"] == pytest.approx(1 / 6)
    assert rep["pass_at_k"]["3"] == pytest.approx(29 / 30)
    page = (pytester.path / "report.html").read_text()
    assert "Repeated tests (llm_repeat)" in page
    assert "test_rep.py::test_six_of_ten  6/10 passed" in page
    root = ET.parse(pytester.path / "junit.xml").getroot()
    props = {
        p.get("name"): p.get("value")
        for case in root.iter("testcase")
        if case.get("name") == "test_six_of_ten"
        for p in case.iter("property")
    }
    assert props["repeat_runs"] == "10" and props["repeat_pass_hat_3"] == "0.166667"


def test_llm_repeat_option_overrides_runs(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_opt="""
import pytest
RUNS = []

@pytest.mark.llm_repeat(runs=2)
def test_count():
    RUNS.append(1)

def test_after():
    assert len(RUNS) == 7
"""
    )
    pytester.runpytest("-p", "no:randomly", "--llm-repeat", "7").assert_outcomes(passed=2)


def test_llm_repeat_below_k_is_usage_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_k="""
import pytest

@pytest.mark.llm_repeat(runs=10, k=4)
def test_k():
    pass
"""
    )
    result = pytester.runpytest("--llm-repeat=3")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--llm-repeat 3 is below k=4 of @pytest.mark.llm_repeat*test_k*"])


def test_bad_marker_is_usage_error_naming_test(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_bad="""
import pytest

@pytest.mark.llm_repeat(runs=3, min_pass_rate=2)
def test_bad():
    pass
"""
    )
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*llm_repeat on test_bad.py::test_bad: min_pass_rate*"])


def test_judge_error_makes_item_an_error(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        test_err="""
import pytest
from scorekit.judges import JudgeError

@pytest.mark.llm_repeat(runs=3)
def test_outage():
    raise JudgeError("the judge is down")
"""
    )
    result = pytester.runpytest("-p", "no:texts_score", "-p", "no:randomly")
    result.assert_outcomes(errors=1)


def test_repeat_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_rep=SUITE)
    result = pytester.runpytest("-n", "2", "-p", "no:randomly", "--llm-report=report.json")
    result.assert_outcomes(passed=2, failed=1)
    doc = json.loads((pytester.path / "report.json").read_text())
    assert sorted(doc["tests"]) == [
        "test_rep.py::test_all_must_pass",
        "test_rep.py::test_pass_hat_k_too_low",
        "test_rep.py::test_six_of_ten",
    ]
    assert "repeated tests (llm_repeat)" in result.stdout.str()


CACHED = """
import pytest
from pytest_texts_score import texts_expect_f1_range

@pytest.mark.llm_repeat(runs=3)
def test_cached():
    texts_expect_f1_range("Paris is the capital of France.", "Paris is France's capital.",
                          min_score=0.0, max_score=1.0)
"""


def _fake_args(fake: FakeLLM) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-e2e-not-a-real-key",
        "--llm-model=fake-model",
        "--llm-timeout=5",
        "-p",
        "no:randomly",
    ]


def test_each_run_has_own_cache_entries_and_rerun_replays(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_cached=CACHED)
    pytester.runpytest(*_fake_args(fake_llm)).assert_outcomes(passed=1)
    first = fake_llm.calls
    # One questions call and one answers call per side and run, never shared across runs.
    assert first > 0 and first % 3 == 0
    pytester.runpytest(*_fake_args(fake_llm)).assert_outcomes(passed=1)
    assert fake_llm.calls == first
    pytester.runpytest(*_fake_args(fake_llm), "--llm-repeat=4").assert_outcomes(passed=1)
    assert fake_llm.calls == first + first // 3
