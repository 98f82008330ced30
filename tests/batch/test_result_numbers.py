"""A batch's numbers cross from the workers as numpy arrays; the outputs are what lists gave."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

import toolscore
from scorekit.batch._scoring import numeric_arrays, score_batch
from scorekit.batch._sinks import open_sink
from scorekit.batch._task import ROW, Field, RowBatch
from toolscore._dataset import ToolTask

CALLS = [{"tool": "search", "args": {"q": "x"}}, {"tool": "open", "args": {"n": 1}}]


def _line(i: int) -> bytes:
    actual = CALLS[: i % 3] + [{"tool": "extra", "args": {}}] * (i % 2)
    return json.dumps({"id": f"r{i}", "expected": CALLS, "actual": actual}).encode()


def test_numbers_are_arrays_unless_an_error_row_leaves_a_none() -> None:
    task = ToolTask()
    whole = score_batch(task, RowBatch(lines=[_line(i) for i in range(100)]))
    for f in task.fields:
        values = whole.columns[f.name]
        if f.kind in ("float", "int"):
            assert isinstance(values, np.ndarray), f.name
            assert values.dtype == (np.float64 if f.kind == "float" else np.int64), f.name
        else:
            assert type(values) is list, f.name
    with_error = score_batch(task, RowBatch(lines=[_line(2), b"{not json"]))
    assert with_error.columns["score"] == [1.0, None]
    assert with_error.columns["expected_calls"] == [2, None]


def test_an_int_beyond_64_bits_stays_a_list() -> None:
    columns = numeric_arrays({"n": [1, 2**70], "m": [1, 2]}, [Field("n", "int"), Field("m", "int")])
    assert columns["n"] == [1, 2**70]
    assert isinstance(columns["m"], np.ndarray)  # the same call converts what fits


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_arrays_and_lists_write_the_same_file(tmp_path: Path, suffix: str) -> None:
    task = ToolTask()
    result = score_batch(task, RowBatch(lines=[_line(i) for i in range(50)]))
    arrays = {ROW: list(range(50)), **result.columns}
    lists = {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in arrays.items()}
    assert any(isinstance(v, np.ndarray) for v in arrays.values())
    written = []
    for name, columns in (("arrays", arrays), ("lists", lists)):
        sink = open_sink(tmp_path / f"{name}{suffix}", task.fields, resume=False)
        sink.write(columns)
        sink.close()
        path = tmp_path / f"{name}{suffix}"
        written.append(pq.read_table(path) if suffix == ".parquet" else path.read_bytes())
    assert written[0] == written[1]


def test_json_lines_output_keeps_ints_as_ints(tmp_path: Path) -> None:
    rows = [json.loads(_line(i)) for i in range(40)]
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(rows, output=out, workers=1, progress=False)
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(written) == 40
    for row, line in zip(rows, written, strict=True):
        direct = toolscore.evaluate(row["expected"], row["actual"])
        assert type(line["expected_calls"]) is int and line["expected_calls"] == 2
        assert type(line["score"]) is float and line["score"] == direct.score
