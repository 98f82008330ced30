"""A batch of JSON lines scored a few lines at a time gives what one pass over it gives."""

from __future__ import annotations

import json
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolscore
from scorekit.batch import _scoring
from scorekit.batch._done import DoneIds
from scorekit.batch._scoring import score_batch
from scorekit.batch._task import RowBatch
from scorekit.report._tool_metrics import TOOL_METRIC_NAMES
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
    monkeypatch.setattr(_scoring, "LINES_PER_STEP", len(lines) + 1)
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
    assert len(lines) > 2 * _scoring.LINES_PER_STEP
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
        assert _counts(columns, k) == _counts_of(direct), i
        checked += 1
    assert checked > 150


def _counts(columns: dict[str, Any], k: int) -> tuple[Any, ...]:
    names = ("expected_calls", "actual_calls", "missing_calls", "extra_calls")
    return (
        *(int(columns[name][k]) for name in names),
        int(columns["argument_mismatches"][k]),
        columns["missing_tools"][k],
        columns["extra_tools"][k],
    )


def _counts_of(direct: Any) -> tuple[Any, ...]:
    return (
        len(direct.gold_calls),
        len(direct.trace_calls),
        len(direct.missing_calls),
        len(direct.extra_calls),
        len(direct.pairs) - direct.passed_pairs,
        [c["tool"] for c in direct.missing_calls],
        [c["tool"] for c in direct.extra_calls],
    )


_call = st.fixed_dictionaries(
    {
        "tool": st.sampled_from(["a", "b", "c"]),
        "args": st.none()
        | st.dictionaries(st.sampled_from(["x", "y", "z"]), st.sampled_from([1, 2, "1", None])),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_call, max_size=5), st.lists(_call, max_size=5))
def test_any_plain_row_scores_and_counts_as_evaluate_does(
    expected: list[dict[str, Any]], actual: list[dict[str, Any]]
) -> None:
    """Repeated tools, unchecked arguments, calls missing, extra and changed: every number of
    the row is what ``evaluate()``'s result shows."""
    task = ToolTask()
    line = json.dumps({"id": "r", "expected": expected, "actual": actual}).encode()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        direct = toolscore.evaluate(expected, actual)
        for _ in range(2):  # the second time, the score and grade come from the task's memo
            result = score_batch(task, RowBatch(lines=[line]))
            columns = result.columns
            assert columns["error"] == [None], columns["error"]
            for name in TOOL_METRIC_NAMES:
                assert columns[name][0] == getattr(direct, name), name
            assert columns["grade"][0] == direct.grade
            assert _counts(columns, 0) == _counts_of(direct)
