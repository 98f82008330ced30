"""A script that starts a dataset run with worker processes at module level, without
``if __name__ == "__main__":``, gets one error that names the guard.

Spawned workers (macOS and Windows by default, and here every task that may not be forked)
import the script again and reach the call a second time. The driver refuses such a call
before it starts a pool, whichever way its workers start, so a script that runs on Linux (where
tool-call workers are forked) runs everywhere; a worker that still reaches a call (a guard the
driver cannot read as one) leaves the reason for the driver. Real scripts run in a subprocess;
what the user sees on stderr is checked.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MESSAGE = "was called at the main script's module level"
IN_WORKER = "was called while the module is being imported by a worker process"
GUARD = 'put the call under `if __name__ == "__main__":`'

TOOLS = """\
import toolscore

CALLS = [{"tool": "search", "args": {"q": "x"}}]
rows = [{"id": str(i), "expected": CALLS, "actual": CALLS} for i in range(40)]
summary = toolscore.evaluate_dataset(rows, workers=2, progress=False)
print("scored", summary.scored)
"""

TEXTS = """\
import pytest_texts_score as pts

rows = [{"id": i, "expected": "The sky is blue.", "given": "The sky is blue."} for i in range(4)]
summary = pts.evaluate_dataset(rows, workers=2, progress=False)
print("scored", summary.scored)
"""


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _assert_one_clear_error(
    result: subprocess.CompletedProcess[str], script: Path, message: str = MESSAGE
) -> None:
    call_line = next(
        n for n, line in enumerate(script.read_text().splitlines(), 1) if "workers=2" in line
    )
    assert result.returncode != 0
    assert "scored" not in result.stdout
    lines = result.stderr.splitlines()
    named = [line for line in lines if message in line]
    assert len(named) == 1, result.stderr  # once, not once per worker
    assert named[0] == lines[-1]  # the last word is the reason
    assert named[0].startswith("scorekit.batch._errors.DatasetError: evaluate_dataset(workers=2)")
    assert GUARD in named[0]
    assert f"({script}, line {call_line})" in named[0]  # where the unguarded call is
    # None of multiprocessing's own failure: no bootstrapping RuntimeError, no broken pool.
    assert "An attempt has been made to start a new process" not in result.stderr
    assert "BrokenProcessPool" not in result.stderr
    assert "a worker process died" not in result.stderr
    assert "multiprocessing" not in result.stderr


@pytest.mark.parametrize("source", [TOOLS, TEXTS], ids=["toolscore", "pytest_texts_score"])
def test_an_unguarded_module_level_run_fails_with_one_error_naming_the_guard(
    tmp_path: Path, source: str
) -> None:
    script = tmp_path / "score_all.py"
    script.write_text(source, encoding="utf-8")
    _assert_one_clear_error(_run(tmp_path, str(script)), script)


def test_the_same_when_the_script_runs_as_a_module(tmp_path: Path) -> None:
    script = tmp_path / "score_module.py"
    script.write_text(TOOLS, encoding="utf-8")
    _assert_one_clear_error(_run(tmp_path, "-m", "score_module"), script)


def test_the_guarded_script_runs_on_worker_processes(tmp_path: Path) -> None:
    script = tmp_path / "score_all.py"
    head, call, report = TOOLS.splitlines()[:-2], *TOOLS.splitlines()[-2:]
    guarded = [*head, 'if __name__ == "__main__":', f"    {call}", f"    {report}"]
    script.write_text("\n".join(guarded) + "\n", encoding="utf-8")
    result = _run(tmp_path, str(script))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "scored 40"
    assert result.stderr == ""


def test_a_guard_the_driver_cannot_read_is_still_caught_in_the_worker(tmp_path: Path) -> None:
    # ``if __name__:`` tests the name, so the driver takes it for a guard; it is always true,
    # so each spawned worker (the text task's are spawned) reaches the call again.
    script = tmp_path / "score_all.py"
    head, call, report = TEXTS.splitlines()[:-2], *TEXTS.splitlines()[-2:]
    script.write_text(
        "\n".join([*head, "if __name__:", f"    {call}", f"    {report}"]) + "\n",
        encoding="utf-8",
    )
    _assert_one_clear_error(_run(tmp_path, str(script)), script, IN_WORKER)


GUARDS = """\
import toolscore
CALLS = [{"tool": "search", "args": {"q": "x"}}]
rows = [{"id": str(i), "expected": CALLS, "actual": CALLS} for i in range(40)]


def main():
    return toolscore.evaluate_dataset(rows, workers=2, progress=False)


if "__main__" == __name__:
    print("scored", main().scored)
"""


def test_a_call_from_a_function_run_under_the_guard_is_not_refused(tmp_path: Path) -> None:
    script = tmp_path / "score_all.py"
    script.write_text(GUARDS, encoding="utf-8")
    result = _run(tmp_path, str(script))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "scored 40"


def test_a_call_inside_another_block_at_module_level_is_refused(tmp_path: Path) -> None:
    script = tmp_path / "score_all.py"
    head, call, report = TOOLS.splitlines()[:-2], *TOOLS.splitlines()[-2:]
    body = [*head, "try:", f"    {call}", "finally:", "    pass", report]
    script.write_text("\n".join(body) + "\n", encoding="utf-8")
    _assert_one_clear_error(_run(tmp_path, str(script)), script)
