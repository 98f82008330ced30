"""Reading JSON lines: chunk boundaries anywhere in a line, byte ranges that cut a file for
parallel reading, line endings, blank lines, and decoding that gives the standard library's
values and error messages."""

from __future__ import annotations

import gc
import io
import json
import math
import random
from pathlib import Path

import pytest

import toolscore
from scorekit.batch import _jsonlines, _readers
from scorekit.batch._errors import DatasetError
from scorekit.batch._jsonlines import decode_lines
from scorekit.batch._readers import (
    data_lines,
    line_ranges,
    read_batches,
    read_range_data,
    split_chunks,
    split_lines,
)
from scorekit.batch._sources import SourceFile, resolve_source

# "é" is two bytes (C3 A9), "€" three (E2 82 AC): a small read size cuts them in two.
TEXT = (
    b'{"id": "a", "v": "caf\xc3\xa9"}\r\n'
    b"\n"
    b"   \r\n"
    b'{"id": "b", "v": "5\xe2\x82\xac"}\n'
    b"\n\n"
    b'{"id": "c", "v": 1}'  # the last line has no newline
)
LINES = [
    b'{"id": "a", "v": "caf\xc3\xa9"}\r',
    b'{"id": "b", "v": "5\xe2\x82\xac"}',
    b'{"id": "c", "v": 1}',
]


def _reads_of(data: bytes, size: int):  # type: ignore[no-untyped-def]
    stream = io.BytesIO(data)
    return lambda _n: stream.read(size)


@pytest.mark.parametrize("size", [1, 2, 3, 5, 7, 29, 1 << 20])
def test_lines_survive_any_chunk_boundary(size: int) -> None:
    chunks = list(split_chunks(_reads_of(TEXT, size)))
    assert [line for chunk in chunks for line in chunk] == LINES
    assert all(chunks)  # a chunk without a line is not handed on
    assert list(split_lines(_reads_of(TEXT, size))) == LINES


def test_a_blank_or_empty_stream_has_no_lines() -> None:
    assert list(split_chunks(_reads_of(b"", 4))) == []
    assert list(split_chunks(_reads_of(b"\n\r\n  \n", 2))) == []


@pytest.mark.parametrize("chunk", [3, 11, 64])
@pytest.mark.parametrize("batch_size", [1, 2, 5])
def test_batches_number_rows_and_bytes_whatever_the_chunk_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int, batch_size: int
) -> None:
    rows = [f'{{"id": "r{i}", "v": "\u00e9\u20ac{i}"}}'.encode() for i in range(9)]
    data = b"\r\n".join(rows[:4]) + b"\r\n\r\n" + b"\n".join(rows[4:])  # no final newline
    path = tmp_path / "rows.jsonl"
    path.write_bytes(data)
    monkeypatch.setattr(_readers, "_CHUNK", chunk)

    batches = list(read_batches(resolve_source(path), batch_size, ["id", "v"]))

    lines = [line for b in batches for line in (b.lines or [])]
    assert [line.rstrip(b"\r") for line in lines] == rows
    # Full batches, then the rest; each starts where the one before ended.
    sizes = [len(b.lines or []) for b in batches]
    assert sizes == [batch_size] * (9 // batch_size) + ([9 % batch_size] if 9 % batch_size else [])
    assert [b.start for b in batches] == [sum(sizes[:i]) for i in range(len(sizes))]
    assert sum(b.nbytes for b in batches) == len(data)


def _ranged(path: Path, parts: int, most: int, least: int) -> tuple[list[bytes], list[int]]:
    file = resolve_source(path).files[0]
    ranges = line_ranges(file, parts, most=most, least=least)
    lines = [
        line for start, end in ranges for line in data_lines(read_range_data(file, start, end))
    ]
    return lines, [end - start for start, end in ranges]


@pytest.mark.parametrize("least", [1, 2, 3, 7, 13, 1 << 20])
def test_byte_ranges_read_every_line_once_wherever_they_cut(tmp_path: Path, least: int) -> None:
    path = tmp_path / "rows.jsonl"
    path.write_bytes(TEXT)
    lines, sizes = _ranged(path, 50, most=max(least, 5), least=least)
    assert lines == LINES
    assert sum(sizes) == len(TEXT)  # progress counts every byte once


def test_byte_ranges_on_random_files_match_the_streaming_reader(tmp_path: Path) -> None:
    rng = random.Random(7)
    path = tmp_path / "rows.jsonl"
    for _ in range(200):
        # Long and empty lines, blank ones, CRLF, with or without a final newline: a range
        # boundary falls anywhere, also inside a line longer than several ranges.
        parts = [
            rng.choice([b"", b" \r", b"x" * rng.choice([1, 2, 9, 40, 300])])
            for _ in range(rng.randint(0, 30))
        ]
        data = rng.choice([b"\n", b"\r\n"]).join(parts) + rng.choice([b"", b"\n"])
        path.write_bytes(data)
        want = list(split_lines(io.BytesIO(data).read))
        least = rng.choice([1, 2, 5, 33])
        lines, sizes = _ranged(path, rng.randint(1, 40), most=least * 2, least=least)
        assert lines == want, data
        assert sum(sizes) == len(data)


def test_files_that_cannot_be_cut_are_one_range() -> None:
    assert line_ranges(SourceFile("a.jsonl.gz", "jsonl", "gzip", 10**9), 8, most=9, least=1) == [
        (0, -1)
    ]
    assert line_ranges(SourceFile("a.json", "jsonl", None, 10**9), 8, most=9, least=1) == [(0, -1)]
    assert line_ranges(SourceFile("a.jsonl", "jsonl", None, None), 8, most=9, least=1) == [(0, -1)]
    assert line_ranges(SourceFile("a.jsonl", "jsonl", None, 0), 8, most=9, least=1) == [(0, 0)]
    # About ``parts`` ranges, within the bounds.
    assert len(line_ranges(SourceFile("a.jsonl", "jsonl", None, 1000), 8, most=999, least=1)) == 8
    assert len(line_ranges(SourceFile("a.jsonl", "jsonl", None, 1000), 8, most=50, least=1)) == 20
    assert len(line_ranges(SourceFile("a.jsonl", "jsonl", None, 1000), 8, most=999, least=500)) == 2


def test_a_range_of_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    gone = SourceFile(str(tmp_path / "gone.jsonl"), "jsonl", None, 100)
    with pytest.raises(DatasetError, match=r"gone\.jsonl: cannot be read \("):
        read_range_data(gone, 0, 100)


def test_decoding_gives_the_standard_librarys_values() -> None:
    lines = [
        b'{"n": 123456789012345678901234567890}',  # beyond 64 bits: an int, not 1.23e29
        b'{"n": -9223372036854775809}',
        b'{"n": 9223372036854775807, "m": 18446744073709551615}',
        b'{"x": NaN, "y": Infinity, "z": -Infinity}',
        b'{"s": "\\ud800"}',  # a lone surrogate
        b'{"big": 1e400, "tiny": 1e-400}',
        b'{"f": 0.1, "g": 2.5e-3, "h": -0.0}',
        b'{"a": 1, "a": 2}',
        b'  {"t": true, "u": null}  \r',
    ]
    rows = decode_lines(lines)
    assert rows[0] == {"n": 123456789012345678901234567890} and type(rows[0]["n"]) is int
    assert rows[1] == {"n": -9223372036854775809}
    assert rows[2] == {"n": 2**63 - 1, "m": 2**64 - 1}
    x, y, z = rows[3]["x"], rows[3]["y"], rows[3]["z"]
    assert math.isnan(x) and y == math.inf and z == -math.inf
    assert rows[4] == {"s": "\ud800"}
    assert rows[5] == {"big": math.inf, "tiny": 0.0}
    assert rows[6] == {"f": 0.1, "g": 0.0025, "h": 0.0} and math.copysign(1, rows[6]["h"]) == -1
    assert rows[7] == {"a": 2}
    assert rows[8] == {"t": True, "u": None}


def test_bad_lines_give_the_same_errors_with_or_without_orjson(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bad = [b'{"a": 1', b"[1, 2]", b'"text"', b"\xff{}", b"{'a': 1}", b'{"a": 1}x', b"null"]
    with_fast = decode_lines(bad)
    monkeypatch.setattr(_jsonlines, "_fast_loads", None)
    without = decode_lines(bad)
    messages = [(e.kind, e.message) for e in with_fast]  # type: ignore[union-attr]
    assert messages == [(e.kind, e.message) for e in without]  # type: ignore[union-attr]
    assert messages[1] == ("bad_json", "the line holds a JSON array, not an object with columns")
    assert messages[2] == ("bad_json", "the line holds a JSON string, not an object with columns")
    assert messages[3][1].startswith("the line is not UTF-8 text (invalid start byte at byte 0)")
    assert messages[6] == ("bad_json", "the line holds a JSON null, not an object with columns")
    assert messages[0][1].startswith("the line is not valid JSON (")


def test_a_huge_integer_id_is_written_as_its_digits(tmp_path: Path) -> None:
    # A 30-digit id: read as a float it would be written as "1.2345678901234568e+29".
    source = tmp_path / "rows.jsonl"
    calls = [{"tool": "search", "args": {"q": "x"}}]
    rows = [
        {"id": 123456789012345678901234567890, "expected": calls, "actual": calls},
        {"id": 7, "expected": calls, "actual": []},
    ]
    source.write_bytes(b"\r\n".join(json.dumps(r).encode() for r in rows) + b"\r\n")
    out = tmp_path / "out.jsonl"
    summary = toolscore.evaluate_dataset(source, output=out, workers=1, progress=False)
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["row"], r["score"]) for r in written] == [
        ("123456789012345678901234567890", 0, 1.0),
        # No call made: only the non-redundancy weight (0.1) is earned.
        ("7", 1, 0.1),
    ]
    assert summary.rows == 2 and summary.errors == 0


def test_a_run_leaves_the_collectors_frozen_objects_as_it_found_them(tmp_path: Path) -> None:
    source = tmp_path / "rows.jsonl"
    calls = [{"tool": "search", "args": {"q": "x"}}]
    source.write_text(json.dumps({"id": "a", "expected": calls, "actual": calls}) + "\n")
    gc.unfreeze()  # a known start: nothing frozen
    toolscore.evaluate_dataset(source, workers=1, progress=False)
    assert gc.get_freeze_count() == 0  # frozen for the run, unfrozen after it

    gc.freeze()  # a process that froze its own objects keeps them frozen
    try:
        frozen = gc.get_freeze_count()
        toolscore.evaluate_dataset(source, workers=1, progress=False)
        # Not unfrozen (that leaves 0), nothing more frozen. A frozen object may still be freed
        # meanwhile (a cache entry replaced, a finished thread of an earlier test's).
        assert frozen * 0.99 <= gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()
