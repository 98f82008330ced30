"""Audit records (issue 25, item 4): pytest runs against the HTTP fake write, per assertion, the
judge's facts, every run's scores, the question sets with their answers, each judge request
with its source (judge or cache), tokens and cost; never a key. The HTML report folds it."""

from __future__ import annotations

import json
import re

import pytest

from conftest import FAKE_KEY
from fakes.openai_server import FakeLLM
from scorekit.session import endpoint_host

SUITE = """
from pytest_texts_score import texts_agg_f1_mean, texts_expect_f1_range


def test_single():
    texts_expect_f1_range(
        "Paris is the capital of France. It has a river.",
        "Paris is the capital of France.",
        0.5,
        1.0,
    )


def test_agg():
    texts_agg_f1_mean(
        "Lyon lies on the Rhone. It has two rivers.",
        "Lyon lies on the Rhone.",
        0.6,
        max_delta=0.3,
        full_runs=3,
    )
"""

#: A key given through the environment only (the command line gives FAKE_KEY).
ENV_KEY = "sk-env-SECRET-9876543210fedcba"


def _args(fake: FakeLLM, *extra: str) -> list[str]:
    return [
        "--llm-provider=openai",
        f"--llm-base-url={fake.base_url}",
        "--llm-model=gpt-4o-mini",
        "--llm-timeout=5",
        "-p",
        "no:randomly",
        "-W",
        "ignore::UserWarning",
        *extra,
    ]


def test_report_holds_an_audit_per_assertion_and_no_key(
    pytester: pytest.Pytester, fake_llm: FakeLLM, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makepyfile(test_suite=SUITE)
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    result = pytester.runpytest_subprocess(
        *_args(fake_llm, "--llm-report=r.json", "--llm-report-html=r.html")
    )
    result.assert_outcomes(passed=2)
    sent = fake_llm.calls
    doc = json.loads((pytester.path / "r.json").read_text())
    single, agg = sorted(doc["texts"], key=lambda r: r["test_id"], reverse=True)
    assert single["test_id"].endswith("test_single")
    # The existing keys are all still there; audit is added beside them.
    for key in ("score", "runs", "evidence", "judge", "expected", "given", "outcome"):
        assert key in single
    audit = single["audit"]
    port = fake_llm.base_url.split(":")[2].split("/")[0]
    assert audit["judge"] == {
        "provider": "openai",
        "model": "gpt-4o-mini",
        "deployment": None,
        "endpoint_host": f"127.0.0.1:{port}",
        "api_version": None,
        "temperature": 0.0,
        "max_tokens": 8192,
        "prompt_version": "scorekit-prompts-1",
        "prompt_hash": audit["judge"]["prompt_hash"],
    }
    assert re.fullmatch(r"sha256:[0-9a-f]{16}", audit["judge"]["prompt_hash"])
    # One run: questions of both sides, and their answers, as the evidence holds them.
    assert [r["f1"] for r in audit["runs"]] == [r["f1"] for r in single["runs"]]
    sides = {s["side"]: s for s in audit["question_sets"]}
    assert set(sides) == {"precision", "recall"}
    recall = sides["recall"]
    assert len(recall["questions"]) == 2 and recall["answers"][0]["answers"] == [1.0, 0.0]
    kinds = sorted((c["kind"], c["side"], c["source"]) for c in audit["calls"])
    assert kinds == [
        ("answers", "precision", "judge"),
        ("answers", "recall", "judge"),
        ("questions", "precision", "judge"),
        ("questions", "recall", "judge"),
    ]
    totals = audit["totals"]
    assert totals["calls"] == 4 and totals["cache_hits"] == 0
    assert totals["tokens"] == sum(
        c["prompt_tokens"] + c["completion_tokens"] for c in audit["calls"]
    )
    assert totals["estimated_cost_usd"] > 0
    # The aggregated assertion: three runs, three question sets per side.
    assert len(agg["audit"]["runs"]) == 3
    assert sorted(s["question_run"] for s in agg["audit"]["question_sets"]) == [0, 0, 1, 1, 2, 2]
    # Every request the fake received is in exactly one assertion's record.
    assert sum(r["audit"]["totals"]["requests_sent"] for r in doc["texts"]) == sent
    # The key never appears: neither the one given on the command line nor the environment's.
    html = (pytester.path / "r.html").read_text()
    for text in (json.dumps(doc), html, result.stdout.str()):
        assert ENV_KEY not in text and "SECRET" not in text
    assert html.count('<details class="audit">') == 2
    assert "Audit record (4 judge calls, 0 cached" in html
    assert f"127.0.0.1:{port}" in html and fake_llm.base_url not in html

    # A rerun is served by the cache: the record says so, with no tokens and no cost.
    again = pytester.runpytest_subprocess(
        *_args(fake_llm, f"--llm-api-key={FAKE_KEY}", "--llm-report=r2.json")
    )
    again.assert_outcomes(passed=2)
    assert fake_llm.calls == sent
    doc2 = json.loads((pytester.path / "r2.json").read_text())
    for row in doc2["texts"]:
        assert {c["source"] for c in row["audit"]["calls"]} == {"cache"}
        assert row["audit"]["totals"]["tokens"] is None
    text2 = (pytester.path / "r2.json").read_text()
    assert FAKE_KEY not in text2 and "SECRET" not in text2


def test_no_report_no_audit(pytester: pytest.Pytester, fake_llm: FakeLLM) -> None:
    # A report format that does not hold audits (JUnit) and no report file: nothing collected.
    pytester.makepyfile(
        test_suite=SUITE,
        test_peek="""
from scorekit.pytest_state import get_session


def test_zz_peek(request):
    session = get_session(request.config)
    assert session.audit is False
    assert all(getattr(r, "audit", None) is None for r in session.recorder.rows)
""",
    )
    result = pytester.runpytest_subprocess(*_args(fake_llm, f"--llm-api-key={FAKE_KEY}"))
    result.assert_outcomes(passed=3)


def test_a_judge_error_is_recorded_with_its_request(
    pytester: pytest.Pytester, fake_llm: FakeLLM
) -> None:
    from fakes.openai_server import status

    pytester.makepyfile(
        test_one="""
from pytest_texts_score import texts_expect_f1_range


def test_down():
    texts_expect_f1_range("A cat sat.", "A cat sat.", 0.5, 1.0)
"""
    )
    fake_llm.script(*[status(401, message="bad key") for _ in range(4)])
    result = pytester.runpytest_subprocess(
        *_args(fake_llm, f"--llm-api-key={FAKE_KEY}", "--llm-cache=off", "--llm-report=r.json")
    )
    assert result.ret != 0
    (row,) = json.loads((pytester.path / "r.json").read_text())["texts"]
    assert row["outcome"] == "error"
    failed = [c for c in row["audit"]["calls"] if c["error"]]
    assert failed and failed[0]["source"] == "judge" and failed[0]["tries"] >= 1


@pytest.mark.parametrize(
    ("url", "host"),
    [
        ("https://user:sk-secret@example.com:8443/v1?api-key=sk-secret#x", "example.com:8443"),
        ("https://my-res.openai.azure.com/", "my-res.openai.azure.com"),
        ("http://[::1]:8000/v1", "[::1]:8000"),
        ("example.com/v1", "example.com"),
        ("", None),
        ("http://", None),
    ],
)
def test_endpoint_host_drops_credentials_path_and_query(url: str, host: str | None) -> None:
    assert endpoint_host(url) == host
