"""What the engine finds out about a whole byte range of JSON lines at once (``line_facts``)
and what it then spares: every claim holds, and the rows come out as if each line had been
searched on its own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekit.batch._jsonlines import LineFacts, decode_lines, line_facts
from scorekit.batch._local import _loads
from scorekit.batch._local import _score_in_worker as _score_range_in_worker
from scorekit.batch._readers import data_lines, read_range_data
from scorekit.batch._scoring import score_batch
from scorekit.batch._sources import SourceFile
from scorekit.batch._task import RowBatch
from toolscore import evaluate
from toolscore._dataset import ToolTask

_LONG_RUN = re.compile(rb"[0-9]{19}")

# Bytes where digits come in runs of every length, with the JSON punctuation between them.
_pieces = st.one_of(
    st.text("0123456789", min_size=1, max_size=40).map(str.encode),
    st.sampled_from([b" ", b",", b"\n", b'"', b"$", b"{", b"}", b"-", b".", b"e", b"a"]),
)
_data = st.lists(_pieces, max_size=60).map(b"".join)


@settings(max_examples=400, deadline=None)
@given(_data)
def test_a_claim_of_no_long_digits_is_never_wrong(data: bytes) -> None:
    facts = line_facts(data)
    if facts.no_long_digits:
        assert _LONG_RUN.search(data) is None
    assert facts.no_dollar == (b"$" not in data)


@pytest.mark.parametrize("offset", range(8))
def test_a_run_of_19_digits_is_found_wherever_it_starts(offset: int) -> None:
    data = b" " * offset + b"1" * 19 + b" " * 5
    assert line_facts(data).no_long_digits is False
    # Up to 12 digits never cover four sampled bytes in a row: known harmless. (13 to 18
    # may: then nothing is claimed, and each line is searched as before.)
    assert line_facts(b" " * offset + b"1" * 12 + b" " * 5).no_long_digits is True


def test_plain_lines_are_known_plain() -> None:
    data = b'{"id": "r1", "n": 12, "t": "2024-01-01T10:00:00"}\n{"id": "r2"}\n'
    assert line_facts(data) == LineFacts(no_dollar=True, no_long_digits=True)


_ints = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([2**64, 2**64 - 1, -(2**63), -(2**63) - 1, 10**19, 123]),
)
_values = st.recursive(
    st.one_of(st.none(), st.booleans(), _ints, st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=4), _values, max_size=4), max_size=6))
def test_rows_decode_the_same_with_the_facts_of_their_range(rows: list[dict[str, object]]) -> None:
    lines = [json.dumps(row).encode() for row in rows]
    data = b"\n".join(lines) + b"\n"
    with_facts = decode_lines(lines, line_facts(data))
    alone = decode_lines(lines)
    assert repr(with_facts) == repr(alone)  # repr: an int read as a float would differ
    assert with_facts == [json.loads(line) for line in lines]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([b"{}", b"", b" ", b"\r", b"\t \x0b\x0c", b' {"a": 1} ', b"x"])))
def test_data_lines_drops_exactly_the_blank_lines(parts: list[bytes]) -> None:
    data = b"\n".join(parts)
    assert data_lines(data) == [line for line in data.split(b"\n") if line.strip()]


def _tool_line(i: int, city: object) -> bytes:
    expected = [{"tool": "search", "args": {"city": city, "n": i}}, {"tool": "book", "args": {}}]
    actual = [{"tool": "search", "args": {"city": "JFK", "n": i}}]
    return json.dumps({"id": f"r{i}", "expected": expected, "actual": actual}).encode()


def test_a_range_with_a_matcher_is_read_with_its_matchers(tmp_path: Path) -> None:
    """A ``$`` in the range: the matcher rows are decoded as matchers, the others as values,
    and every score is what ``evaluate()`` gives (the same for both kinds of batch)."""
    lines = [
        _tool_line(i, {"$regex": "NYC|JFK"} if i % 3 == 0 else "JFK" if i % 3 == 1 else "NYC")
        for i in range(60)
    ]
    data = b"\n".join(lines) + b"\n"
    facts = line_facts(data)
    assert facts == LineFacts(no_dollar=False, no_long_digits=True)
    task = ToolTask()
    with_facts = score_batch(task, RowBatch(lines=lines, facts=facts))
    alone = score_batch(task, RowBatch(lines=lines))
    assert list(with_facts.columns["score"]) == list(alone.columns["score"])
    scores = list(with_facts.columns["score"])
    for i in range(60):
        if i % 3:  # the rows without a matcher
            row = json.loads(lines[i])
            assert scores[i] == evaluate(row["expected"], row["actual"]).score
    assert scores[0] == scores[1]  # the regex matched "JFK" like the plain "JFK" did
    assert scores[0] > scores[2]


def test_the_range_worker_reads_the_lines_it_always_read(tmp_path: Path) -> None:
    """The worker's own reading (range bytes, then lines and facts) gives the file's lines,
    from the first that begins in the range, and the rows of a plain decode."""
    path = tmp_path / "rows.jsonl"
    lines = [_tool_line(i, "JFK") for i in range(40)]
    lines[7] = json.dumps({"id": "big", "n": 2**70, "expected": [], "actual": []}).encode()
    path.write_bytes(b"\n".join(lines) + b"\n\n  \n")
    file = SourceFile(str(path), "jsonl", None, path.stat().st_size)
    start, end = 100, path.stat().st_size  # a range that starts inside a line
    begins = [sum(len(line) + 1 for line in lines[:k]) for k in range(len(lines))]
    later = [line for line, at in zip(lines, begins, strict=True) if at >= start]
    assert data_lines(read_range_data(file, start, end)) == later
    assert data_lines(read_range_data(file, 0, end)) == lines
    import scorekit.batch._local as local

    local._task, local._done = ToolTask(), None
    try:
        (result,) = _loads(_score_range_in_worker((file, 0, end, 2048)))
    finally:
        local._task = None
    want = score_batch(ToolTask(), RowBatch(lines=lines))
    assert result.columns["id"] == want.columns["id"]
    assert list(result.columns["score"]) == list(want.columns["score"])
