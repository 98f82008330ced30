"""A batch of JSON lines scored a few lines at a time gives what one pass over it gives."""

from __future__ import annotations

import json
import warnings

import pytest

import toolscore
from scorekit._tool_metrics import TOOL_METRIC_NAMES
from scorekit.batch import _task
from scorekit.batch._done import DoneIds
from scorekit.batch._task import RowBatch, score_batch
from toolscore._dataset import ToolTask


def _varied_line(i: int) -> bytes:
    """Rows of every shape the scorer meets: changed, dropped, added, repeated calls, bad rows."""
    expected = [
        {"tool": f"tool_{(i + k) % 4}", "args": {"city": f"c{i % 3}", "n": k, "flag": k % 2 == 0}}
        for k in range(3 + i % 3)
    ]
    actual = [{"tool": c["tool"], "args": dict(c["args"])} for c in expected]
    if i % 5 == 1:
        actual[1]["args"]["n"] = 99
    if i % 7 == 2:
        actual.pop(0)
    if i % 11 == 3:
        actual.append({"tool": "extra", "args": {}})
    if i % 13 == 4:
        actual.reverse()
    row: dict[str, object] = {"expected": expected, "actual": actual}
    if i % 17 != 5:
        row["id"] = f"r{i}"  # some rows are numbered by position
    if i % 19 == 6:
        return b"{not json"
    if i % 23 == 7:
        row["actual"] = "not a call list"
    return json.dumps(row).encode()


@pytest.mark.parametrize("resumed", [False, True])
def test_steps_give_the_rows_of_one_pass(monkeypatch: pytest.MonkeyPatch, resumed: bool) -> None:
    lines = [_varied_line(i) for i in range(300)]
    done = DoneIds.of([f"r{i}" for i in range(0, 300, 4)], [5, 22]) if resumed else None
    task = ToolTask()
    batch = RowBatch(lines=lines, start=0, nbytes=1234)
    stepped = score_batch(task, batch, done)
    monkeypatch.setattr(_task, "LINES_PER_STEP", len(lines) + 1)
    whole = score_batch(task, batch, done)
    assert stepped.index == whole.index
    assert stepped.consumed == whole.consumed == 300
    assert stepped.skipped == whole.skipped and (stepped.skipped > 0) == resumed
    assert stepped.nbytes == whole.nbytes == 1234
    assert stepped.stats == whole.stats
    assert stepped.columns.keys() == whole.columns.keys()
    for name, values in stepped.columns.items():
        other = whole.columns[name]
        assert type(values) is type(other), name
        assert list(values) == list(other), name
    assert "bad_json" in stepped.columns["error_kind"]


def test_stepped_rows_score_as_evaluate_does() -> None:
    lines = [_varied_line(i) for i in range(200)]
    result = score_batch(ToolTask(), RowBatch(lines=lines, start=0))
    assert len(lines) > 2 * _task.LINES_PER_STEP
    columns = result.columns
    checked = 0
    for k, i in enumerate(result.index):
        if columns["error_kind"][k] is not None:
            continue
        row = json.loads(lines[i])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            direct = toolscore.evaluate(row["expected"], row["actual"])
        for name in TOOL_METRIC_NAMES:
            assert columns[name][k] == getattr(direct, name), (i, name)
        assert columns["grade"][k] == direct.grade
        checked += 1
    assert checked > 150
