"""Baselines and regressions: the plugin (through pytester, rows recorded by the test file),
``scorekit diff``, and the significance rule on seeded run scores."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekit.cli._diff import main as diff_main
from scorekit.report._baseline import compare_reports

CONFTEST = """
import os
from scorekit.report import RunScore, TextScoreRow, ToolScoreRow, active_recorder


def text_row(score, runs=()):
    active_recorder().add(TextScoreRow(
        None, "texts_agg_f1_mean" if runs else "texts_expect_f1_range", "f1",
        "mean" if runs else None, score, 0.0, 1.0, "passed", judge="fake",
        runs=[RunScore(i, i, f1=s) for i, s in enumerate(runs)],
    ))


def shift():
    return float(os.environ.get("SCORE_SHIFT", "0"))
"""

TESTS = """
import os
from conftest import shift, text_row
from scorekit.report import ToolScoreRow, active_recorder


def test_single():
    text_row(0.9 + shift())


def test_tools():
    active_recorder().add(ToolScoreRow(None, "assert_tools", 0.8, 0.0, "passed"))


def test_maybe_new():
    if os.environ.get("WITH_NEW"):
        text_row(0.5)
"""


def _run(
    pytester: pytest.Pytester,
    monkeypatch: pytest.MonkeyPatch,
    shift: float,
    *args: str,
    new: bool = False,
) -> pytest.RunResult:
    monkeypatch.setenv("SCORE_SHIFT", str(shift))
    if new:
        monkeypatch.setenv("WITH_NEW", "1")
    else:
        monkeypatch.delenv("WITH_NEW", raising=False)
    return pytester.runpytest_subprocess("-p", "no:randomly", *args)


@pytest.fixture
def suite(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_suite=TESTS)
    return pytester


def test_regression_fails_the_session_and_says_why_last(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(suite, monkeypatch, 0.0, "--llm-report=base.json").assert_outcomes(passed=3)
    result = _run(
        suite,
        monkeypatch,
        -0.2,
        "--llm-baseline=base.json",
        "--llm-fail-on-regression",
        new=True,
    )
    result.assert_outcomes(passed=3)  # every assertion passed ...
    assert result.ret == 1  # ... and the session still fails
    result.stdout.fnmatch_lines(
        [
            "*vs baseline (llm-scorekit)*",
            "baseline: base.json",
            "1 regressed, 0 improved, 1 new, 0 gone, 1 unchanged (min delta 0.05)",
            "REGRESSED  test_suite.py::test_single texts_expect_f1_range f1  0.9000 -> 0.7000"
            "  -0.2000",
            "NEW        test_suite.py::test_maybe_new texts_expect_f1_range f1  - -> 0.5000",
        ]
    )
    assert result.outlines[-1] == (
        "scorekit: exit 1: 1 assertion regressed against the baseline (--llm-fail-on-regression)"
    )


def test_small_drop_and_no_fail_flag_keep_exit_0(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(suite, monkeypatch, 0.0, "--llm-report=base.json", new=True)
    small = _run(suite, monkeypatch, -0.04, "--llm-baseline=base.json", "--llm-fail-on-regression")
    assert small.ret == 0
    small.stdout.fnmatch_lines(["0 regressed, 0 improved, 0 new, 1 gone, 2 unchanged*"])
    # Without the flag a regression is reported, not fatal; the ini twins work as well.
    suite.makeini("[pytest]\nllm_regression_delta = 0.3\n")
    wide = _run(suite, monkeypatch, -0.2, "--llm-baseline=base.json", "--llm-fail-on-regression")
    assert wide.ret == 0
    wide.stdout.fnmatch_lines(["0 regressed, * (min delta 0.3)"])
    reported = _run(suite, monkeypatch, -0.5, "--llm-baseline=base.json")
    assert reported.ret == 0
    reported.stdout.fnmatch_lines(["1 regressed*"])


def test_a_baseline_that_is_not_a_report(
    suite: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    (suite.path / "other.json").write_text('{"rows": []}')
    result = _run(suite, monkeypatch, 0.0, "--llm-baseline=other.json")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--llm-baseline 'other.json' is not an llm-scorekit report*"])
    missing = _run(suite, monkeypatch, 0.0, "--llm-baseline=nope.json")
    missing.stderr.fnmatch_lines(["*--llm-baseline 'nope.json' cannot be read*"])
    flag_only = _run(suite, monkeypatch, 0.0, "--llm-fail-on-regression")
    flag_only.stderr.fnmatch_lines(["*--llm-fail-on-regression needs --llm-baseline PATH*"])


def _report(runs: list[float], repeat: dict[str, int] | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "test_id": "t::agg",
        "function": "texts_agg_f1_mean",
        "metric": "f1",
        "aggregation": "mean",
        "score": sum(runs) / len(runs),
        "runs": [{"question_run": i, "answer_run": i, "f1": s} for i, s in enumerate(runs)],
    }
    if repeat is not None:
        row["repeat"] = repeat
    return {"schema": "llm-scorekit-report/1", "texts": [row], "tools": []}


def _session(rng: random.Random, mean: float) -> dict[str, Any]:
    """A scripted judge's aggregated assertion: five noisy runs around ``mean``."""
    return _report([min(1.0, max(0.0, rng.gauss(mean, 0.03))) for _ in range(5)])


def test_degraded_judge_flagged_same_judge_not_over_20_seeded_sessions() -> None:
    false_flags = flagged = 0
    for seed in range(20):
        rng = random.Random(seed)
        base = _session(rng, 0.8)
        same = _session(rng, 0.8)
        worse = _session(rng, 0.55)
        false_flags += compare_reports(base, same).regressed
        flagged += compare_reports(base, worse).regressed
    assert false_flags <= 1
    assert flagged == 20


def test_noisy_runs_need_significance_not_just_a_drop() -> None:
    # The mean fell by 0.1 but the runs overlap: not significant, not a regression.
    old = _report([0.9, 0.5, 0.95, 0.6])
    new = _report([0.8, 0.4, 0.85, 0.5, 0.7])
    change = compare_reports(old, new).changes[0]
    assert change.test == "welch"
    assert change.p_value is not None and change.p_value > 0.05
    assert change.status == "unchanged"


def test_llm_repeat_pass_counts_use_fisher() -> None:
    old = _report([0.9, 0.9, 0.9], repeat={"runs": 10, "passed": 10})
    new = _report([0.9, 0.9, 0.9], repeat={"runs": 10, "passed": 3})
    result = compare_reports(old, new)
    (rate,) = [c for c in result.changes if c.label == "llm_repeat pass rate"]
    assert rate.test == "fisher"
    assert rate.status == "regressed"
    assert rate.p_value == pytest.approx(0.0015479876, rel=1e-6)


def test_scorekit_diff_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new, bad = tmp_path / "old.json", tmp_path / "new.json", tmp_path / "bad.json"
    old.write_text(json.dumps(_report([0.9, 0.92, 0.91])))
    new.write_text(json.dumps(_report([0.6, 0.62, 0.61])))
    bad.write_text("not json")
    assert diff_main(["diff", str(old), str(old)]) == 0
    assert diff_main(["diff", str(old), str(new)]) == 1
    assert "REGRESSED  t::agg texts_agg_f1_mean f1" in capsys.readouterr().out
    assert diff_main(["diff", str(old), str(new), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["counts"]["regressed"] == 1
    assert doc["changes"][0]["test"] == "welch"
    assert diff_main(["diff", str(old), str(new), "--min-delta", "0.5"]) == 0
    assert diff_main(["diff", str(old), str(bad)]) == 2
    assert "NEW 'bad' " not in capsys.readouterr().err
    # The console script itself (installed by the package).
    proc = subprocess.run(
        [sys.executable, "-m", "scorekit.cli._diff", "diff", str(old), str(tmp_path / "x.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert "OLD" not in proc.stderr and "NEW" in proc.stderr and "cannot be read" in proc.stderr
