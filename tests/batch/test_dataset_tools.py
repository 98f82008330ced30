"""toolscore.evaluate_dataset on the local engine: sources, outputs, bad rows, summaries."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from datasets import (
    GOLD,
    SCORE,
    read_jsonl,
    results,
    tool_row,
    tool_rows,
    write_jsonl,
    write_parquet,
)

import toolscore
from scorekit.batch import DatasetError
from scorekit.report._tool_metrics import TOOL_METRIC_NAMES

pytest.importorskip("pyarrow")


def _direct(row: dict[str, object]) -> toolscore.EvaluationResult:
    """The row scored by the public API, the matcher decoded by hand."""
    expected = row["expected"]
    if row["kind"] == "matcher":
        expected = [
            {**GOLD[0], "args": {"city": toolscore.Regex("NYC|JFK"), "nights": 2}},
            *GOLD[1:],
        ]
    return toolscore.evaluate(expected, row["actual"])  # type: ignore[arg-type]


@pytest.mark.parametrize("suffix", [".parquet", ".jsonl"])
def test_every_row_scores_as_evaluate_does(tmp_path: Path, suffix: str) -> None:
    rows = tool_rows(40)
    source = write_jsonl(tmp_path / "traces.jsonl", rows)
    out = tmp_path / f"results{suffix}"
    summary = toolscore.evaluate_dataset(
        source, output=out, workers=2, batch_size=7, progress=False
    )
    got = results(out)
    assert [r["id"] for r in got] == [f"t{i}" for i in range(40)]
    assert [r["row"] for r in got] == list(range(40))
    for row, res in zip(rows, got, strict=True):
        direct = _direct(row)
        assert res["score"] == SCORE[str(row["kind"])] == pytest.approx(direct.score, abs=0)
        for name in TOOL_METRIC_NAMES:
            assert res[name] == getattr(direct, name), (row["id"], name)
        assert res["grade"] == direct.grade
        assert res["error"] is None and res["error_kind"] is None
    empty = next(r for r in got if r["id"] == "t1")
    assert (empty["missing_calls"], empty["extra_calls"], empty["expected_calls"]) == (3, 0, 3)
    assert empty["missing_tools"] == ["search", "book", "pay"]
    # 10 rows of each kind: 30 score 1.0, 10 score 0.1.
    assert summary.rows == summary.scored == 40 and summary.errors == 0
    assert summary.mean == pytest.approx((30 * 1.0 + 10 * 0.1) / 40)
    assert summary.scores["score"]["p50"] == 1.0
    assert summary.scores["score"]["min"] == 0.1
    assert summary.scores["score"]["histogram"][2] == 10  # 0.1 falls in [0.10, 0.15)
    assert summary.categories["grade"] == {"A": 30, "F": 10}
    assert summary.failures == {"missing calls": 10}
    assert summary.top["most often missing"] == [["book", 10], ["pay", 10], ["search", 10]]
    assert [r["id"] for r in summary.lowest[:3]] == ["t1", "t5", "t9"]


def test_parquet_sources_text_and_nested_columns_score_like_json_lines(tmp_path: Path) -> None:
    rows = [tool_row(i) for i in range(12) if i % 4 in (0, 1)]  # list-shaped traces only
    jsonl = toolscore.evaluate_dataset(
        write_jsonl(tmp_path / "a.jsonl", rows),
        output=tmp_path / "a.jsonl.out.jsonl",
        workers=1,
        progress=False,
    )
    as_text = toolscore.evaluate_dataset(
        write_parquet(tmp_path / "b.parquet", rows, as_text=True),
        output=tmp_path / "b.out.jsonl",
        workers=1,
        progress=False,
    )
    # Nested columns: each args struct holds every key of the column (city, nights, hotel,
    # amount) with nulls; they must read as absent, or every call would get 3 extra arguments.
    nested = toolscore.evaluate_dataset(
        write_parquet(tmp_path / "c.parquet", rows, as_text=False),
        output=tmp_path / "c.out.jsonl",
        workers=1,
        progress=False,
    )
    a, b, c = (
        read_jsonl(tmp_path / n) for n in ("a.jsonl.out.jsonl", "b.out.jsonl", "c.out.jsonl")
    )
    assert a == b == c
    assert [r["score"] for r in a] == [1.0, 0.1] * 3
    assert jsonl.mean == as_text.mean == nested.mean == pytest.approx(0.55)


def test_in_memory_rows_and_a_pyarrow_table(tmp_path: Path) -> None:
    import pyarrow as pa

    rows = tool_rows(8)
    from_rows = toolscore.evaluate_dataset(rows, workers=1, progress=False)
    table = pa.table(
        {
            "id": [r["id"] for r in rows],
            "expected": [json.dumps(r["expected"]) for r in rows],
            "actual": [json.dumps(r["actual"]) for r in rows],
        }
    )
    from_table = toolscore.evaluate_dataset(table, workers=1, progress=False)
    assert from_rows.scores == from_table.scores
    assert from_rows.mean == pytest.approx((6 * 1.0 + 2 * 0.1) / 8)


def test_bad_rows_are_recorded_counted_and_never_stop_the_run(tmp_path: Path) -> None:
    good = tool_rows(6)
    lines: list[object] = [
        good[0],
        '{"id": "broken", "expected": [',  # not JSON
        "[1, 2, 3]",  # JSON, but not an object
        {"id": "no-trace", "expected": GOLD},  # a missing column
        {"id": "odd-trace", "expected": GOLD, "actual": {"weird": True}},  # unknown shape
        {"id": "bad-gold", "expected": [{"args": {}}], "actual": []},  # a call without tool
        {
            "id": "bad-matcher",
            "expected": [{"tool": "a", "args": {"x": {"$nope": 1}}}],
            "actual": [],
        },
        {"expected": GOLD, "actual": GOLD},  # no id
        '{"id": "caf\xc3\x28"}',  # written as these bytes: not UTF-8
        *good[1:],
    ]
    source = tmp_path / "mixed.jsonl"
    with source.open("wb") as fh:
        for item in lines:
            text = item if isinstance(item, str) else json.dumps(item)
            fh.write((text.encode("latin-1") if "\xc3\x28" in text else text.encode()) + b"\n")
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(source, output=out, workers=1, progress=False)
    got = read_jsonl(out)
    kinds = {(r["id"], r["row"]): r["error_kind"] for r in got}
    assert kinds == {
        ("t0", 0): None,
        (None, 1): "bad_json",
        (None, 2): "bad_json",
        ("no-trace", 3): "missing_column",
        ("odd-trace", 4): "bad_trace",
        ("bad-gold", 5): "bad_gold",
        ("bad-matcher", 6): "bad_gold",
        (None, 7): "missing_column",
        (None, 8): "bad_json",
        **{(f"t{i}", 8 + i): None for i in range(1, 6)},
    }
    errors = {r["id"] or r["row"]: r["error"] for r in got if r["error"]}
    assert "not valid JSON" in errors[1]
    assert "JSON array, not an object" in errors[2]
    assert "'actual'" in errors["no-trace"]
    assert "$nope" in errors["bad-matcher"]
    assert "not UTF-8" in errors[8]
    assert (summary.rows, summary.scored, summary.errors) == (14, 6, 8)
    assert summary.error_kinds == {
        "bad_json": 3,
        "bad_gold": 2,
        "missing_column": 2,
        "bad_trace": 1,
    }
    assert summary.mean == pytest.approx((4 * 1.0 + 2 * 0.1) / 6)  # t0..t5: kinds 0,1,2,3,0,1
    assert [e["row"] for e in summary.error_examples if e["kind"] == "bad_json"] == [1, 2, 8]


def test_max_errors_stops_early_and_keeps_what_was_written(tmp_path: Path) -> None:
    lines: list[object] = ["not json"] * 5 + tool_rows(20)
    source = write_jsonl(tmp_path / "bad.jsonl", lines)
    out = tmp_path / "out.parquet"
    summary = toolscore.evaluate_dataset(
        source, output=out, max_errors=2, batch_size=2, workers=1, progress=False
    )
    assert summary.stopped is not None and "more than 2 rows" in summary.stopped
    assert summary.errors == 4  # the batch that crossed the line is written whole
    assert len(results(out)) == summary.rows == 4


def test_gold_from_a_separate_file_keyed_by_id(tmp_path: Path) -> None:
    rows = [{"id": f"t{i}", "actual": GOLD if i % 2 == 0 else []} for i in range(6)]
    rows.append({"id": "unknown", "actual": GOLD})
    gold_file = write_jsonl(
        tmp_path / "gold.jsonl", [{"id": f"t{i}", "expected": GOLD} for i in range(6)]
    )
    toolscore.evaluate_dataset(
        write_jsonl(tmp_path / "traces.jsonl", rows),
        gold_file=gold_file,
        output=tmp_path / "out.jsonl",
        workers=1,
        progress=False,
    )
    got = {r["id"]: r for r in read_jsonl(tmp_path / "out.jsonl")}
    assert [got[f"t{i}"]["score"] for i in range(6)] == [1.0, 0.1] * 3
    assert got["unknown"]["error_kind"] == "missing_gold"
    # A JSON object {id: calls} works as a gold file too, and so does a join column.
    (tmp_path / "gold.json").write_text(json.dumps({"case-a": GOLD}))
    by_case = toolscore.evaluate_dataset(
        [
            {"id": "x1", "case": "case-a", "actual": GOLD},
            {"id": "x2", "case": "case-a", "actual": []},
        ],
        gold_file=tmp_path / "gold.json",
        gold_key="case",
        workers=1,
        progress=False,
    )
    assert by_case.mean == pytest.approx(0.55)


def test_weights_and_strict_reach_every_row(tmp_path: Path) -> None:
    rows = [
        {
            "id": "a",
            "expected": [{"tool": "f", "args": {"n": 1}}],
            "actual": [{"tool": "f", "args": {"n": 1.0}}],
        }
    ]
    lenient = toolscore.evaluate_dataset(rows, workers=1, progress=False)
    strict = toolscore.evaluate_dataset(rows, strict=True, workers=1, progress=False)
    assert lenient.mean == 1.0
    # Strict: the argument differs (int vs float): argument F1 0 -> 1 - 0.3 = 0.7.
    assert strict.mean == pytest.approx(0.7)
    weighted = toolscore.evaluate_dataset(
        rows,
        strict=True,
        weights={
            "argument_f1": 1.0,
            "selection_accuracy": 0,
            "sequence_accuracy": 0,
            "redundant_rate": 0,
        },
        workers=1,
        progress=False,
    )
    assert weighted.mean == 0.0
    with pytest.raises(ValueError, match="weight"):
        toolscore.evaluate_dataset(rows, weights={"nope": 1.0}, progress=False)


def test_clear_errors_for_a_run_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="no such file"):
        toolscore.evaluate_dataset(tmp_path / "missing.jsonl", progress=False)
    (tmp_path / "data.csv").write_text("a,b\n")
    with pytest.raises(DatasetError, match="cannot tell the format"):
        toolscore.evaluate_dataset(tmp_path / "data.csv", progress=False)
    source = write_jsonl(tmp_path / "t.jsonl", tool_rows(4))
    with pytest.raises(DatasetError, match=r"use \.parquet or \.jsonl"):
        toolscore.evaluate_dataset(source, output=tmp_path / "out.csv", progress=False)
    with pytest.raises(DatasetError, match=r"none of the first 4 rows.*'gold'"):
        toolscore.evaluate_dataset(source, gold="gold", workers=1, progress=False)
    with pytest.raises(DatasetError, match="resume needs output"):
        toolscore.evaluate_dataset(source, resume=True, progress=False)
    with pytest.raises(DatasetError, match="engine must be one of local, ray"):
        toolscore.evaluate_dataset(source, engine="spark", progress=False)
    write_parquet(tmp_path / "p.parquet", tool_rows(4), as_text=True)
    with pytest.raises(DatasetError, match=r"has no column 'trace'.*columns: id, expected, actual"):
        toolscore.evaluate_dataset(tmp_path / "p.parquet", trace="trace", progress=False)


def test_a_folder_of_files_is_read_in_path_order(tmp_path: Path) -> None:
    folder = tmp_path / "day"
    folder.mkdir()
    write_jsonl(folder / "b.jsonl", tool_rows(6)[3:])
    write_jsonl(folder / "a.jsonl", tool_rows(6)[:3])
    write_parquet(folder / "c.parquet", [tool_row(6)], as_text=True)
    (folder / "notes.txt").write_text("ignored")
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(folder, output=out, workers=1, progress=False)
    assert [(r["id"], r["row"]) for r in read_jsonl(out)] == [(f"t{i}", i) for i in range(7)]


def test_rows_without_an_id_column_are_numbered_by_position(tmp_path: Path) -> None:
    rows = [{k: v for k, v in r.items() if k != "id"} for r in tool_rows(5)]
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(rows, id=None, output=out, workers=1, progress=False)
    got = read_jsonl(out)
    assert [(r["id"], r["row"]) for r in got] == [(None, i) for i in range(5)]
    assert summary.errors == 0


def test_compressed_json_lines(tmp_path: Path) -> None:
    import gzip

    path = tmp_path / "t.jsonl.gz"
    with gzip.open(path, "wt") as fh:
        for row in tool_rows(9):
            fh.write(json.dumps(row) + "\n")
    summary = toolscore.evaluate_dataset(path, workers=1, progress=False)
    assert summary.rows == 9 and summary.mean == pytest.approx((7 + 0.2) / 9)


def test_uris_go_through_pyarrow_filesystems(tmp_path: Path) -> None:
    import gzip

    folder = tmp_path / "store"
    folder.mkdir()
    write_jsonl(folder / "a.jsonl", tool_rows(3))
    with gzip.open(folder / "b.jsonl.gz", "wt") as fh:
        fh.write("\n".join(json.dumps(r) for r in tool_rows(6)[3:]) + "\n")
    write_parquet(folder / "c.parquet", [tool_row(6)], as_text=True)
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(folder.as_uri(), output=out, workers=1, progress=False)
    assert [(r["id"], r["row"]) for r in read_jsonl(out)] == [(f"t{i}", i) for i in range(7)]
    assert summary.source == folder.as_uri()
    one = toolscore.evaluate_dataset((folder / "a.jsonl").as_uri(), workers=1, progress=False)
    assert one.rows == 3
    with pytest.raises(DatasetError, match="no such file or folder"):
        toolscore.evaluate_dataset((tmp_path / "nope").as_uri(), progress=False)


def test_without_pyarrow_json_lines_work_and_parquet_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("pyarrow", "pyarrow.parquet", "pyarrow.fs", "ray", "ray.data"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    source = write_jsonl(tmp_path / "t.jsonl", tool_rows(4))
    summary = toolscore.evaluate_dataset(source, output=tmp_path / "o.jsonl", progress=False)
    assert summary.rows == 4 and len(read_jsonl(tmp_path / "o.jsonl")) == 4
    with pytest.raises(DatasetError, match=r"needs pyarrow.*pip install 'llm-scorekit\[parquet\]'"):
        toolscore.evaluate_dataset(source, output=tmp_path / "o.parquet", progress=False)
    with pytest.raises(DatasetError, match=r"pip install 'llm-scorekit\[ray\]'"):
        toolscore.evaluate_dataset(source, engine="ray", workers=2, progress=False)
