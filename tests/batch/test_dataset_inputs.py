"""Inputs and outputs of evaluate_dataset beyond the common case: every compression, a
``.json`` file holding one array, files that cannot be read, outputs that cannot be resumed,
and the gold file's error messages."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import re
from pathlib import Path

import pytest
from datasets import GOLD, read_jsonl, tool_rows, write_jsonl

import toolscore
from scorekit.batch import DatasetError

pytest.importorskip("pyarrow")

# tool_rows cycles through four kinds scoring 1.0, 0.1, 1.0, 1.0 (datasets.SCORE): nine rows
# hold seven that score 1.0 and two that score 0.1.
NINE_MEAN = (7 * 1.0 + 2 * 0.1) / 9


def _lines(n: int) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in tool_rows(n)).encode()


@pytest.mark.parametrize(("suffix", "compress"), [(".bz2", bz2.compress), (".xz", lzma.compress)])
def test_bz2_and_xz_json_lines_score_like_plain_ones(
    tmp_path: Path, suffix: str, compress: object
) -> None:
    path = tmp_path / f"t.jsonl{suffix}"
    path.write_bytes(compress(_lines(9)))  # type: ignore[operator]
    summary = toolscore.evaluate_dataset(path, workers=1, progress=False)
    assert (summary.rows, summary.errors) == (9, 0)
    assert summary.mean == pytest.approx(NINE_MEAN)


def test_a_json_file_may_hold_one_array_or_json_lines(tmp_path: Path) -> None:
    array = tmp_path / "array.json"
    array.write_text("\n  " + json.dumps(tool_rows(9), indent=1))  # leading blanks, then [
    lines = tmp_path / "lines.json"
    lines.write_bytes(_lines(9))
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(array, output=out, batch_size=4, progress=False)
    assert summary.rows == 9 and summary.mean == pytest.approx(NINE_MEAN)
    assert [(r["id"], r["row"]) for r in read_jsonl(out)] == [(f"t{i}", i) for i in range(9)]
    assert toolscore.evaluate_dataset(lines, workers=1, progress=False).rows == 9


def test_files_that_cannot_be_read_are_named_with_the_reason(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('[{"id": "a"},')
    with pytest.raises(DatasetError, match=r"broken\.json: not valid JSON \(Expecting value"):
        toolscore.evaluate_dataset(broken, workers=1, progress=False)
    whole = gzip.compress(_lines(50))
    torn = tmp_path / "torn.jsonl.gz"
    torn.write_bytes(whole[: len(whole) // 2])
    with pytest.raises(DatasetError, match=r"torn\.jsonl\.gz: cannot be read \(.*end-of-stream"):
        toolscore.evaluate_dataset(torn, workers=1, progress=False)
    plain = tmp_path / "plain.jsonl.gz"
    plain.write_bytes(_lines(2))  # named .gz, not compressed
    with pytest.raises(DatasetError, match=r"plain\.jsonl\.gz: cannot be read \(Not a gzipped"):
        toolscore.evaluate_dataset(plain, workers=1, progress=False)


def test_an_output_that_is_a_folder_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "out.jsonl"
    folder.mkdir()
    with pytest.raises(DatasetError, match=r"is a folder; give a file name"):
        toolscore.evaluate_dataset(tool_rows(2), output=folder, progress=False)


def test_a_resumed_json_lines_output_drops_a_torn_last_row_and_reads_compact_rows(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(tool_rows(6), output=out, workers=1, progress=False)
    reference = read_jsonl(out)
    # Rows rewritten compactly by another tool still count as done; the last row cut in the
    # middle of its value (as a kill during the write leaves it, here with its newline) is
    # dropped and scored again.
    compact = [json.dumps(r, separators=(",", ":")) for r in reference[:5]]
    torn = json.dumps(reference[5])[:30]
    out.write_text("\n".join([*compact, torn]) + "\n")
    summary = toolscore.evaluate_dataset(
        tool_rows(6), output=out, resume=True, workers=1, progress=False
    )
    assert (summary.resumed, summary.new_rows) == (5, 1)
    assert read_jsonl(out) == reference


def test_a_parquet_output_that_is_not_one_of_ours_is_not_resumed(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = tmp_path / "out.parquet"
    out.write_bytes(b"these bytes are no Parquet file")
    with pytest.raises(DatasetError, match=r"not a readable Parquet part"):
        toolscore.evaluate_dataset(tool_rows(2), output=out, resume=True, progress=False)
    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"question": ["q"], "answer": ["a"]}), other)
    with pytest.raises(DatasetError, match=r"holds results of another kind of run"):
        toolscore.evaluate_dataset(tool_rows(2), output=other, resume=True, progress=False)


def test_a_gold_file_with_errors_is_named_with_what_is_wrong(tmp_path: Path) -> None:
    rows = [{"id": "t0", "actual": GOLD}]
    bad_object = tmp_path / "gold.json"
    bad_object.write_text('{"t0": [')
    with pytest.raises(DatasetError, match=r"gold\.json: not valid JSON"):
        toolscore.evaluate_dataset(rows, gold_file=bad_object, progress=False)
    bad_line = write_jsonl(tmp_path / "gold.jsonl", [{"id": "t0", "expected": GOLD}, "{oops"])
    with pytest.raises(DatasetError, match=r"gold\.jsonl: a line is not valid JSON"):
        toolscore.evaluate_dataset(rows, gold_file=bad_line, progress=False)
    no_key = write_jsonl(tmp_path / "nokey.jsonl", [{"expected": GOLD}])
    with pytest.raises(DatasetError, match=r"every row needs 'id' and 'expected'; got"):
        toolscore.evaluate_dataset(rows, gold_file=no_key, progress=False)
    empty = write_jsonl(tmp_path / "empty.jsonl", [])
    with pytest.raises(DatasetError, match=r"empty\.jsonl: holds no gold rows"):
        toolscore.evaluate_dataset(rows, gold_file=empty, progress=False)
    with pytest.raises(ValueError, match=r"gold_file needs gold_key \(or id\)"):
        toolscore.evaluate_dataset(rows, gold_file=no_key, id=None, progress=False)
    with pytest.raises(ValueError, match=r"trace must name a column .*got ''"):
        toolscore.evaluate_dataset(rows, trace="", progress=False)


def test_rows_whose_key_or_text_columns_are_unusable_become_error_rows(tmp_path: Path) -> None:
    gold_file = write_jsonl(tmp_path / "gold.jsonl", [{"id": "t0", "expected": GOLD}])
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(
        [
            {"id": "t0", "actual": GOLD},
            {"case": "t0", "actual": GOLD},  # no id: its gold cannot be found
            {"id": "t0", "actual": "[{not json"},  # a text column that is not JSON
        ],
        gold_file=gold_file,
        output=out,
        workers=1,
        progress=False,
    )
    got = read_jsonl(out)
    assert got[0]["score"] == 1.0 and got[0]["error"] is None
    assert got[1]["error_kind"] == "missing_column"
    assert "the row has no 'id' value" in got[1]["error"]
    assert got[2]["error"].startswith("'actual' holds text that is not JSON (")


def test_sources_that_hold_nothing_to_read_are_refused(tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("no data here")
    (folder / ".hidden.jsonl").write_bytes(_lines(1))  # hidden files are not data
    with pytest.raises(DatasetError, match=r"notes: the folder holds no \.jsonl or \.parquet"):
        toolscore.evaluate_dataset(folder, progress=False)
    with pytest.raises(DatasetError, match=r"notes: holds no \.jsonl or \.parquet files"):
        toolscore.evaluate_dataset(folder.as_uri(), progress=False)
    with pytest.raises(DatasetError, match=r"nosuchscheme://bucket/x: cannot be listed \("):
        toolscore.evaluate_dataset("nosuchscheme://bucket/x", progress=False)
    for wrong, name in (({"id": "t0"}, "dict"), (42, "int")):
        with pytest.raises(DatasetError, match=rf"source must be a path, .*; got {name}$"):
            toolscore.evaluate_dataset(wrong, progress=False)  # type: ignore[arg-type]
    fake = tmp_path / "fake.parquet"
    fake.write_bytes(b"PAR1 but nothing else")
    with pytest.raises(DatasetError, match=r"fake\.parquet: not a readable Parquet file \("):
        toolscore.evaluate_dataset(fake, progress=False)


def test_a_list_of_files_is_read_in_the_order_given(tmp_path: Path) -> None:
    first = write_jsonl(tmp_path / "b.jsonl", tool_rows(6)[:4])
    second = write_jsonl(tmp_path / "a.jsonl", tool_rows(6)[4:])
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(
        [first, str(second)], output=out, workers=1, progress=False
    )
    assert summary.source == f"{first}, {second}"
    assert [(r["id"], r["row"]) for r in read_jsonl(out)] == [(f"t{i}", i) for i in range(6)]


def test_ids_of_any_json_type_are_written_as_text(tmp_path: Path) -> None:
    ids: list[object] = [7, True, 1.5, {"b": 1, "a": "é"}, "plain", None]
    rows = [{**row, "id": i} for row, i in zip(tool_rows(6), ids, strict=True)]
    out = tmp_path / "out.jsonl"
    toolscore.evaluate_dataset(rows, output=out, workers=1, progress=False)
    assert [r["id"] for r in read_jsonl(out)] == [
        "7",
        "true",
        "1.5",
        '{"a": "é", "b": 1}',  # keys sorted: the same object gives the same id
        "plain",
        None,
    ]


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("workers", 0, "workers must be a whole number >= 1 or None; got 0"),
        ("workers", 2.0, "workers must be a whole number >= 1 or None; got 2.0"),
        ("batch_size", True, "batch_size must be a whole number >= 1 or None; got True"),
        ("max_errors", -1, "max_errors must be a whole number >= 0 or None; got -1"),
    ],
)
def test_run_options_must_be_whole_numbers(option: str, value: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        toolscore.evaluate_dataset(tool_rows(2), progress=False, **{option: value})  # type: ignore[arg-type]


def test_max_errors_zero_stops_at_the_first_bad_row_and_none_never_stops(tmp_path: Path) -> None:
    rows: list[object] = [*tool_rows(2), "{oops", *tool_rows(4)[2:]]
    source = write_jsonl(tmp_path / "t.jsonl", rows)
    stopped = toolscore.evaluate_dataset(
        source, max_errors=0, batch_size=1, workers=1, progress=False
    )
    assert stopped.stopped is not None and stopped.errors == 1
    whole = toolscore.evaluate_dataset(source, max_errors=None, workers=1, progress=False)
    assert whole.stopped is None and (whole.rows, whole.errors) == (5, 1)
