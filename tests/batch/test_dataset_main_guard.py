"""A script that starts a dataset run with worker processes at module level, without
``if __name__ == "__main__":``, gets one error that names the guard.

The ``local`` engine starts its workers with ``spawn`` on every platform (as macOS and Windows
do by default, and Linux from Python 3.14 with forkserver), so each worker imports the script
again and reaches the call a second time. Real scripts run in a subprocess; what the user sees
on stderr is checked.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

MESSAGE = "was called while the module is being imported by a worker process"
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


def _assert_one_clear_error(result: subprocess.CompletedProcess[str], script: Path) -> None:
    call_line = next(
        n for n, line in enumerate(script.read_text().splitlines(), 1) if "workers=2" in line
    )
    assert result.returncode != 0
    assert "scored" not in result.stdout
    lines = result.stderr.splitlines()
    named = [line for line in lines if MESSAGE in line]
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
