"""The snapshot and command-line pages show true output: replay their sessions and compare.

Each documented ``$ command`` and the output under it must appear on the page exactly, after
the parts that change from run to run are normalised: timings, timestamps, and the folder the
session ran in (shown as ``/tmp/docsrun``).
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolscore.cli import main

DOCS = Path(__file__).resolve().parents[2] / "docs" / "toolscore"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "toolscore"


def _normal(text: str, root: Path | None = None) -> str:
    if root is not None:
        text = text.replace(str(root), "/tmp/docsrun")
    text = re.sub(r"/tmp/docsrun2?\b", "/tmp/docsrun", text)
    text = re.sub(r" in \d+\.\d+s", " in 0.00s", text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", "<time>", text)
    return re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", "<time>", text)


def _python_blocks(page: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(), re.S)


class Session:
    """Runs documented commands in one folder and checks each output against the page."""

    def __init__(self, pytester: pytest.Pytester, page: str) -> None:
        self.pytester = pytester
        self.page = _normal((DOCS / page).read_text())

    def check(self, command: str, output: str) -> None:
        shown = _normal(f"$ {command}\n{output}", self.pytester.path)
        assert shown in self.page, f"not on the page as shown:\n{shown}"

    def pytest(self, command: str, *args: str) -> None:
        result = self.pytester.runpytest(*args)
        self.check(command, "\n".join(result.outlines) + "\n")

    def toolscore(self, *argv: str, command: str | None = None) -> None:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            main(list(argv))
        self.check(command or "toolscore " + " ".join(argv), out.getvalue())


@pytest.fixture(autouse=True)
def _not_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CI", "TOOLSCORE_RECORD_UPDATE", "TOOLSCORE_SNAPSHOT_DIR"):
        monkeypatch.delenv(name, raising=False)


def _snapshot_file(root: Path) -> Path:
    (path,) = (root / ".toolscore" / "snapshots").glob("test_agent.py__*.json")
    return path


def test_the_snapshot_page(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    page = Session(pytester, "snapshots.md")
    agent, refund, check = (
        b
        for b in _python_blocks("snapshots.md")
        if b.startswith("#") or b.startswith("def test_refunds")
    )
    test_file = pytester.path / "test_agent.py"
    test_file.write_text(agent.split("\n", 1)[1])
    page.pytest("pytest -q", "-q")
    page.check("cat .toolscore/snapshots/*", _snapshot_file(pytester.path).read_text())
    page.toolscore("approve", "--all")
    page.pytest("pytest -q", "-q")
    test_file.write_text(test_file.read_text().replace('"seats": 1', '"seats": 2'))
    page.pytest("pytest -q", "-q")
    page.toolscore("snapshots", "list")
    page.toolscore("snapshots", "show", "test_agent.py::test_books_a_flight")
    page.toolscore("approve", "test_agent.py::test_books_a_flight")
    page.pytest("pytest -q", "-q")

    # the matchers of section 7, written into the approved file
    snapshot = _snapshot_file(pytester.path)
    data = json.loads(snapshot.read_text())
    data["calls"][0]["args"]["date"] = {"$regex": r"2025-\d\d-\d\d"}
    data["calls"][1]["args"]["flight"] = {"$regex": r"TP\d{4}"}
    snapshot.write_text(json.dumps(data, indent=2))
    text = test_file.read_text().replace("TP1351", "TP1353").replace("2025-03-14", "2025-03-15")
    test_file.write_text(text)
    page.pytest("pytest -q", "-q")
    test_file.write_text(test_file.read_text().replace('"seats": 2', '"seats": 3'))
    page.pytest("pytest -q --toolscore-update", "-q", "--toolscore-update")

    (pytester.path / "test_refund.py").write_text(refund)
    monkeypatch.setenv("CI", "true")
    page.pytest("CI=true pytest -q test_refund.py", "-q", "test_refund.py")
    page.pytest(
        "CI=true pytest -q test_refund.py --toolscore-allow-pending",
        *("-q", "test_refund.py", "--toolscore-allow-pending"),
    )
    monkeypatch.delenv("CI")

    # section 10, in a folder of its own
    alone = pytester.mkdir("alone")
    monkeypatch.chdir(alone)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), pytest.warns(UserWarning, match="created"):
        exec(compile(check.split("\n", 1)[1], "check.py", "exec"), {})
    page.check("python check.py 2>/dev/null", printed.getvalue())


def test_the_record_commands_of_the_snapshot_page(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest_command = shutil.which("pytest")
    if pytest_command is None or Path(pytest_command).parent != Path(sys.executable).parent:
        pytest.skip("needs this environment's pytest on PATH")
    page = Session(pytester, "snapshots.md")
    agent = next(b for b in _python_blocks("snapshots.md") if b.startswith("# test_agent.py"))
    (pytester.path / "test_agent.py").write_text(agent.split("\n", 1)[1])
    response = {
        "choices": [
            {
                "message": {
                    "role": "assistant",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                        }
                    ],
                }
            }
        ]
    }
    (pytester.path / "trace.json").write_text(json.dumps(response))
    page.toolscore("record", "--from-trace", "trace.json", "--name", "weather-oslo")
    run = subprocess.run(
        [sys.executable, "-m", "toolscore.cli", "record", "--", "pytest", "-q"],
        capture_output=True,
        text=True,
        check=False,
        cwd=pytester.path,
    )
    page.check("toolscore record -- pytest -q", run.stdout)


def test_the_command_line_page(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in EXAMPLES.iterdir():
        shutil.copy(path, pytester.path / path.name)
    page = Session(pytester, "cli.md")
    page.toolscore("eval", "gold.json", "trace_openai.json")
    forbidden = re.search(r"\$ cat forbidden.json\n(.*?)\n", page.page)
    assert forbidden is not None
    (pytester.path / "forbidden.json").write_text(forbidden.group(1))
    page.toolscore(
        *("eval", "gold.json", "trace_custom.json", "--forbidden", "forbidden.json"),
        *("--fail-on-violations", "--debug"),
    )
    page.toolscore(
        *("compare", "gold.json", "trace_openai.json", "trace_gemini.json"),
        *("-n", "gpt", "-n", "gemini", "-o", "comparison.json"),
    )
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["eval", "gold.json", "trace_openai.json", "--save-baseline", "baseline.json"])
    tail = "".join(out.getvalue().splitlines(keepends=True)[-2:])
    page.check(
        "toolscore eval gold.json trace_openai.json --save-baseline baseline.json | tail -2", tail
    )
    page.toolscore("regression", "baseline.json", "trace_gemini.json", "-g", "gold.json")
    page.toolscore("validate", "trace_mcp.jsonl")
    functions = next(
        b for b in re.findall(r"```json\n(.*?)```", (DOCS / "cli.md").read_text(), re.S)
    )
    (pytester.path / "functions.json").write_text(functions)
    page.toolscore("generate", "--from-openai", "functions.json", "-n", "5", "-v")
    (pytester.path / "myproject").mkdir()
    (pytester.path / "myproject" / "requirements.txt").write_text("openai>=1.50\n")
    page.toolscore("init", "--dir", "myproject")
