"""The shared reporting plugin, driven through pytester with rows recorded by a test file.

The rows are recorded the way both packages record them (``active_recorder().add(row)``), so
these tests pin the plugin's behaviour without depending on a judge or on tool extraction.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest

RECORDING_CONFTEST = """
from scorekit.report import Evidence, RunScore, TextScoreRow, ToolScoreRow, active_recorder


def text_row(score, low=0.8, high=1.0, outcome=None, agg=None, runs=(), metric="f1"):
    outcome = outcome or ("passed" if score is not None and low <= score <= high else "failed")
    row = TextScoreRow(
        None, "texts_expect_f1_range" if agg is None else "texts_agg_f1_" + agg, metric, agg,
        score, low, high, outcome, judge="fake",
        runs=[RunScore(i, i, f1=s, precision=s, recall=s) for i, s in enumerate(runs)],
        evidence=[Evidence("recall", "Does the text name the capital?", 0.0, [0, 0])],
        expected="Paris is the capital.", given="Lyon is the capital.",
        error="JudgeUnavailableError: refused" if outcome == "error" else None,
    )
    active_recorder().add(row)


def tool_row(score, threshold=0.9, missing=()):
    active_recorder().add(ToolScoreRow(
        None, "assert_tools", score, threshold, "passed" if score >= threshold else "failed",
        metrics={"tool_f1": score, "argument_f1": 1.0}, missing=list(missing),
    ))
"""

TESTS = """
from conftest import text_row, tool_row


def test_single():
    text_row(0.9)


def test_agg():
    text_row(0.7, agg="mean", runs=[0.6, 0.7, 0.8])


def test_error():
    text_row(None, outcome="error", metric="recall")


def test_tools():
    tool_row(0.5, missing=["book_flight"])


def test_plain():
    assert True
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(RECORDING_CONFTEST)
    pytester.makepyfile(test_suite=TESTS)
    return pytester


def test_unrelated_run_prints_nothing_and_writes_nothing(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_ok():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest("--junitxml=junit.xml")
    result.assert_outcomes(passed=1)
    result.stdout.no_fnmatch_line("*scores*")
    result.stdout.no_fnmatch_line("scorekit:*")
    assert "property" not in (pytester.path / "junit.xml").read_text()


def test_summary_has_a_row_per_assertion_and_totals(suite: pytest.Pytester) -> None:
    result = suite.runpytest()
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(
        [
            "*= text scores (pytest_texts_score) =*",
            "test*metric*score*bounds*runs*result",
            "test_suite.py::test_single*f1 *0.9000 *[[]0.8, 1.0[]]*PASSED",
            "test_suite.py::test_agg*f1 mean*0.7000 ±0.0816*[[]0.8, 1.0[]]*3*FAILED",
            "test_suite.py::test_error*recall*-*ERROR",
            "text scores: 3 assertions: 1 passed, 1 failed, 1 error",
            "judge *: 0 calls, 0 cache hits, 0.00 s judge time, tokens n/a, est. cost n/a",
            "*= tool-call scores (toolscore) =*",
            "test_suite.py::test_tools  0.5000  0.9  FAILED  book_flight  -",
            "tool calls: 1 evaluation: 0 passed, 1 failed; mean score 0.5000",
        ]
    )
    result.stdout.no_fnmatch_line("*Does the text name the capital*")


def test_quiet_prints_one_totals_line_per_package(suite: pytest.Pytester) -> None:
    result = suite.runpytest("-q")
    result.stdout.fnmatch_lines(
        [
            "text scores: 3 assertions: 1 passed, 1 failed, 1 error; judge *: 0 calls*",
            "tool calls: 1 evaluation: 0 passed, 1 failed; mean score 0.5000",
        ]
    )
    result.stdout.no_fnmatch_line("*= text scores*")
    result.stdout.no_fnmatch_line("test_suite.py::test_single*PASSED")


def test_verbose_shows_runs_errors_and_evidence(suite: pytest.Pytester) -> None:
    result = suite.runpytest("-v")
    result.stdout.fnmatch_lines(
        [
            "test_suite.py::test_agg*FAILED",
            "    texts_agg_f1_mean (judge fake, *)",
            "    runs: 0.6000 0.7000 0.8000",
            "    recall (run 0/0): 0.0000  Does the text name the capital?",
            "test_suite.py::test_error*ERROR",
            "*error: JudgeUnavailableError: refused",
            "test_suite.py::test_tools*FAILED*",
            "    assert_tools, tool_f1 0.5000, argument_f1 1.0000",
        ]
    )


def test_scores_become_junit_properties(suite: pytest.Pytester) -> None:
    suite.runpytest("--junitxml=junit.xml").assert_outcomes(passed=5)
    root = ET.parse(suite.path / "junit.xml").getroot()
    props = {
        case.get("name"): {p.get("name"): p.get("value") for p in case.iter("property")}
        for case in root.iter("testcase")
    }
    assert props["test_single"] == {
        "texts_f1_score": "0.9",
        "texts_f1_low": "0.8",
        "texts_f1_high": "1",
        "texts_f1_outcome": "passed",
    }
    assert props["test_agg"]["texts_f1_mean_runs"] == "0.6,0.7,0.8"
    assert props["test_agg"]["texts_f1_mean_outcome"] == "failed"
    assert "texts_recall_score" not in props["test_error"]
    assert props["test_error"]["texts_recall_outcome"] == "error"
    assert props["test_tools"] == {
        "toolscore_score": "0.5",
        "toolscore_min_score": "0.9",
        "toolscore_outcome": "failed",
    }
    assert props["test_plain"] == {}


def test_two_assertions_in_one_test_get_distinct_property_names(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(RECORDING_CONFTEST)
    pytester.makepyfile(
        "from conftest import text_row\ndef test_twice():\n    text_row(0.9)\n    text_row(0.95)\n"
    )
    pytester.runpytest("--junitxml=junit.xml").assert_outcomes(passed=1)
    names = [
        p.get("name") for p in ET.parse(pytester.path / "junit.xml").getroot().iter("property")
    ]
    assert "texts_f1_score" in names and "texts_f1_2_score" in names


def test_xdist_workers_rows_reach_the_controller(suite: pytest.Pytester) -> None:
    pytest.importorskip("xdist")
    suite.makepyfile(
        test_more="from conftest import text_row\n"
        + "".join(f"def test_extra_{i}():\n    text_row(0.{i + 1})\n" for i in range(4))
    )
    result = suite.runpytest_subprocess("-n", "2", "--llm-report=r.json", "--junitxml=j.xml")
    result.assert_outcomes(passed=9)
    result.stdout.fnmatch_lines(
        [
            "*= text scores (pytest_texts_score) =*",
            "test_more.py::test_extra_0*0.1000*FAILED",
            "test_more.py::test_extra_3*0.4000*FAILED",
            "test_suite.py::test_single*0.9000*PASSED",
            "text scores: 7 assertions: 1 passed, 5 failed, 1 error",
            "*= tool-call scores (toolscore) =*",
            "tool calls: 1 evaluation: 0 passed, 1 failed; mean score 0.5000",
            "scorekit: JSON report written to *r.json",
        ]
    )
    # written once, by the controller, with every worker's rows
    doc = json.loads((suite.path / "r.json").read_text())
    assert doc["summary"]["texts"]["total"] == 7
    assert doc["summary"]["tools"]["total"] == 1
    names = [p.get("name") for p in ET.parse(suite.path / "j.xml").getroot().iter("property")]
    assert names.count("texts_f1_score") == 5 and names.count("toolscore_score") == 1


def test_reports_written_at_session_end(suite: pytest.Pytester) -> None:
    result = suite.runpytest("--llm-report=out/r.json", "--llm-report-html=out/r.html")
    result.stdout.fnmatch_lines(
        ["scorekit: JSON report written to *r.json", "scorekit: HTML report written to *r.html"]
    )
    doc = json.loads((suite.path / "out" / "r.json").read_text())
    assert doc["summary"]["texts"] == {"total": 3, "passed": 1, "failed": 1, "error": 1}
    assert [r["test_id"] for r in doc["texts"]] == [
        "test_suite.py::test_single",
        "test_suite.py::test_agg",
        "test_suite.py::test_error",
    ]
    assert doc["texts"][1]["runs"][2]["f1"] == 0.8
    assert doc["tools"][0]["missing"] == ["book_flight"]
    page = (suite.path / "out" / "r.html").read_text()
    assert page.count('<article class="row') == 4


def test_unwritable_report_path_is_one_line_not_a_crash(suite: pytest.Pytester) -> None:
    (suite.path / "blocker").write_text("a file, not a folder")
    result = suite.runpytest("--llm-report=blocker/r.json")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["scorekit: cannot write report *blocker*r.json*"])
    result.stdout.no_fnmatch_line("*Traceback*")


def test_ini_twins_name_the_report_files(suite: pytest.Pytester) -> None:
    suite.makeini("[pytest]\nllm_report = from_ini.json\nllm_report_html = from_ini.html\n")
    result = suite.runpytest()
    result.stdout.fnmatch_lines(["scorekit: JSON report written to *from_ini.json"])
    assert json.loads((suite.path / "from_ini.json").read_text())["summary"]["tools"]["total"] == 1
    assert (suite.path / "from_ini.html").read_text().startswith("<!doctype html>")


def test_inert_run_writes_no_report_even_when_asked(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_ok():\n    pass\n")
    result = pytester.runpytest("--llm-report=r.json", "--llm-report-html=r.html")
    result.assert_outcomes(passed=1)
    assert not (pytester.path / "r.json").exists() and not (pytester.path / "r.html").exists()
    result.stdout.no_fnmatch_line("scorekit:*")


def test_api_key_never_reaches_the_summary_or_the_reports(pytester: pytest.Pytester) -> None:
    key = "sk-test-0123456789abcdef"
    pytester.makeconftest(RECORDING_CONFTEST)
    pytester.makepyfile(
        "from scorekit.report import TextScoreRow, active_recorder\n"
        "def test_leaky():\n"
        "    active_recorder().add(TextScoreRow(None, 'texts_expect_f1_equal', 'f1', None, None,"
        f" 0.9, 1.0, 'error', error='401 for key {key}'))\n"
    )
    result = pytester.runpytest(
        f"--llm-api-key={key}", "-v", "--llm-report=r.json", "--llm-report-html=r.html"
    )
    result.stdout.fnmatch_lines(["*error: 401 for key [[]redacted[]]"])
    assert key not in result.stdout.str()
    for name in ("r.json", "r.html"):
        text = (pytester.path / name).read_text()
        assert key not in text and "401 for key [redacted]" in text
