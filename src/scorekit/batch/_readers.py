"""Reading a source in batches of rows, in order, with each batch's position in the source.

JSON lines are split into undecoded lines (the per-batch function decodes them), compressed
files are decompressed on the fly and progress counts the bytes read from disk; Parquet is read
one record batch at a time, only the columns the task needs.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import filterfalse
from typing import Any

from scorekit.batch._errors import DatasetError
from scorekit.batch._jsonlines import line_facts
from scorekit.batch._sources import Source, SourceFile, open_raw, parquet_file
from scorekit.batch._task import RowBatch

__all__ = [
    "check_columns",
    "chunked",
    "data_lines",
    "line_ranges",
    "range_batches",
    "read_batches",
    "read_range_data",
    "split_chunks",
    "split_lines",
]

_CHUNK = 1 << 20
_OPENERS: dict[str, Callable[..., Any]] = {"gzip": gzip.open, "bz2": bz2.open, "xz": lzma.open}


class _Counted:
    """A raw byte stream that counts what was read (compressed bytes, for progress)."""

    def __init__(self, raw: Any) -> None:
        self.raw = raw
        self.count = 0

    def read(self, n: int = -1) -> bytes:
        data: bytes = self.raw.read(n)
        self.count += len(data)
        return data

    def readinto(self, buf: Any) -> int:
        data = self.read(len(buf))
        buf[: len(data)] = data
        return len(data)

    def readable(self) -> bool:
        return True

    def close(self) -> None:
        self.raw.close()


def _decompress(raw: Any, compression: str | None) -> Any:
    return raw if compression is None else _OPENERS[compression](raw, "rb")


def _line_chunks(file: SourceFile) -> Iterator[tuple[list[bytes], int]]:
    """The non-blank lines of a JSON-lines file, a chunk at a time, each chunk with the
    input bytes read for it (compressed bytes for a compressed file)."""
    counted = _Counted(open_raw(file))
    stream = _decompress(counted, file.compression)

    def read(n: int) -> bytes:
        try:
            data: bytes = stream.read(n)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise DatasetError(f"{file.path}: cannot be read ({exc})") from None
        return data

    try:
        seen = 0
        for lines in split_chunks(read):
            yield lines, counted.count - seen
            seen = counted.count
    finally:
        stream.close()
        counted.close()


def split_chunks(read: Callable[[int], bytes]) -> Iterator[list[bytes]]:
    """The non-blank lines of a byte stream (without their newline), read in 1 MiB chunks
    and given a chunk's lines at a time.

    Example:
        >>> import io
        >>> list(split_chunks(io.BytesIO(b'{"a": 1}\\n\\n{"b": 2}').read))
        [[b'{"a": 1}'], [b'{"b": 2}']]
    """
    rest = b""
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            break
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        lines = _non_blank(parts)
        if lines:
            yield lines
    if rest.strip():
        yield [rest]


def split_lines(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """The non-blank lines of a byte stream (without their newline), read in 1 MiB chunks.

    Example:
        >>> import io
        >>> list(split_lines(io.BytesIO(b'{"a": 1}\\n\\n{"b": 2}').read))
        [b'{"a": 1}', b'{"b": 2}']
    """
    for lines in split_chunks(read):
        yield from lines


def line_ranges(file: SourceFile, parts: int, *, most: int, least: int) -> list[tuple[int, int]]:
    """Byte ranges that split a plain JSON-lines file for parallel reading.

    About ``parts`` ranges, each between ``least`` and ``most`` bytes; one range ``(0, -1)``
    (the whole file, streamed) for a file that cannot be split: compressed, of unknown size, or
    a ``.json`` file (which may hold one JSON array).

    Example:
        >>> line_ranges(SourceFile("a.jsonl", "jsonl", None, 10), 2, most=8, least=4)
        [(0, 5), (5, 10)]
    """
    size = file.size
    if file.compression is not None or size is None or file.path.lower().endswith(".json"):
        return [(0, -1)]
    step = min(max(-(-size // max(parts, 1)), least), most)
    return [(start, min(start + step, size)) for start in range(0, max(size, 1), step)]


def read_range_data(file: SourceFile, start: int, end: int) -> bytes:
    """The bytes of the lines that begin in bytes ``[start, end)`` of an uncompressed
    JSON-lines file, newlines included (:func:`data_lines` cuts them into lines).

    A line belongs to the range its first byte is in, so consecutive ranges read every line
    exactly once, whatever the lines' lengths.

    Raises:
        DatasetError: the file cannot be read.
    """
    try:
        with open_raw(file, seekable=True) as raw:
            begin = max(start - 1, 0)
            raw.seek(begin)
            data: bytes = raw.read(end - begin)
            if start > 0:
                # Reading from the byte before the range tells whether a line begins at its
                # first byte; the line in progress there belongs to the range before.
                cut = data.find(b"\n")
                if cut < 0:
                    return b""
                data = data[cut + 1 :]
            if data and not data.endswith(b"\n"):
                tail = []
                for chunk in iter(lambda: raw.read(_CHUNK), b""):  # the last line, past the end
                    newline = chunk.find(b"\n")
                    tail.append(chunk if newline < 0 else chunk[:newline])
                    if newline >= 0:
                        break
                data += b"".join(tail)
    except OSError as exc:
        raise DatasetError(f"{file.path}: cannot be read ({exc})") from None
    return data


def range_batches(file: SourceFile, start: int, end: int, size: int) -> Iterator[RowBatch]:
    """The lines that begin in bytes ``[start, end)`` of ``file`` (:func:`read_range_data`) in
    batches of ``size``; the range's bytes count for its first batch (progress), which is an
    empty one when no line begins in the range. What the engines know of the lines is found
    out for the whole range at once (:func:`line_facts`), not line by line."""
    data = read_range_data(file, start, end)
    lines, facts = data_lines(data), line_facts(data)
    del data
    nbytes = end - start
    for at in range(0, len(lines), size):
        yield RowBatch(lines=lines[at : at + size], nbytes=nbytes, facts=facts)
        nbytes = 0
    if not lines:
        yield RowBatch(lines=[], nbytes=nbytes)


def data_lines(data: bytes) -> list[bytes]:
    """The non-blank lines of ``data``, without their newlines.

    Example:
        >>> data_lines(b'{"a": 1}\\n \\r\\n\\n{"b": 2}\\r\\n')
        [b'{"a": 1}', b'{"b": 2}\\r']
    """
    return _non_blank(data.split(b"\n"))


def _non_blank(lines: list[bytes]) -> list[bytes]:
    # Empty lines go first, then those of whitespace only: isspace() stops at a line's first
    # byte, where strip() would copy the whole line only to test it.
    return list(filterfalse(bytes.isspace, filter(None, lines)))


def _json_array(file: SourceFile) -> list[Any] | None:
    """The rows of a ``.json`` file holding one JSON array, or None for JSON lines."""
    if file.compression is not None or not file.path.lower().endswith(".json"):
        return None
    with open_raw(file) as raw:
        head = raw.read(4096).lstrip()
        if not head.startswith(b"["):
            return None
        data = head + raw.read()
    try:
        rows = json.loads(data)
    except ValueError as exc:
        raise DatasetError(f"{file.path}: not valid JSON ({exc})") from None
    return rows if isinstance(rows, list) else None


def check_columns(names: Sequence[str], wanted: Sequence[str], where: str) -> None:
    """A columnar source must have every column the task reads.

    Raises:
        DatasetError: a column is missing (the message lists the ones there are).
    """
    missing = [w for w in wanted if w not in names]
    if missing:
        raise DatasetError(
            f"{where} has no column {missing[0]!r} (columns: {', '.join(names) or 'none'});"
            " name the right column (e.g. --id-column / --gold-column)"
        )


def chunked(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
    """``items`` in lists of ``size`` (the last one shorter)."""
    chunk: list[Any] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def read_batches(source: Source, batch_size: int, columns: Sequence[str]) -> Iterator[RowBatch]:
    """Read ``source`` in batches of up to ``batch_size`` rows, in order, with positions.

    Args:
        source: what to read (not a Ray dataset).
        batch_size: rows per batch.
        columns: the columns the task reads (a Parquet file must have them all).

    Raises:
        DatasetError: an input cannot be read, or a Parquet file lacks a column.
    """
    position = 0
    for batch in _batches(source, batch_size, columns):
        batch.start = position
        position += len(batch)
        yield batch


def _batches(source: Source, batch_size: int, columns: Sequence[str]) -> Iterator[RowBatch]:
    """The batches of :func:`read_batches`, before their positions are set."""
    if source.dataset is not None:
        raise DatasetError("a Ray dataset can only be scored with engine='ray'")
    if source.table is not None:
        check_columns(source.table.schema.names, columns, source.label)
        batches = source.table.to_batches(max_chunksize=batch_size)
        yield from (RowBatch(table=rb) for rb in batches if rb.num_rows)
        return
    if source.records is not None:
        yield from (RowBatch(records=chunk) for chunk in chunked(source.records, batch_size))
        return
    for file in source.files:
        if file.format == "parquet":
            pf = parquet_file(file)
            check_columns(pf.schema_arrow.names, columns, file.path)
            try:
                for rb in pf.iter_batches(batch_size=batch_size, columns=list(columns)):
                    yield RowBatch(table=rb)
            except DatasetError:
                raise
            except Exception as exc:
                raise DatasetError(f"{file.path}: cannot be read ({exc})") from None
            continue
        array = _json_array(file)
        if array is not None:
            yield from (RowBatch(records=chunk) for chunk in chunked(array, batch_size))
            continue
        # A chunk's bytes count for the batch its first line goes to (progress only).
        lines: list[bytes] = []
        nbytes = 0
        for chunk, size in _line_chunks(file):
            lines += chunk
            nbytes += size
            while len(lines) >= batch_size:
                yield RowBatch(lines=lines[:batch_size], nbytes=nbytes)
                del lines[:batch_size]
                nbytes = 0
        if lines:
            yield RowBatch(lines=lines, nbytes=nbytes)
