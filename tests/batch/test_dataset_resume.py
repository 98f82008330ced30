"""Resuming: a run killed mid-write goes on from what it had written, and ends with the same
results and summary as a run that was never interrupted."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from datasets import read_jsonl, results, tool_rows, write_jsonl

import toolscore
from scorekit.batch import DatasetSummary

pytest.importorskip("pyarrow")

N_ROWS = 6000


def _summary_without_timing(summary: DatasetSummary) -> dict[str, object]:
    doc = summary.to_dict()
    for key in ("seconds", "rows_per_second", "resumed", "new_rows", "output", "workers"):
        doc.pop(key)
    return doc


def _start(source: Path, out: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "toolscore.cli",
        "eval-dataset",
        str(source),
        "-o",
        str(out),
        "--workers",
        "2",
        "--batch-size",
        "50",
        "--no-progress",
    ]
    # A session of its own: the kill takes the worker processes down with the driver.
    return subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )


def _kill_when(proc: subprocess.Popen[bytes], ready: object, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be killed: {proc.stderr.read()!r}")  # type: ignore[union-attr]
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the run wrote nothing in time")
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


@pytest.fixture
def big(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "traces.jsonl", tool_rows(N_ROWS))


@pytest.fixture
def reference(tmp_path: Path, big: Path) -> tuple[list[dict[str, object]], dict[str, object]]:
    out = tmp_path / "reference.jsonl"
    summary = toolscore.evaluate_dataset(big, output=out, workers=1, progress=False)
    return read_jsonl(out), _summary_without_timing(summary)


def test_json_lines_output_resumes_after_a_kill(
    tmp_path: Path, big: Path, reference: tuple[list[dict[str, object]], dict[str, object]]
) -> None:
    out = tmp_path / "out.jsonl"
    proc = _start(big, out, dict(os.environ))
    _kill_when(proc, lambda: out.exists() and out.stat().st_size > 20_000)
    written = out.read_bytes()
    lines_before = written.count(b"\n")
    assert 0 < lines_before < N_ROWS, "the kill must land mid-run"
    # Simulate the worst place for a kill as well: half a line at the end.
    if written.endswith(b"\n"):
        out.write_bytes(written + b'{"id": "t999999", "row": 12, "sco')
    summary = toolscore.evaluate_dataset(big, output=out, resume=True, workers=2, progress=False)
    rows, doc = reference
    assert read_jsonl(out) == rows  # every id once, in order, the torn line gone
    assert summary.resumed == lines_before
    assert summary.new_rows == N_ROWS - lines_before
    assert _summary_without_timing(summary) == doc


def test_parquet_output_resumes_after_a_kill(
    tmp_path: Path, big: Path, reference: tuple[list[dict[str, object]], dict[str, object]]
) -> None:
    out = tmp_path / "out.parquet"
    parts = tmp_path / "out.parquet.parts"
    env = {**os.environ, "SCOREKIT_PARQUET_PART_ROWS": "500"}
    proc = _start(big, out, env)
    _kill_when(proc, lambda: len(list(parts.glob("part-*.parquet"))) >= 2)
    assert not out.exists()
    committed = sum(1 for _ in parts.glob("part-*.parquet"))
    summary = toolscore.evaluate_dataset(big, output=out, resume=True, workers=2, progress=False)
    rows, doc = reference
    assert results(out) == rows
    assert not parts.exists()
    assert summary.resumed >= committed * 500
    assert _summary_without_timing(summary) == doc


def test_resuming_a_finished_run_adds_only_new_rows(tmp_path: Path) -> None:
    source = write_jsonl(tmp_path / "t.jsonl", tool_rows(10))
    out = tmp_path / "out.parquet"
    toolscore.evaluate_dataset(source, output=out, workers=1, progress=False)
    write_jsonl(source, tool_rows(14))  # the source grew
    summary = toolscore.evaluate_dataset(source, output=out, resume=True, workers=1, progress=False)
    assert (summary.resumed, summary.new_rows, summary.rows) == (10, 4, 14)
    assert [r["id"] for r in results(out)] == [f"t{i}" for i in range(14)]
    again = toolscore.evaluate_dataset(source, output=out, resume=True, workers=1, progress=False)
    assert (again.resumed, again.new_rows) == (14, 0)


def test_rows_without_an_id_resume_by_position(tmp_path: Path) -> None:
    lines = ["not json", *[json.dumps(r) for r in tool_rows(3)], "still not json"]
    source = write_jsonl(tmp_path / "t.jsonl", lines)
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(source, output=out, workers=1, progress=False)
    first = read_jsonl(out)
    summary = toolscore.evaluate_dataset(source, output=out, resume=True, workers=1, progress=False)
    assert read_jsonl(out) == first  # the bad lines are not recorded twice
    assert (summary.resumed, summary.new_rows, summary.errors) == (5, 0, 2)


def test_resume_refuses_an_output_of_another_kind(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "a", "row": 0, "precision": 1.0}\n')
    from scorekit.batch import DatasetError

    with pytest.raises(DatasetError, match="another kind of run"):
        toolscore.evaluate_dataset(tool_rows(2), output=out, resume=True, progress=False)
    out.write_text("hello\nworld\n")
    with pytest.raises(DatasetError, match="line 1 is not a result row"):
        toolscore.evaluate_dataset(tool_rows(2), output=out, resume=True, progress=False)


def test_a_run_without_ids_resumes_by_position(tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k != "id"} for r in tool_rows(8)]
    source = write_jsonl(tmp_path / "t.jsonl", rows[:5])
    out = tmp_path / "out.parquet"
    toolscore.evaluate_dataset(source, id=None, output=out, workers=1, progress=False)
    write_jsonl(source, rows)
    summary = toolscore.evaluate_dataset(
        source, id=None, output=out, resume=True, workers=1, progress=False
    )
    assert (summary.resumed, summary.new_rows) == (5, 3)
    assert [r["row"] for r in results(out)] == list(range(8))
