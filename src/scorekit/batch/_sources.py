"""Where rows come from: JSON-lines and Parquet files (local or object-store URIs), folders of
them, in-memory rows, a ``pyarrow`` table. (Reading them in batches: ``_readers``.)

Formats by suffix: ``.jsonl``, ``.ndjson`` and ``.json`` (JSON lines; a ``.json`` file whose
first character is ``[`` is one JSON array, read whole), each optionally ``.gz``, ``.bz2`` or
``.xz``; ``.parquet`` / ``.pq``. A folder means every such file inside it, in sorted path order.
URIs (``s3://``, ``gs://``, ``file://``...) go through ``pyarrow.fs``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekit.batch._errors import DatasetError, require_pyarrow

__all__ = ["Source", "SourceFile", "is_uri", "open_raw", "parquet_file", "resolve_source"]

_COMPRESSIONS = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz"}
_JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
_PARQUET_SUFFIXES = (".parquet", ".pq")


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
        else:
            infos = [info]
    except Exception as exc:  # a store's own errors: no credentials, no network...
        raise DatasetError(f"{uri}: cannot be listed ({exc})") from None
    if info.type == pafs.FileType.NotFound:
        raise DatasetError(f"{uri}: no such file or folder")
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


def open_raw(file: SourceFile, *, seekable: bool = False) -> Any:
    """The file's bytes as stored (a local path or a URI); ``seekable`` for random access."""
    if is_uri(file.path):
        from pyarrow import fs as pafs

        filesystem, path = pafs.FileSystem.from_uri(file.path)
        if seekable:
            return filesystem.open_input_file(path)
        return filesystem.open_input_stream(path, compression=None)
    return open(file.path, "rb")  # closed by the reader


def parquet_file(file: SourceFile) -> Any:
    """The file as a ``pyarrow.parquet.ParquetFile`` (a local path or a URI).

    Raises:
        DatasetError: pyarrow is missing, or the file is not readable Parquet.
    """
    require_pyarrow(f"reading {file.path}")
    import pyarrow.parquet as pq

    try:
        return pq.ParquetFile(open_raw(file, seekable=True) if is_uri(file.path) else file.path)
    except Exception as exc:  # a truncated or foreign file
        raise DatasetError(f"{file.path}: not a readable Parquet file ({exc})") from None
