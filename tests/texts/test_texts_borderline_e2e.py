"""Borderline reruns (``--llm-max-runs``) end to end: under pytest-xdist and with the judge
cache, against the HTTP fake. Requests are counted at the server (in this process), so a
worker cannot hide one.

The fake's question replies are scripted: question set n holds ten questions of which
``10 * SCORES[n]`` are backed by the answering text (the fake's smart answers say so), so the
recall of run n is ``SCORES[n]``. The runs of one wave are in flight together and take the next
replies of the queue between them, so every wave scores a known set of values.
"""

from __future__ import annotations

import json

import pytest

from fakes.openai_server import FakeLLM, content

#: The first five runs straddle 0.5 (mean 0.6, 0.404-0.796); a wave of 2 still straddles
#: (0.481-0.719), a wave of 4 clears it (11 runs: 0.533-0.667).
SCORES = [0.4, 0.5, 0.6, 0.7, 0.8] + [0.6] * 6

SUITE = """
from pytest_texts_score import texts_agg_recall_mean

def test_borderline():
    texts_agg_recall_mean("Alpha beta gamma.", "Alpha beta gamma.", target=0.75,
                          max_delta=0.25, full_runs=5)

def test_a():
    pass

def test_b():
    pass

def test_c():
    pass
"""


def _questions(score: float) -> str:
    backed = round(score * 10)
    questions = [f"Alpha beta gamma {i}?" for i in range(backed)]
    questions += [f"Zeta omega {i}?" for i in range(10 - backed)]
    return json.dumps(questions)


def _args(fake: FakeLLM, report: str) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-api-key=sk-borderline-not-a-real-key",
        "--llm-model=fake-model",
        "--llm-timeout=5",
        "--llm-max-runs=20",
        f"--llm-report={report}",
        "-n",
        "2",
        "-p",
        "no:randomly",
    ]


def _row(pytester: pytest.Pytester, report: str) -> dict[str, object]:
    (row,) = json.loads((pytester.path / report).read_text())["texts"]
    assert isinstance(row, dict)
    return row


def test_borderline_waves_under_xdist_then_replayed_from_the_cache(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    pytester.makepyfile(test_borderline=SUITE)
    fake_llm.script(*[content(_questions(s)) for s in SCORES], kind="questions")
    first = pytester.runpytest_subprocess(*_args(fake_llm, "r1.json"))
    first.assert_outcomes(passed=4)
    row = _row(pytester, "r1.json")
    # The worker's waves reached the controller's report: 5 runs, then 2, then 4.
    assert row["borderline_runs"] == 11
    assert isinstance(row["runs"], list) and len(row["runs"]) == 11
    assert row["score"] == pytest.approx(0.6)
    assert len(fake_llm.requests_of("questions")) == 11
    assert len(fake_llm.requests_of("answers")) == 11
    calls = fake_llm.calls

    second = pytester.runpytest_subprocess(*_args(fake_llm, "r2.json"))
    second.assert_outcomes(passed=4)
    assert fake_llm.calls == calls  # every run of every wave replayed from the cache
    second.stdout.fnmatch_lines(["*judge openai (fake-model): 0 calls, 22 cache hits*"])
    again = _row(pytester, "r2.json")
    assert again["borderline_runs"] == 11
    assert again["runs"] == row["runs"]
