"""Resuming: a run killed mid-write goes on from what it had written, and ends with the same
results and summary as a run that was never interrupted: also when the kill lands during the
final merge of the Parquet parts, and for text pairs, whose judge replies the cache keeps."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from datasets import read_jsonl, results, tool_rows, write_jsonl
from scripted_judge import LoggedSentenceJudge, unique_pair_rows

import pytest_texts_score as pts
import toolscore
from scorekit.batch import DatasetSummary
from scorekit.judges import resolve_settings
from scorekit.session._cache import CACHE_FILE_NAME
from scorekit.session._session import ScoreSession

pytest.importorskip("pyarrow")

N_ROWS = 6000


def _summary_without_timing(summary: DatasetSummary) -> dict[str, object]:
    doc = summary.to_dict()
    for key in ("seconds", "rows_per_second", "resumed", "new_rows", "output", "workers"):
        doc.pop(key)
    return doc


def _start(source: Path, out: Path, env: dict[str, str], *extra: str) -> subprocess.Popen[bytes]:
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
        *extra,
    ]
    # A session of its own: the kill takes the worker processes down with the driver. SIGINT
    # as a terminal delivers it, even when this run was started with it ignored (`nohup`, `&`).
    return subprocess.Popen(
        cmd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _kill_when(
    proc: subprocess.Popen[bytes],
    ready: object,
    timeout: float = 60.0,
    sig: signal.Signals = signal.SIGKILL,
) -> None:
    deadline = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]
        if proc.poll() is not None:
            pytest.fail(f"the run ended before it could be killed: {proc.stderr.read()!r}")  # type: ignore[union-attr]
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the run wrote nothing in time")
        time.sleep(0.02)
    os.killpg(proc.pid, sig)
    proc.wait(timeout=timeout)


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


# -- a resumed run killed again, then resumed once more; Ctrl-C ------------------------------

RESUME_ROWS = 12_000


def _written(out: Path) -> int:
    """Rows a JSON-lines output holds whole, or rows in the committed Parquet parts."""
    if out.suffix == ".jsonl":
        return _whole_lines(out)
    import pyarrow.parquet as pq

    parts = out.with_name(out.name + ".parts").glob("part-*.parquet")
    return sum(pq.ParquetFile(p).metadata.num_rows for p in parts)


@pytest.fixture
def bigger(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "bigger.jsonl", tool_rows(RESUME_ROWS))


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_a_resumed_run_killed_again_resumes_once_more(
    tmp_path: Path, bigger: Path, suffix: str
) -> None:
    reference = tmp_path / f"reference{suffix}"
    expected = toolscore.evaluate_dataset(bigger, output=reference, workers=1, progress=False)
    out = tmp_path / f"out{suffix}"
    env = {**os.environ, "SCOREKIT_PARQUET_PART_ROWS": "500"}
    _kill_when(_start(bigger, out, env), lambda: _written(out) >= 1000)
    first = _written(out)
    assert 0 < first < RESUME_ROWS, "the first kill must land mid-run"
    # The resumed run is killed too, once it has written rows of its own.
    _kill_when(_start(bigger, out, env, "--resume"), lambda: _written(out) >= first + 1000)
    second = _written(out)
    assert first < second < RESUME_ROWS, "the second kill must land mid-run"
    summary = toolscore.evaluate_dataset(bigger, output=out, resume=True, workers=2, progress=False)
    rows = results(out)
    assert rows == results(reference)  # row for row: none lost, none twice
    assert summary.resumed >= second
    assert summary.resumed + summary.new_rows == RESUME_ROWS
    assert _summary_without_timing(summary) == _summary_without_timing(expected)
    assert not out.with_name(out.name + ".parts").exists()


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_ctrl_c_keeps_a_complete_output_that_resumes(
    tmp_path: Path, bigger: Path, suffix: str
) -> None:
    reference = tmp_path / f"reference{suffix}"
    toolscore.evaluate_dataset(bigger, output=reference, workers=1, progress=False)
    out = tmp_path / f"out{suffix}"
    env = {**os.environ, "SCOREKIT_PARQUET_PART_ROWS": "500"}
    proc = _start(bigger, out, env)
    _kill_when(proc, lambda: _written(out) >= 1000, sig=signal.SIGINT)
    assert proc.returncode == 130, proc.stderr.read()  # type: ignore[union-attr]
    kept = results(out)  # an orderly stop: the output is complete and readable
    assert 0 < len(kept) < RESUME_ROWS, "the interrupt must land mid-run"
    assert kept == results(reference)[: len(kept)]
    summary = toolscore.evaluate_dataset(bigger, output=out, resume=True, workers=2, progress=False)
    assert results(out) == results(reference)
    assert (summary.resumed, summary.new_rows) == (len(kept), RESUME_ROWS - len(kept))


# -- a kill during the final merge of the Parquet parts ------------------------------------------

HERE = Path(__file__).resolve().parent
MERGE_ROWS = 300
#: Each step of the merge: the merged file written (before its mark), before it replaces the
#: output, before the first part is removed, after the mark is removed, before the empty
#: parts folder is removed.
MERGE_STEPS = [
    "open:_merged",
    "os.rename:.merging",
    "os.remove:part-000000.parquet",
    "after:_merged",
    "os.rmdir:.parts",
]


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "small.jsonl", tool_rows(MERGE_ROWS))


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("step", MERGE_STEPS)
def test_parquet_output_resumes_after_a_kill_during_the_final_merge(
    tmp_path: Path, small: Path, step: str
) -> None:
    reference = tmp_path / "reference.parquet"
    toolscore.evaluate_dataset(small, output=reference, workers=1, progress=False)
    out = tmp_path / "out.parquet"
    cmd = [
        sys.executable,
        str(HERE / "kill_at.py"),
        "toolscore.cli",
        "eval-dataset",
        str(small),
        "-o",
        str(out),
        "--workers",
        "1",
        "--batch-size",
        "50",
        "--no-progress",
    ]
    # Six parts of 50 rows: the end of the run merges them into the output.
    env = {**os.environ, "SCOREKIT_PARQUET_PART_ROWS": "50", "KILL_AT": step}
    killed = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert "kill_at: " in killed.stderr  # killed at that step of the merge, not elsewhere
    summary = toolscore.evaluate_dataset(small, output=out, resume=True, workers=1, progress=False)
    rows = results(out)
    assert rows == results(reference)  # row for row: none lost, none twice
    assert len({r["id"] for r in rows}) == MERGE_ROWS
    assert (summary.resumed, summary.new_rows, summary.rows) == (MERGE_ROWS, 0, MERGE_ROWS)
    assert not (tmp_path / "out.parquet.parts").exists()
    assert not (tmp_path / ".out.parquet.merging").exists()


# -- text pairs with the judge reply cache: kill mid-run, resume ---------------------------------

PAIR_ROWS = 200
#: Judge calls of one row: questions from each text, then each text's answers to the other's.
CALLS_PER_ROW = 4
#: Calls the judge answers before the kill: not a whole number of rows, so some row killed
#: unwritten has replies in the cache.
ANSWERED = 401


def _texts_cli(source: Path, out: Path, cache: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest_texts_score.cli",
        "eval-dataset",
        str(source),
        "-o",
        str(out),
        "--provider",
        "scripted_judge:LoggedSentenceJudge",
        "--cache",
        "on",
        "--cache-dir",
        str(cache),
        "--workers",
        "1",
        "--batch-size",
        "10",
        "--no-progress",
        *extra,
    ]


def _cached_replies(cache: Path) -> int:
    db = cache / CACHE_FILE_NAME
    if not db.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as con:
            return int(con.execute("SELECT count(*) FROM replies").fetchone()[0])
    except sqlite3.Error:  # not created yet
        return 0


def _calls(log: Path) -> list[str]:
    return log.read_text(encoding="utf-8").splitlines() if log.exists() else []


def _whole_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups")
def test_texts_eval_dataset_resumes_after_a_kill_and_reuses_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = write_jsonl(tmp_path / "pairs.jsonl", unique_pair_rows(PAIR_ROWS))
    reference_log = tmp_path / "reference-calls.log"
    monkeypatch.setenv("SCRIPTED_JUDGE_LOG", str(reference_log))
    settings = resolve_settings(overrides={"cache": "off"}, env={})
    session = ScoreSession(settings, backend=LoggedSentenceJudge())
    session.activate()
    try:
        reference = tmp_path / "reference.jsonl"
        pts.evaluate_dataset(source, output=reference, workers=1, batch_size=10, progress=False)
    finally:
        session.deactivate()
        session.close()
    monkeypatch.delenv("SCRIPTED_JUDGE_LOG")
    every_call = _calls(reference_log)
    assert len(every_call) == len(set(every_call)) == PAIR_ROWS * CALLS_PER_ROW

    out, cache = tmp_path / "out.jsonl", tmp_path / "cache"
    killed_log, resumed_log = tmp_path / "killed-calls.log", tmp_path / "resumed-calls.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")]),
        "SCRIPTED_JUDGE_LOG": str(killed_log),
        "SCRIPTED_JUDGE_CALLS": str(ANSWERED),
    }
    proc = subprocess.Popen(
        _texts_cli(source, out, cache),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    # The judge answers ANSWERED calls, then the next one waits: kill once all the answered
    # replies are in the cache.
    _kill_when(proc, lambda: _cached_replies(cache) >= ANSWERED, timeout=120.0)
    written = _whole_lines(out)
    assert 0 < written < PAIR_ROWS, "the kill must land mid-run"
    before = _calls(killed_log)
    assert len(before) == ANSWERED == _cached_replies(cache)

    env.update(SCRIPTED_JUDGE_LOG=str(resumed_log))
    del env["SCRIPTED_JUDGE_CALLS"]
    resumed = subprocess.run(
        _texts_cli(source, out, cache, "--resume", "--json"),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    summary = json.loads(resumed.stdout)
    rows = read_jsonl(out)
    assert rows == read_jsonl(reference)  # row for row: none lost, none twice
    assert (summary["resumed"], summary["new_rows"]) == (written, PAIR_ROWS - written)
    after = _calls(resumed_log)
    # No judge call is made twice: the killed run's answered calls come from the cache (those
    # of rows not written yet) or are not needed (written rows); together, the calls of one run.
    assert not set(before) & set(after)
    assert sorted(before + after) == sorted(every_call)
    hits = ANSWERED - written * CALLS_PER_ROW
    assert hits > 0
    assert summary["judge"]["cache_hits"] == hits
    assert summary["judge"]["calls"] == len(after)
