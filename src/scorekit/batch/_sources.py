"""Where rows come from: JSON-lines and Parquet files (local or object-store URIs), folders of
them, in-memory rows, a ``pyarrow`` table; read in batches, never whole.

Formats by suffix: ``.jsonl``, ``.ndjson`` and ``.json`` (JSON lines; a ``.json`` file whose
first character is ``[`` is one JSON array, read whole), each optionally ``.gz``, ``.bz2`` or
``.xz``; ``.parquet`` / ``.pq``. A folder means every such file inside it, in sorted path order.
URIs (``s3://``, ``gs://``, ``file://``...) go through ``pyarrow.fs``.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekit.batch._errors import DatasetError, require_pyarrow
from scorekit.batch._task import RowBatch

__all__ = ["Source", "SourceFile", "read_batches", "resolve_source", "split_lines"]

_COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz"}
_JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
_PARQUET_SUFFIXES = (".parquet", ".pq")
_CHUNK = 1 << 20


@dataclass(frozen=True)
class SourceFile:
    """One input file.

    Attributes:
        path: a local path or a URI.
        format: ``jsonl`` or ``parquet``.
        compression: ``gzip``, ``bz2``, ``xz`` or None.
        size: bytes on disk, when known.
    """

    path: str
    format: str
    compression: str | None = None
    size: int | None = None


@dataclass
class Source:
    """What to score: files, in-memory rows, a pyarrow table or a Ray dataset.

    Attributes:
        label: how messages name it.
        files: the input files, in reading order.
        records: rows as mappings (an in-memory source).
        table: a ``pyarrow.Table``.
        dataset: a ``ray.data.Dataset`` (the ray engine only).
    """

    label: str
    files: tuple[SourceFile, ...] = ()
    records: Iterable[Any] | None = None
    table: Any = None
    dataset: Any = None

    @property
    def formats(self) -> set[str]:
        """The file formats among the inputs."""
        return {f.format for f in self.files}

    def total_bytes(self) -> int | None:
        """Input bytes when every input is a JSON-lines file of known size (for progress)."""
        if not self.files or any(f.format != "jsonl" or f.size is None for f in self.files):
            return None
        return sum(f.size or 0 for f in self.files)

    def total_rows(self) -> int | None:
        """Row count when it is known without reading the rows (Parquet footers, a table)."""
        if self.table is not None:
            return int(self.table.num_rows)
        if isinstance(self.records, Sequence):
            return len(self.records)
        if self.files and all(f.format == "parquet" for f in self.files):
            return sum(int(parquet_file(f).metadata.num_rows) for f in self.files)
        return None


def is_uri(path: str) -> bool:
    """True for ``scheme://...`` (object stores, ``file://``); False for local paths."""
    head, sep, _ = path.partition("://")
    return bool(sep) and head.isalnum() and len(head) > 1


def _split_suffix(name: str) -> tuple[str, str | None]:
    lower = name.lower()
    for suffix, compression in _COMPRESSIONS.items():
        if lower.endswith(suffix):
            return lower[: -len(suffix)], compression
    return lower, None


def _file_of(path: str, size: int | None, *, listed: bool) -> SourceFile | None:
    stem, compression = _split_suffix(path)
    if stem.endswith(_JSON_SUFFIXES):
        return SourceFile(path, "jsonl", compression, size)
    if stem.endswith(_PARQUET_SUFFIXES) and compression is None:
        return SourceFile(path, "parquet", None, size)
    if listed:
        return None  # a file of another kind inside a folder: not ours
    raise DatasetError(
        f"{path}: cannot tell the format from the name; use .jsonl (JSON lines, optionally"
        " .gz/.bz2/.xz) or .parquet"
    )


def _local_files(path: str) -> list[SourceFile]:
    p = Path(path).expanduser()
    if p.is_dir():
        found = [
            _file_of(str(f), f.stat().st_size, listed=True)
            for f in sorted(p.rglob("*"))
            if f.is_file() and not f.name.startswith((".", "_"))
        ]
        files = [f for f in found if f is not None]
        if not files:
            raise DatasetError(f"{path}: the folder holds no .jsonl or .parquet files")
        return files
    if not p.exists():
        raise DatasetError(f"{path}: no such file or folder")
    file = _file_of(str(p), p.stat().st_size, listed=False)
    assert file is not None
    return [file]


def _uri_files(uri: str) -> list[SourceFile]:
    require_pyarrow(f"reading {uri}")
    from pyarrow import fs as pafs

    try:
        filesystem, path = pafs.FileSystem.from_uri(uri)
        info = filesystem.get_file_info(path)
        if info.type == pafs.FileType.Directory:
            infos = filesystem.get_file_info(pafs.FileSelector(path, recursive=True))
        elif info.type == pafs.FileType.NotFound:
            raise DatasetError(f"{uri}: no such file or folder")
        else:
            infos = [info]
    except DatasetError:
        raise
    except Exception as exc:  # a store's own errors: no credentials, no network...
        raise DatasetError(f"{uri}: cannot be listed ({exc})") from None
    scheme = uri.partition("://")[0]
    found = []
    for item in sorted(infos, key=lambda i: i.path):
        if item.type != pafs.FileType.File or item.base_name.startswith((".", "_")):
            continue
        full = item.path if is_uri(item.path) else f"{scheme}://{item.path.lstrip('/')}"
        if scheme == "file":
            full = "file://" + item.path
        file = _file_of(full, item.size, listed=len(infos) > 1 or info.type != pafs.FileType.File)
        if file is not None:
            found.append(file)
    if not found:
        raise DatasetError(f"{uri}: holds no .jsonl or .parquet files")
    return found


def resolve_source(source: Any) -> Source:
    """Turn what a user passes into a :class:`Source`.

    Args:
        source: a path or URI (file or folder), a list of them, an iterable of row mappings,
            a ``pyarrow.Table`` or a ``ray.data.Dataset``.

    Raises:
        DatasetError: a path that does not exist, a folder with no data files, a file whose
            format the name does not tell.
    """
    if isinstance(source, (str, os.PathLike)):
        text = os.fspath(source)
        files = _uri_files(text) if is_uri(text) else _local_files(text)
        return Source(text, tuple(files))
    if type(source).__module__.startswith("ray.data"):
        return Source("a Ray dataset", dataset=source)
    if type(source).__module__.startswith("pyarrow") and hasattr(source, "to_batches"):
        return Source("a pyarrow table", table=source)
    if (
        isinstance(source, (list, tuple))
        and source
        and all(isinstance(s, (str, os.PathLike)) for s in source)
    ):
        listed: list[SourceFile] = []
        for s in source:
            listed.extend(resolve_source(s).files)
        return Source(", ".join(os.fspath(s) for s in source), tuple(listed))
    if isinstance(source, Mapping) or not isinstance(source, Iterable):
        raise DatasetError(
            f"source must be a path, a list of paths, rows (an iterable of dicts) or a"
            f" pyarrow table; got {type(source).__name__}"
        )
    return Source("rows", records=source)


# -- reading ----------------------------------------------------------------------------------


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


def _open_raw(file: SourceFile) -> Any:
    if is_uri(file.path):
        from pyarrow import fs as pafs

        filesystem, path = pafs.FileSystem.from_uri(file.path)
        return filesystem.open_input_stream(path, compression=None)
    return open(file.path, "rb")  # closed by the reader


def _decompress(raw: Any, compression: str | None) -> Any:
    if compression == "gzip":
        return gzip.GzipFile(fileobj=raw, mode="rb")
    if compression == "bz2":
        return bz2.BZ2File(raw, mode="rb")
    if compression == "xz":
        return lzma.LZMAFile(raw, mode="rb")
    return raw


def _lines(file: SourceFile) -> Iterator[tuple[bytes, int]]:
    """The non-blank lines of a JSON-lines file, each with the input bytes read since the
    last one (compressed bytes for a compressed file)."""
    counted = _Counted(_open_raw(file))
    stream = _decompress(counted, file.compression)

    def read(n: int) -> bytes:
        try:
            data: bytes = stream.read(n)
        except (OSError, EOFError, lzma.LZMAError) as exc:
            raise DatasetError(f"{file.path}: cannot be read ({exc})") from None
        return data

    try:
        seen = 0
        for line in split_lines(read):
            yield line, counted.count - seen
            seen = counted.count
    finally:
        stream.close()
        counted.close()


def split_lines(read: Callable[[int], bytes]) -> Iterator[bytes]:
    """The non-blank lines of a byte stream (without their newline), read in 1 MiB chunks.

    Example:
        >>> import io
        >>> list(split_lines(io.BytesIO(b'{"a": 1}\\n\\n{"b": 2}').read))
        [b'{"a": 1}', b'{"b": 2}']
    """
    rest = b""
    while True:
        chunk = read(_CHUNK)
        if not chunk:
            break
        parts = (rest + chunk).split(b"\n")
        rest = parts.pop()
        for line in parts:
            if line.strip():
                yield line
    if rest.strip():
        yield rest


def _json_array(file: SourceFile) -> list[Any] | None:
    """The rows of a ``.json`` file holding one JSON array, or None for JSON lines."""
    if file.compression is not None or not file.path.lower().endswith(".json"):
        return None
    raw = _open_raw(file)
    try:
        head = raw.read(4096).lstrip()
        if not head.startswith(b"["):
            return None
        data = head + raw.read()
    finally:
        raw.close()
    try:
        rows = json.loads(data)
    except ValueError as exc:
        raise DatasetError(f"{file.path}: not valid JSON ({exc})") from None
    return rows if isinstance(rows, list) else None


def parquet_file(file: SourceFile) -> Any:
    """The file as a ``pyarrow.parquet.ParquetFile`` (a local path or a URI).

    Raises:
        DatasetError: pyarrow is missing, or the file is not readable Parquet.
    """
    require_pyarrow(f"reading {file.path}")
    import pyarrow.parquet as pq

    try:
        if is_uri(file.path):
            from pyarrow import fs as pafs

            filesystem, path = pafs.FileSystem.from_uri(file.path)
            return pq.ParquetFile(filesystem.open_input_file(path))
        return pq.ParquetFile(file.path)
    except Exception as exc:  # a truncated or foreign file
        raise DatasetError(f"{file.path}: not a readable Parquet file ({exc})") from None


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


def _chunks(items: Iterable[Any], size: int) -> Iterator[list[Any]]:
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
    if source.dataset is not None:
        raise DatasetError("a Ray dataset can only be scored with engine='ray'")
    if source.table is not None:
        check_columns(source.table.schema.names, columns, source.label)
        for rb in source.table.to_batches(max_chunksize=batch_size):
            if rb.num_rows:
                yield RowBatch(table=rb, start=position)
                position += rb.num_rows
        return
    if source.records is not None:
        for chunk in _chunks(source.records, batch_size):
            yield RowBatch(records=chunk, start=position)
            position += len(chunk)
        return
    for file in source.files:
        if file.format == "parquet":
            pf = parquet_file(file)
            check_columns(pf.schema_arrow.names, columns, file.path)
            try:
                for rb in pf.iter_batches(batch_size=batch_size, columns=list(columns)):
                    yield RowBatch(table=rb, start=position)
                    position += rb.num_rows
            except DatasetError:
                raise
            except Exception as exc:
                raise DatasetError(f"{file.path}: cannot be read ({exc})") from None
            continue
        array = _json_array(file)
        if array is not None:
            for chunk in _chunks(array, batch_size):
                yield RowBatch(records=chunk, start=position)
                position += len(chunk)
            continue
        lines: list[bytes] = []
        nbytes = 0
        for line, size in _lines(file):
            lines.append(line)
            nbytes += size
            if len(lines) >= batch_size:
                yield RowBatch(lines=lines, start=position, nbytes=nbytes)
                position += len(lines)
                lines, nbytes = [], 0
        if lines:
            yield RowBatch(lines=lines, start=position, nbytes=nbytes)
            position += len(lines)
