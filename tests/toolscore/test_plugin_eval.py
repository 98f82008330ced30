"""toolscore_eval, toolscore_assert and the folders, as Toolscore 1.10's plugin offers them."""

from __future__ import annotations

import json

import pytest

GOLD = [
    {"tool": "search", "args": {"q": "x"}, "side_effects": {"http_ok": True}},
    {"tool": "book", "args": {"id": 1}},
]
TRACE = [{"tool": "search", "args": {"q": "x"}, "result": {"status": 200}}]


def _files(pytester: pytest.Pytester, base: str = "tests") -> None:
    pytester.mkdir(base) if not (pytester.path / base).exists() else None
    (pytester.path / base / "gold_standards").mkdir(parents=True)
    (pytester.path / base / "traces").mkdir(parents=True)
    (pytester.path / base / "gold_standards" / "gold.json").write_text(json.dumps(GOLD))
    (pytester.path / base / "traces" / "trace.json").write_text(json.dumps(TRACE))


def test_toolscore_eval_reads_the_default_folders(pytester: pytest.Pytester) -> None:
    _files(pytester)
    pytester.makepyfile(
        """
        from pathlib import Path

        def test_eval(toolscore_eval, toolscore_gold_dir, toolscore_trace_dir):
            assert toolscore_gold_dir == Path("tests/gold_standards")
            assert toolscore_trace_dir == Path("tests/traces")
            result = toolscore_eval("gold.json", "trace.json")
            # Toolscore: 1 of 2 tools invoked, 1 missed -> (1 - 1/2) / 2
            assert result.metrics["invocation_accuracy"] == 0.25
            assert result.metrics["side_effect_metrics"]["passed_checks"] == 1
            skipped = toolscore_eval("gold.json", "trace.json", validate_side_effects=False)
            assert "side_effect_metrics" not in skipped.metrics
            absolute = toolscore_eval(Path.cwd() / "tests/gold_standards/gold.json", "trace.json")
            assert absolute.score == result.score
        """
    )
    pytester.runpytest().assert_outcomes(passed=1)


def test_folders_are_relative_to_the_working_directory(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _files(pytester, "data")
    pytester.makeini("[pytest]\ntoolscore_gold_dir = data/gold_standards\n")
    pytester.makepyfile(
        test_eval="""
        def test_eval(toolscore_eval):
            assert toolscore_eval("gold.json", "trace.json").tool_recall == 0.5
        """
    )
    result = pytester.runpytest("--toolscore-trace-dir=data/traces")
    result.assert_outcomes(passed=1)
    # run from a sub folder: the same relative folders are looked up from there
    sub = pytester.mkdir("sub")
    monkeypatch.chdir(sub)
    result = pytester.runpytest(
        str(pytester.path / "test_eval.py"), "--rootdir", str(pytester.path)
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*data/gold_standards/gold.json: no such file*"])


def test_assertions_match_toolscore(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest
        from toolscore import evaluate
        from toolscore.pytest_plugin import ToolscoreAssertions

        GOLD = [{"tool": "search", "args": {"q": "x"}}, {"tool": "book", "args": {"id": 1}}]
        HALF = [{"tool": "search", "args": {"q": "x"}}]

        def test_static_calls():
            result = evaluate(GOLD, GOLD)
            ToolscoreAssertions.assert_invocation_accuracy(result, 1.0)
            ToolscoreAssertions.assert_all_metrics_above(result, 1.0)

        def test_invocation(toolscore_assert):
            toolscore_assert.assert_invocation_accuracy(evaluate(GOLD, HALF), 0.9)

        def test_custom_message(toolscore_assert):
            with pytest.raises(AssertionError, match="^mine"):
                toolscore_assert.assert_selection_accuracy(
                    evaluate(GOLD, [{"tool": "x"}]), 1, "mine"
                )

        def test_all(toolscore_assert):
            toolscore_assert.assert_all_metrics_above(evaluate(GOLD, HALF), 0.9)

        def test_redundancy(toolscore_assert):
            extra = GOLD + [{"tool": "ping", "args": {}}]
            toolscore_assert.assert_redundancy_below(evaluate(GOLD, extra), 0.1)
        """
    )
    result = pytester.runpytest()
    result.assert_outcomes(passed=2, failed=3)
    result.stdout.fnmatch_lines(
        [
            "E       AssertionError: Invocation accuracy is 0.2500, below the minimum 0.9.",
            # GOLD vs HALF by hand: tool F1 = argument F1 = 2/3, sequence 1/2, no
            # redundancy: 0.4 * 2/3 + 0.3 * 2/3 + 0.2 * 0.5 + 0.1 * 1 = 0.667
            "E       Tool calls scored 0.6667 (grade D).",
            "E       AssertionError: Metrics below 0.9: invocation_accuracy 0.2500, "
            "sequence_accuracy 0.5000, argument_f1 0.6667.",
            "E       AssertionError: Redundant call rate is 0.3333, which exceeds the maximum 0.1.",
        ],
        consecutive=False,
    )
