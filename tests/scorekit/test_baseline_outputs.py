"""The baseline in the HTML report (a delta column and a "vs baseline" section) and in JUnit XML
(``llm_regressed``, ``llm_baseline_*`` per compared test), also under pytest-xdist."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

CONFTEST = """
import os
from scorekit.report import RunScore, TextScoreRow, ToolScoreRow, active_recorder


def text_row(score):
    active_recorder().add(TextScoreRow(
        None, "texts_expect_f1_range", "f1", None, score, 0.0, 1.0, "passed", judge="fake",
        runs=[RunScore(0, 0, f1=score)],
    ))


def shift():
    return float(os.environ.get("SCORE_SHIFT", "0"))
"""

TESTS = """
import pytest
from conftest import shift, text_row
from scorekit.report import ToolScoreRow, active_recorder


def test_single():
    text_row(0.9 + shift())


def test_steady():
    text_row(0.8)


def test_tools():
    active_recorder().add(ToolScoreRow(None, "assert_tools", 0.5 - shift(), 0.0, "passed"))


@pytest.mark.llm_repeat(runs=5, min_pass_rate=0.0)
def test_repeated():
    import os
    n = int(os.environ.get("REPEAT_FAILS", "0"))
    counter = os.environ.setdefault("REPEAT_COUNTER", "0")
    os.environ["REPEAT_COUNTER"] = str(int(counter) + 1)
    assert int(counter) >= n
"""


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_suite=TESTS)
    return pytester


def _props(path: Path) -> dict[str, dict[str, str]]:
    return {
        c.get("name", ""): {p.get("name", ""): p.get("value", "") for p in c.iter("property")}
        for c in ET.parse(path).getroot().iter("testcase")
    }


def _run(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, shift: float, fails: int, *args: str
) -> pytest.RunResult:
    monkeypatch.setenv("SCORE_SHIFT", str(shift))
    monkeypatch.setenv("REPEAT_FAILS", str(fails))
    monkeypatch.delenv("REPEAT_COUNTER", raising=False)
    return pytester.runpytest_subprocess("-p", "no:randomly", *args)


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_junit_and_html_show_the_change_against_the_baseline(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, workers: list[str]
) -> None:
    _run(suite, monkeypatch, 0.0, 0, "--llm-report=base.json").assert_outcomes(passed=4)
    result = _run(
        suite,
        monkeypatch,
        -0.2,
        4,
        *workers,
        "--llm-baseline=base.json",
        "--junitxml=j.xml",
        "--llm-report-html=r.html",
    )
    result.assert_outcomes(passed=4)
    props = _props(suite.path / "j.xml")
    single = props["test_single"]
    assert single["llm_regressed"] == "true"
    assert single["llm_baseline_status"] == "regressed"
    assert single["llm_baseline_delta"] == "-0.2"
    assert single["llm_baseline_score"] == "0.9"
    steady = props["test_steady"]
    assert steady["llm_regressed"] == "false"
    assert steady["llm_baseline_status"] == "unchanged"
    assert steady["llm_baseline_delta"] == "0"
    tools = props["test_tools"]
    assert (tools["llm_regressed"], tools["llm_baseline_status"]) == ("false", "improved")
    assert tools["llm_baseline_delta"] == "0.2"
    # llm_repeat: 5/5 passed in the baseline, 1/5 now (Fisher's exact test decides).
    repeated = props["test_repeated"]
    assert repeated["llm_regressed"] == "true"
    assert repeated["llm_baseline_status"] == "regressed"
    assert float(repeated["llm_baseline_p_value"]) < 0.05

    html = (suite.path / "r.html").read_text()
    assert '<section id="baseline"><h2>vs baseline</h2>' in html
    assert "baseline base.json" in html
    # One delta cell per compared assertion, the regression first.
    cells = html.split('<section id="baseline">', 1)[1].split("</section>", 1)[0]
    assert cells.count('class="num delta"') == 4
    first = cells.split("<tr", 2)[2]
    assert first.startswith(' class="bad"><td>regressed</td>')
    assert '<span class="delta regressed">regressed -0.2000</span> (baseline 0.9000)' in html
    assert '<span class="delta improved">improved +0.2000</span>' in html


def test_without_a_baseline_no_baseline_property_or_column(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = _run(suite, monkeypatch, 0.0, 0, "--junitxml=j.xml", "--llm-report-html=r.html")
    result.assert_outcomes(passed=4)
    props = _props(suite.path / "j.xml")
    assert not any(name.startswith("llm_") for p in props.values() for name in p)
    html = (suite.path / "r.html").read_text()
    assert 'id="baseline"' not in html and "vs baseline" not in html
