"""End to end: real toolscore assertions reach the summary and the JUnit properties."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

TESTS = """
import toolscore


def test_good_agent():
    toolscore.assert_tools(
        [{"tool": "search", "args": {"q": toolscore.Regex("cat.*")}}],
        [{"tool": "search", "args": {"q": "cats"}}],
    )


def test_forgetful_agent():
    toolscore.assert_tools(
        [{"tool": "search"}, {"tool": "book", "args": {"id": 1}}],
        [{"tool": "search", "args": {"q": "x"}}],
        min_score=0.9,
    )
"""


def test_tool_assertions_reach_summary_and_junit(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_agent=TESTS)
    result = pytester.runpytest("--junitxml=j.xml", "-v")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*= tool-call scores (toolscore) =*",
            "test*score*min*result*missing*extra",
            "test_agent.py::test_good_agent *1.0000*0.9 *PASSED*",
            "test_agent.py::test_forgetful_agent *0.6667*0.9 *FAILED*book*",
            "    assert_tools, tool_f1 0.6667, argument_f1 0.6667, sequence_accuracy 0.5000, *",
            "tool calls: 2 evaluations: 1 passed, 1 failed; mean score *",
        ]
    )
    result.stdout.no_fnmatch_line("*text scores*")
    props = {
        c.get("name"): {p.get("name"): p.get("value") for p in c.iter("property")}
        for c in ET.parse(pytester.path / "j.xml").getroot().iter("testcase")
    }
    assert props["test_good_agent"]["toolscore_score"] == "1"
    assert props["test_forgetful_agent"]["toolscore_outcome"] == "failed"
    assert float(props["test_forgetful_agent"]["toolscore_score"]) < 0.9
