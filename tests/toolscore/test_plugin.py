"""The toolscore pytest plugin: failure text in pytest's output, fixtures, cheap import."""

from __future__ import annotations

import subprocess
import sys

import pytest

FAILING = """
import toolscore

def test_weather():
    toolscore.assert_tools(
        expected=[{"tool": "get_weather", "args": {"city": "NYC"}},
                  {"tool": "get_time", "args": {}}],
        actual=[{"tool": "get_weather", "args": {"city": "Boston"}},
                {"tool": "send_email", "args": {"to": "x@y.z"}}],
    )
"""


def test_failure_shows_the_product_failure_text(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(FAILING)
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    # By hand: E = A = 2, one pair (get_weather) -> tool F1 0.5; argument units: the pair's
    # city disagrees (0 of 1), the missing get_time() loses its one unit -> precision 0/1,
    # recall 0/2, F1 0; names [get_weather, get_time] vs [get_weather, send_email] are one
    # substitution apart -> sequence 1 - 1/2 = 0.5; redundant rate 1 - 0.5 = 0.5.
    # score = 0.4 * 0.5 + 0.3 * 0 + 0.2 * 0.5 + 0.1 * (1 - 0.5) = 0.35.
    result.stdout.fnmatch_lines(
        [
            "E       toolscore.ToolScoreAssertionError: Tool calls scored 0.3500 (grade F), below"
            " the required 0.9.",
            "E       Expected 2 call(s); the agent made 2. 1 expected call(s) were paired *",
            "E       Expected calls and the actual calls paired with them:",
            "E         1. get_weather(city='NYC') -> actual call #1 get_weather(city='Boston'):",
            "E              city: expected 'NYC', actual 'Boston' (NOT ok)",
            "E         2. get_time() -> no actual call (missing).",
            "E       Missing calls (1), expected but never made:",
            "E         - get_time() (expected call #2)",
            "E       Extra calls (1), made but not expected:",
            "E         - send_email(to='x@y.z') (actual call #2)",
            "E       Scores: score 0.3500 (required: 0.9); tool F1 0.5000, argument F1 0.0000,"
            " sequence 0.5000, redundant rate 0.5000, required-call recall 0.0000.",
            "E       Hint: The agent never called 'get_time'; *",
        ]
    )
    # toolscore's own frames are hidden: the traceback ends in the test
    assert "_assertions.py" not in result.stdout.str()
    assert "_decide" not in result.stdout.str()


def test_expect_failure_lists_broken_expectations(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        from toolscore import expect

        def test_flow():
            trace = [{"tool": "book_flight", "args": {"id": 1}},
                     {"tool": "search_flights", "args": {"to": "NYC"}}]
            expect(trace).calls("search_flights").then_calls("book_flight").does_not_call(
                "book_flight", id=1).with_score(0.0).run()
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "E       toolscore.ToolScoreAssertionError: The tool calls broke 2 expectation(s)*",
            "E       Broken expectations:",
            "E         - then_calls('book_flight') must come after calls('search_flights') *",
            "E         - does_not_call('book_flight', id=1) was broken by actual call(s) #1 *",
        ]
    )
    assert "expect.py" not in result.stdout.str()


def test_fixtures(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        def test_assert_tools_fixture(toolscore_assert_tools):
            result = toolscore_assert_tools(
                expected=[{"tool": "a"}], actual=[{"tool": "a", "args": {}}])
            assert result.score == 1.0

        def test_helpers(toolscore_assert):
            result = toolscore_assert.assert_score([{"tool": "a"}], [{"tool": "a", "args": {}}])
            toolscore_assert.assert_argument_f1(result, 1.0)
            toolscore_assert.assert_selection_accuracy(result, 1.0)
            toolscore_assert.assert_sequence_accuracy(result, 1.0)
            toolscore_assert.assert_redundancy_below(result, 0.0)
            toolscore_assert.assert_all_metrics_above(result, 1.0)

        def test_helper_failure(toolscore_assert):
            result = toolscore_assert.assert_score(
                [{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 2}}], min_score=0.0)
            toolscore_assert.assert_argument_f1(result, 0.5)

        def test_dirs(toolscore_gold_dir, toolscore_trace_dir):
            assert toolscore_gold_dir.name == "golds"
            assert toolscore_trace_dir.parts[-2:] == ("tests", "traces")
        """
    )
    result = pytester.runpytest("--toolscore-gold-dir=golds")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        ["E       AssertionError: Argument F1 score is 0.0000, below the minimum 0.5."]
    )


def test_assertions_show_up_in_the_session_rows(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import toolscore

        def test_ok():
            toolscore.assert_tools([{"tool": "a"}], [{"tool": "a", "args": {}}])
        """
    )
    pytester.makeconftest(
        """
        def pytest_sessionfinish(session):
            from scorekit.pytest_state import get_session
            rows = get_session(session.config).recorder.rows
            print("ROWS", ";".join(f"{r.function}/{r.outcome}/{r.test_id}" for r in rows))
        """
    )
    result = pytester.runpytest("-s")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*ROWS assert_tools/passed/*::test_ok"])


def test_a_run_without_toolscore_is_unaffected(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_plain():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest()
    result.assert_outcomes(passed=1)
    assert result.ret == 0


def test_plugin_import_is_cheap() -> None:
    code = (
        "import sys, toolscore.pytest_plugin, toolscore;"
        "print(sorted(m for m in ('numpy', 'rapidfuzz', 'openai', 'rich', 'onnxruntime')"
        " if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"


def test_toolscore_eval_reads_files_from_the_configured_folders(pytester: pytest.Pytester) -> None:
    pytester.mkdir("golds")
    pytester.mkdir("traces")
    (pytester.path / "golds" / "weather.json").write_text(
        '[{"tool": "get_weather", "args": {"city": "NYC"}}]'
    )
    (pytester.path / "traces" / "weather.json").write_text(
        '[{"tool": "get_weather", "args": {"city": "NYC"}}, {"tool": "extra", "args": {}}]'
    )
    pytester.makepyfile(
        """
        def test_files(toolscore_eval):
            result = toolscore_eval("weather.json", "weather.json")
            assert result.tool_recall == 1.0
            assert [c["tool"] for c in result.extra_calls] == ["extra"]
        """
    )
    result = pytester.runpytest("--toolscore-gold-dir=golds", "--toolscore-trace-dir=traces")
    result.assert_outcomes(passed=1)
