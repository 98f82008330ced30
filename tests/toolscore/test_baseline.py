"""toolscore.baseline, toolscore.comparison and the toolscore regression command."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest

from toolscore import evaluate
from toolscore.baseline import (
    Baseline,
    compare_to_baseline,
    load_baseline,
    render_comparison,
    save_baseline,
)
from toolscore.cli import main
from toolscore.comparison import compare_models, render_comparison_table, save_comparison_report

GOLD = [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {"y": 2}}]
PERFECT = [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {"y": 2}}]
# One of two arguments wrong: argument P = R = F1 = 1/2, every call still made, in order.
# score = 0.4 * tool_f1 1 + 0.3 * 0.5 + 0.2 * sequence 1 + 0.1 * (1 - redundant 0) = 0.85
HALF = [{"tool": "a", "args": {"x": 1}}, {"tool": "b", "args": {"y": 3}}]


def test_save_and_load(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(GOLD))
    path = save_baseline(evaluate(GOLD, PERFECT), tmp_path / "out" / "baseline.json", gold)
    data = json.loads(path.read_text())
    assert set(data) == {"version", "created_at", "gold_file_hash", "metrics", "metadata"}
    assert data["gold_file_hash"] == hashlib.md5(gold.read_bytes()).hexdigest()
    assert data["metadata"] == {"gold_calls_count": 2, "trace_calls_count": 2}
    for name in ("score", "selection_accuracy", "argument_f1", "sequence_accuracy"):
        assert data["metrics"][name] == 1.0
    assert data["metrics"]["redundant_rate"] == 0.0
    assert load_baseline(path).metrics == data["metrics"]


def test_a_toolscore_1_10_baseline_is_read(tmp_path: Path) -> None:
    path = tmp_path / "baseline.json"
    path.write_text(
        json.dumps(
            {
                "version": "1.10.0",
                "created_at": "2025-05-01T10:00:00+00:00",
                "gold_file_hash": "",
                "metrics": {"selection_accuracy": 1.0, "argument_f1": 1.0, "redundant_rate": 0.0},
                "metadata": {"gold_calls_count": 2, "trace_calls_count": 2},
            }
        )
    )
    comparison = compare_to_baseline(evaluate(GOLD, HALF), load_baseline(path))
    assert [(i.metric_name, i.status) for i in comparison.items] == [
        ("argument_f1", "regression"),
        ("selection_accuracy", "stable"),
        ("redundant_rate", "stable"),
    ]
    assert comparison.summary == "FAIL: 1 regression(s) detected (threshold: 5%)"


def test_regressions_improvements_and_the_threshold() -> None:
    half = evaluate(GOLD, HALF)
    assert half.score == pytest.approx(0.85)
    baseline = Baseline("x", "then", "", {"score": 0.9, "argument_f1": 0.4, "redundant_rate": 0.0})
    comparison = compare_to_baseline(half, baseline)
    by_name = {i.metric_name: i for i in comparison.items}
    # 0.85 - 0.9 is -0.05 up to float noise: exactly the threshold, so stable
    assert by_name["score"].status == "stable"
    assert by_name["argument_f1"].status == "improvement"
    assert by_name["argument_f1"].delta == pytest.approx(0.1)
    assert by_name["argument_f1"].delta_percent == pytest.approx(25.0)
    assert comparison.passed and comparison.summary.startswith(
        "PASS: No regressions, 1 improvement"
    )
    strict = compare_to_baseline(half, baseline, threshold=0.01)
    assert [i.metric_name for i in strict.regressions] == ["score"]
    worse = evaluate(GOLD, [*PERFECT, {"tool": "c", "args": {}}])  # one extra call
    assert worse.redundant_rate == pytest.approx(1 / 3)
    lower = compare_to_baseline(worse, baseline)
    assert {i.metric_name: i.status for i in lower.items}["redundant_rate"] == "regression"


def test_unmeasured_metrics_do_not_fail() -> None:
    baseline = Baseline("x", "then", "", {"semantic_score": 0.8, "score": 1.0})
    comparison = compare_to_baseline(evaluate(GOLD, PERFECT), baseline)
    assert comparison.passed
    (unavailable,) = [i for i in comparison.items if i.status == "unavailable"]
    assert unavailable.metric_name == "semantic_score" and math.isnan(unavailable.current_value)
    items = {i["metric_name"]: i for i in comparison.to_dict()["items"]}
    assert items["semantic_score"]["current_value"] is None  # valid JSON
    json.dumps(comparison.to_dict(), allow_nan=False)
    lines = render_comparison(comparison).splitlines()
    assert lines[1].split() == ["semantic_score", "0.8000", "-", "-", "not", "measured"]


def test_a_changed_gold_file_is_reported(tmp_path: Path) -> None:
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(GOLD))
    path = save_baseline(evaluate(GOLD, PERFECT), tmp_path / "b.json", gold)
    gold.write_text(json.dumps(GOLD[:1]))
    with pytest.warns(UserWarning, match="gold.json changed since the baseline was saved"):
        comparison = compare_to_baseline(evaluate(GOLD, PERFECT), load_baseline(path), 0.05, gold)
    assert comparison.gold_changed
    assert comparison.summary.endswith("; the gold file changed since the baseline was saved")


def test_bad_baselines(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="Baseline file not found"):
        load_baseline(tmp_path / "none.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match=r"Invalid baseline file format: .* is not JSON"):
        load_baseline(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text("[1, 2]")
    with pytest.raises(ValueError, match="has no 'metrics' object"):
        load_baseline(tmp_path / "other.json")
    with pytest.raises(ValueError, match=r"between 0\.0 and 1\.0"):
        compare_to_baseline(evaluate(GOLD, PERFECT), Baseline("x", "", "", {}), threshold=2)


def test_compare_models(tmp_path: Path) -> None:
    results = {
        "half": evaluate(GOLD, HALF),
        "perfect": evaluate(GOLD, PERFECT),
        "extra": evaluate(GOLD, [*PERFECT, {"tool": "c", "args": {}}]),
    }
    comparison = compare_models(results)
    assert comparison["models"] == ["half", "perfect", "extra"]
    assert comparison["best_model"]["name"] == "perfect"
    assert comparison["best_model"]["score"] == 1.0
    assert comparison["rankings"]["score"][0] == "perfect"
    assert comparison["rankings"]["redundant_rate"] == ["half", "perfect", "extra"]
    assert comparison["rankings"]["argument_f1"][-1] == "half"
    assert comparison["metrics"]["argument_f1"]["half"] == pytest.approx(0.5)
    assert comparison["summary"]["total_models"] == 3
    assert compare_models({}) == {}
    path = save_comparison_report(comparison, tmp_path / "c" / "comparison.json")
    assert json.loads(path.read_text()) == json.loads(json.dumps(comparison))
    table = render_comparison_table(comparison).splitlines()
    assert table[0].split() == ["metric", "half", "perfect", "extra", "best"]
    assert table[1].split() == [
        "Score",
        "0.8500",
        "1.0000",
        f"{results['extra'].score:.4f}",
        "perfect",
    ]
    assert table[-1].startswith("Best: perfect (score 1.0000,")


def test_comparison_table_of_nothing_and_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from rich.console import Console

    from toolscore.comparison import print_comparison_table

    assert render_comparison_table({}) == "No models to compare."
    comparison = compare_models({"a": evaluate(GOLD, PERFECT), "b": evaluate(GOLD, HALF)})
    del comparison["metrics"]["argument_f1"]  # a metric the report does not hold is left out
    table = render_comparison_table(comparison)
    assert "Argument F1" not in table and "Sequence Acc" in table
    print_comparison_table(comparison)
    assert capsys.readouterr().out == table + "\n"
    console = Console(record=True, width=200)
    print_comparison_table(comparison, console)
    assert console.export_text() == table + "\n"


def test_cli_regression(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("gold.json").write_text(json.dumps(GOLD))
    Path("good.json").write_text(json.dumps(PERFECT))
    Path("half.json").write_text(json.dumps(HALF))
    save_baseline(evaluate(GOLD, PERFECT), "baseline.json", "gold.json")
    assert main(["regression", "baseline.json", "good.json", "-g", "gold.json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["metric", "baseline", "current", "change", "status"]
    assert out[-1] == "PASS: No significant changes (threshold: 5%)"

    code = main(["regression", "baseline.json", "half.json", "-g", "gold.json", "-o", "r.json"])
    assert code == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1].split() == ["argument_f1", "1.0000", "0.5000", "-0.5000", "REGRESSION"]
    assert out[-2] == "FAIL: 5 regression(s) detected (threshold: 5%)"
    assert out[-1] == "Comparison written to r.json"
    assert json.loads(Path("r.json").read_text())["regression_count"] == 5
    # a 60-point allowance lets the 50-point drops through
    assert main(["regression", "baseline.json", "half.json", "-g", "gold.json", "-t", "0.6"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["missing.json", "good.json", "-g", "gold.json"], "missing.json: no such file"),
        (["gold.json", "good.json", "-g", "gold.json"], "has no 'metrics' object"),
        (
            ["baseline.json", "good.json", "-g", "gold.json", "-t", "5"],
            "argument --threshold/-t: expected a number between 0 and 1, got 5",
        ),
        (["baseline.json", "good.json"], "the following arguments are required: --gold-file/-g"),
    ],
)
def test_cli_regression_bad_input(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("gold.json").write_text(json.dumps(GOLD))
    Path("good.json").write_text(json.dumps(PERFECT))
    save_baseline(evaluate(GOLD, PERFECT), "baseline.json")
    assert main(["regression", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
