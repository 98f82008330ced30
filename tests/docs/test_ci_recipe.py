"""The GitHub Actions recipe of docs/ci-gates.md (examples/github-actions/llm-gates.yml) cannot
rot: it parses, keeps main's report as the baseline, and its pytest command, run as the
workflow runs it (with and without a baseline), is accepted by the plugin."""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / "examples" / "github-actions" / "llm-gates.yml"


def _steps() -> list[dict[str, Any]]:
    doc = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    (job,) = doc["jobs"].values()
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def _pytest_line() -> str:
    (script,) = [s["run"] for s in _steps() if "pytest" in s.get("run", "")]
    (line,) = [ln.strip() for ln in script.splitlines() if ln.strip().startswith("pytest ")]
    return line


def test_the_workflow_keeps_mains_report_as_the_baseline() -> None:
    doc = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    triggers = doc.get("on", doc.get(True))  # YAML 1.1 reads a bare `on` as true
    assert triggers["push"]["branches"] == ["main"] and "pull_request" in triggers
    steps = _steps()
    uses = [s.get("uses", "") for s in steps]
    restore = steps[uses.index("actions/cache/restore@v4")]
    save = steps[uses.index("actions/cache/save@v4")]
    assert restore["with"]["restore-keys"] == "llm-baseline-"
    assert restore["with"]["path"] == save["with"]["path"] == "baseline/llm.json"
    assert save["if"] == "github.ref == 'refs/heads/main'"
    # The restore comes before the tests, the save after them.
    test_step = next(i for i, s in enumerate(steps) if "pytest" in s.get("run", ""))
    assert uses.index("actions/cache/restore@v4") < test_step < uses.index("actions/cache/save@v4")
    flags = set(re.findall(r"--llm-[a-z-]+", WORKFLOW.read_text(encoding="utf-8")))
    assert {
        "--llm-baseline",
        "--llm-fail-on-regression",
        "--llm-report",
        "--llm-budget-usd",
    } <= flags


def test_every_option_of_the_workflow_exists(pytester: pytest.Pytester) -> None:
    flags = set(re.findall(r"--llm-[a-z-]+", WORKFLOW.read_text(encoding="utf-8")))
    help_text = pytester.runpytest("--help").stdout.str()
    missing = sorted(f for f in flags if not re.search(rf"{re.escape(f)}\b", help_text))
    assert not missing, f"the workflow uses options the plugin does not have: {missing}"


@pytest.mark.parametrize("with_baseline", [False, True], ids=["first-run", "later-run"])
def test_the_workflow_command_runs(pytester: pytest.Pytester, with_baseline: bool) -> None:
    # A suite without text assertions: no judge call, so no key and no network are needed.
    pytester.makepyfile(
        test_app="""
from scorekit.report import ToolScoreRow, active_recorder


def test_agent():
    active_recorder().add(ToolScoreRow(None, "assert_tools", 1.0, 0.9, "passed"))
"""
    )
    gates = ""
    if with_baseline:
        assert pytester.runpytest("--llm-report=first.json").ret == 0
        (pytester.path / "baseline").mkdir()
        (pytester.path / "first.json").rename(pytester.path / "baseline" / "llm.json")
        gates = "--llm-baseline baseline/llm.json --llm-fail-on-regression"
    args = shlex.split(_pytest_line().replace("$gates", gates))
    assert args[0] == "pytest"
    result = pytester.runpytest_subprocess(*args[1:])
    assert result.ret == 0, result.stdout.str() + result.stderr.str()
    assert (pytester.path / "reports" / "llm.json").is_file()
    assert (pytester.path / "reports" / "junit.xml").is_file()
    if with_baseline:
        result.stdout.fnmatch_lines(["*vs baseline (llm-scorekit)*", "baseline: baseline/llm.json"])
