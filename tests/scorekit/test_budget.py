"""Judge budgets end to end: pytest runs against the HTTP fake, requests counted at the server."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakes.openai_server import FakeLLM
from scorekit.session._budget import BudgetCaps, BudgetExhaustedError, JudgeBudget, budget_lines

SUITE = """
import pytest
from pytest_texts_score import texts_expect_f1_equal

TEXTS = [f"City number {i} lies on river {i}. It has {i} bridges." for i in range(6)]


@pytest.mark.parametrize("text", TEXTS)
def test_f1(text):
    texts_expect_f1_equal(text, text, target=1.0, max_delta=0.6)
"""


def _args(fake: FakeLLM, *extra: str) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-budget-not-a-real-key",
        "--llm-model=fake-model",
        "--llm-timeout=5",
        "-p",
        "no:randomly",
        *extra,
    ]


def test_call_cap_stops_new_calls_and_cache_still_serves(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-budget-calls=5"))
    # Each test needs several calls: the cap lets the first test(s) through, then errors.
    assert fake_llm.calls == 5  # not one request past the cap reached the server
    outcomes = result.parseoutcomes()
    assert outcomes.get("errors", 0) >= 1
    result.stdout.fnmatch_lines(
        [
            "*judge budget exhausted: 5 calls of 5; raise --llm-budget-calls*",
            "*judge budget (llm-scorekit)*",
            "calls: 5 of 5",
        ]
    )
    # Cached replies cost nothing: a rerun serves what was stored without a new request.
    passed_first = outcomes.get("passed", 0)
    again = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-budget-calls=0"))
    assert fake_llm.calls == 5
    assert again.parseoutcomes().get("passed", 0) == passed_first
    again.stdout.fnmatch_lines(["calls: 0 of 0"])


def test_budget_is_shared_across_xdist_workers(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "-n", "2", "--llm-budget-calls=7"))
    assert fake_llm.calls == 7  # two workers, one counter
    result.stdout.fnmatch_lines(["calls: 7 of 7"])


def test_usd_cap_with_overridden_prices(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    pytester.makepyfile(test_suite=SUITE)
    # A price so high that the first reply's tokens exceed the cap.
    result = pytester.runpytest_subprocess(
        *_args(
            fake_llm,
            "--llm-budget-usd=0.000001",
            "--llm-cache=off",
            "-o",
            "llm_price_input_per_mtok=1000",
            "-o",
            "llm_price_output_per_mtok=1000",
        )
    )
    assert fake_llm.calls >= 1
    result.stdout.fnmatch_lines(
        ["*judge budget exhausted: * calls / $* of $0.0000; raise --llm-budget-usd*"]
    )
    calls = fake_llm.calls
    result.stdout.fnmatch_lines(["estimated USD: $* of $0.0000"])
    assert calls < 12  # stopped early, not after the whole suite


def test_usd_cap_without_a_price_is_a_usage_error(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, "--llm-budget-usd=1"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--llm-budget-usd: no price is known for the openai judge's model 'fake-model'*"]
    )
    assert fake_llm.calls == 0


@pytest.mark.parametrize(
    ("arg", "message"),
    [
        ("--llm-budget-calls=-1", "*--llm-budget-calls must be a finite number >= 0*"),
        ("--llm-budget-usd=lots", "*--llm-budget-usd must be a number >= 0, got 'lots'*"),
        ("--llm-budget-tokens=1.5", "*--llm-budget-tokens must be a whole number >= 0*"),
    ],
)
def test_bad_budget_values(
    pytester: pytest.Pytester, fake_llm: FakeLLM, arg: str, message: str
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess(*_args(fake_llm, arg))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_local_judge_is_free(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_suite=SUITE)
    result = pytester.runpytest_subprocess("--llm-budget-calls=0", "-p", "no:randomly")
    # Whatever the local judge does, a cap of 0 calls never stops it (nothing is counted).
    assert "judge budget exhausted" not in result.stdout.str()
    assert "judge budget (llm-scorekit)" not in result.stdout.str()


def test_budget_counter_units(tmp_path: Path) -> None:
    budget = JudgeBudget(BudgetCaps(tokens=100, price_input=1.0), tmp_path / "b.db")
    budget.reserve()
    budget.spend(80, 30)
    with pytest.raises(BudgetExhaustedError, match="110 tokens of 100; raise --llm-budget-tokens"):
        budget.reserve()
    totals = budget.totals()
    assert totals["calls"] == 1
    assert totals["usd"] == pytest.approx(80 / 1e6)
    assert budget_lines(totals) == ["tokens: 110 of 100"]
    budget.close()
