"""End to end: real pytest_texts_score assertions with a custom judge, through the summary,
JUnit properties and the JSON report (the judge is a deterministic object in the test dir)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

JUDGE = '''
class WordJudge:
    """One question per word; a question is supported when the other text has the word."""

    def make_questions(self, text):
        return [f"Does the text mention {w}?" for w in text.lower().split()]

    def answer_questions(self, text, questions):
        words = set(text.lower().split())
        return [1.0 if q.rsplit(" ", 1)[-1].rstrip("?") in words else 0.0 for q in questions]


judge = WordJudge()
'''

TESTS = """
from pytest_texts_score import texts_agg_f1_mean, texts_expect_f1_range


def test_same():
    texts_expect_f1_range("paris is big", "paris is big", 0.9, 1.0)


def test_drift():
    texts_expect_f1_range("paris is big", "lyon is small", 0.9, 1.0)


def test_agg():
    texts_agg_f1_mean("a b c d", "a b c x", 0.75, max_delta=0.1, full_runs=3)
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makepyfile(wordjudge=JUDGE, test_texts=TESTS)
    pytester.syspathinsert()
    return pytester


def test_real_assertions_reach_summary_junit_and_report(suite: pytest.Pytester) -> None:
    result = suite.runpytest(
        "--llm-provider=wordjudge:judge", "--llm-report=r.json", "--junitxml=j.xml"
    )
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*= text scores (pytest_texts_score) =*",
            "test_texts.py::test_same*f1 *1.0000*[[]0.9, 1.0[]]*PASSED",
            "test_texts.py::test_drift*f1 *0.3333 *[[]0.9, 1.0[]]*FAILED",
            "test_texts.py::test_agg*f1 mean*0.7500 *3*PASSED",
            "text scores: 3 assertions: 2 passed, 1 failed",
            "judge *: * calls, * cache hits, * s judge time, tokens n/a, est. cost n/a",
            "scorekit: JSON report written to *r.json",
        ]
    )
    doc = json.loads((suite.path / "r.json").read_text())
    drift = next(r for r in doc["texts"] if r["test_id"].endswith("test_drift"))
    assert drift["outcome"] == "failed" and drift["given"] == "lyon is small"
    assert any(e["answer"] < 1 for e in drift["evidence"])
    props = {
        c.get("name"): {p.get("name"): p.get("value") for p in c.iter("property")}
        for c in ET.parse(suite.path / "j.xml").getroot().iter("testcase")
    }
    assert props["test_same"]["texts_f1_score"] == "1"
    assert props["test_agg"]["texts_f1_mean_score"] == "0.75"
