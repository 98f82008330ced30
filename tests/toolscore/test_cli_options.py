"""toolscore eval / compare: Toolscore 1.10's options beside ours, with our exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscore.cli import main

GOLD = [
    {"tool": "fetch", "args": {"url": {"$regex": "https://.*"}}, "side_effects": {"http_ok": True}},
    {"tool": "write_file", "args": {"path": "out.txt"}, "side_effects": {"file_exists": "out.txt"}},
]
TRACE = [
    {"tool": "fetch", "args": {"url": "https://x.org"}, "result": {"status": 200}},
    {"tool": "write_file", "args": {"path": "out.txt"}},
    {"tool": "run_shell", "args": {"command": "rm -rf /tmp/x"}},
]
RULES = [{"tool": "run_shell", "args": {"command": {"$regex": "rm -rf"}}, "reason": "destructive"}]


@pytest.fixture(autouse=True)
def _files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("gold.json").write_text(json.dumps(GOLD))
    Path("trace.json").write_text(json.dumps(TRACE))
    Path("perfect.json").write_text(json.dumps(TRACE[:2]))
    Path("forbidden.json").write_text(json.dumps(RULES))


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_side_effects_are_checked_and_can_be_skipped(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "eval", "gold.json", "perfect.json")
    assert code == 0
    assert "Side effects: 1 of 2 checks passed; write_file file_exists: validator failed." in out
    Path("out.txt").write_text("done")
    _, out, _ = _run(capsys, "eval", "gold.json", "perfect.json")
    assert "Side effects: 2 of 2 checks passed." in out
    _, out, _ = _run(capsys, "eval", "gold.json", "perfect.json", "--no-side-effects")
    assert not [line for line in out if line.startswith("Side effects")]


def test_forbidden_calls_and_fail_on_violations(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("eval", "gold.json", "trace.json", "--min-score", "0.5", "--no-side-effects")
    code, out, _ = _run(capsys, *args, "--forbidden", "forbidden.json")
    assert code == 0  # the score still meets 0.5; violations alone do not fail without the flag
    assert "Forbidden call: actual call #3 run_shell(command='rm -rf /tmp/x') (destructive)." in out
    code, out, _ = _run(capsys, *args, "--forbidden", "forbidden.json", "--fail-on-violations")
    assert code == 1
    assert out[-1] == "FAIL: 1 forbidden call(s) or credential(s) found (--fail-on-violations)"
    code, _, _ = _run(capsys, *args, "--fail-on-violations")  # no rules: nothing forbidden
    assert code == 0


def test_weights_change_the_score(capsys: pytest.CaptureFixture[str]) -> None:
    # Only selection (tool F1 = 2*(2/3*1)/(2/3+1) = 0.8) counts: the score is 0.8.
    code, out, _ = _run(
        capsys,
        "eval",
        "gold.json",
        "trace.json",
        "--no-side-effects",
        *("--weight", "argument_f1=0", "--weight", "sequence_accuracy=0"),
        *("--weight", "redundant_rate=0", "--min-score", "0.8"),
    )
    assert code == 0 and out[-1].startswith("PASS: trace.json: score 0.8000")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--weight", "foo=1"], "toolscore: error: --weight: Unknown weight keys: 'foo'"),
        (["--weight", "foo"], "--weight takes NAME=VALUE, like --weight required_call_recall=0.3"),
        (["--weight", "argument_f1=-1"], "non-negative"),
        (["--forbidden", "missing.json"], "missing.json: no such file"),
        (["--forbidden", "bad_rules.json"], "needs a non-empty 'tool' string"),
        (["--report", "md"], "--report md needs -o PATH"),
    ],
)
def test_bad_options_exit_two(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    Path("bad_rules.json").write_text('[{"tool": 1}]')
    code, out, err = _run(capsys, "eval", "gold.json", "trace.json", *argv)
    assert (code, out) == (2, [])
    assert message in err and err.count("\n") == 1


def test_save_baseline_then_regression(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "eval", "gold.json", "perfect.json", "--save-baseline", "b.json")
    assert code == 0 and out[-1] == "Baseline written to b.json"
    data = json.loads(Path("b.json").read_text())
    assert data["metrics"]["score"] == 1.0 and data["gold_file_hash"]
    code, out, _ = _run(capsys, "regression", "b.json", "trace.json", "-g", "gold.json")
    assert code == 1 and out[-1].startswith("FAIL: ")


def test_verbose_lists_the_metrics(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "eval", "gold.json", "trace.json", "-v", "--no-side-effects")
    start = out.index("Metrics:")
    shown = dict(line.strip().split(": ") for line in out[start + 1 : start + 12])
    assert shown["score"] == "0.8200" and shown["invocation_accuracy"] == "0.7500"
    assert shown["redundant_rate"] == "0.3333"


def test_compare_names_and_the_comparison_document(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "compare", "gold.json", "trace.json", "perfect.json", "-n", "gpt", "-n", "claude"
    )
    assert code == 0
    assert [line.split()[:2] for line in out[1:3]] == [["1", "claude"], ["2", "gpt"]]
    code, out, _ = _run(
        capsys, "compare", "gold.json", "trace.json", "perfect.json", "-o", "comparison.json"
    )
    assert out[-1] == "Comparison written to comparison.json"
    document = json.loads(Path("comparison.json").read_text())
    assert document["models"] == ["trace", "perfect"]  # file stems, as Toolscore names them
    assert document["best_model"]["name"] == "perfect"
    assert document["rankings"]["redundant_rate"] == ["perfect", "trace"]
    code, out, _ = _run(capsys, "compare", "gold.json", "trace.json", "-o", "report.md")
    assert code == 0 and out[-1] == "md report written to report.md"


def test_compare_names_must_match_the_traces(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "compare", "gold.json", "trace.json", "perfect.json", "-n", "x")
    assert code == 2
    assert err == (
        "toolscore: error: 1 name(s) for 2 trace file(s); give one -n NAME per trace, "
        "in the same order\n"
    )


def test_debug_lists_fixes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = _run(capsys, "eval", "gold.json", "trace.json", "-d", "--no-side-effects")
    start = out.index("Issues to fix, most urgent first:")
    assert out[start + 1] == "  1. An unexpected call to 'run_shell'."
    assert out[start + 2].startswith("     Fix: ")
    _, out, _ = _run(capsys, "eval", "gold.json", "perfect.json", "--debug", "--no-side-effects")
    assert "Nothing to fix: every expected call was made as expected." in out


def test_html_csv_and_markdown_reports(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys,
        "eval",
        "gold.json",
        "trace.json",
        *("--html", "r/report.html", "--csv", "r/report.csv", "--markdown", "r/report.md"),
        *("-o", "r/report.json", "--no-side-effects"),
    )
    assert code == 1
    assert out[-4:] == [
        "json report written to r/report.json",
        "html report written to r/report.html",
        "csv report written to r/report.csv",
        "md report written to r/report.md",
    ]
    assert Path("r/report.html").read_text().lstrip().lower().startswith("<!doctype html>")
    rows = Path("r/report.csv").read_text().splitlines()
    assert rows[0] == "kind,test,function,outcome,category,metric,value"
    assert "tools,trace.json,toolscore eval,failed,summary,threshold,0.9" in rows
    assert "run_shell" in Path("r/report.md").read_text()
    document = json.loads(Path("r/report.json").read_text())
    assert document["tools"][0]["test_id"] == "trace.json"
