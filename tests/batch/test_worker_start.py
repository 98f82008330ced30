"""How worker processes start: forked on Linux for a pure-computation task in a process that
runs no other thread, spawned otherwise; the results are the same either way."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from datasets import run_script

SCRIPT = """\
import json, sys, threading
import pytest_texts_score._dataset as texts
from scorekit.batch._local import start_method
from toolscore._dataset import ToolTask

if __name__ == "__main__":
    seen = {"tools": start_method(ToolTask()), "texts": start_method(texts.TextTask())}
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    seen["tools, with a thread"] = start_method(ToolTask())
    stop.set()
    thread.join()
    print(json.dumps(seen))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork is used on Linux only")
def test_tool_workers_fork_only_in_a_process_without_other_threads(tmp_path: Path) -> None:
    result = run_script(tmp_path / "which.py", SCRIPT)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        '{"tools": "fork", "texts": "spawn", "tools, with a thread": "spawn"}'
    )


RUN = """\
import json, sys, threading
import toolscore

CALLS = [{"tool": "search", "args": {"q": "x"}}, {"tool": "open", "args": {"n": 1}}]
EXTRA = {"tool": "x", "args": {}}
rows = [
    {"id": str(i), "expected": CALLS, "actual": CALLS[: i % 3] + [EXTRA] * (i % 2)}
    for i in range(3000)
]

if __name__ == "__main__":
    out, thread = sys.argv[1], None
    if sys.argv[2] == "spawn":  # a live thread: the workers are spawned
        stop = threading.Event()
        thread = threading.Thread(target=stop.wait)
        thread.start()
    try:
        toolscore.evaluate_dataset(rows, workers=2, output=out, batch_size=64, progress=False)
    finally:
        if thread is not None:
            stop.set()
            thread.join()
"""


def test_forked_and_spawned_workers_write_the_same_rows(tmp_path: Path) -> None:
    outputs = {}
    for how in ("fork", "spawn"):
        out = tmp_path / f"{how}.jsonl"
        result = run_script(tmp_path / "run.py", RUN, str(out), how, timeout=300)
        assert result.returncode == 0, result.stderr
        outputs[how] = out.read_text(encoding="utf-8").splitlines()
    assert len(outputs["fork"]) == 3000
    assert outputs["fork"] == outputs["spawn"]
