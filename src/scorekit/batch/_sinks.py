"""Where per-row results go: a JSON-lines file or a Parquet file, both resumable.

JSON lines: one object per row, appended and flushed batch by batch. A run killed mid-write
leaves at most one torn last line; a resumed run cuts it off and appends after the last whole
line. Parquet output is written by ``_parquet_sink`` (parts committed atomically, then merged).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError
from scorekit.batch._parquet_sink import ParquetSink
from scorekit.batch._task import ERROR, ERROR_KIND, ID, ROW, Field

__all__ = ["OUTPUT_FORMATS", "Sink", "open_sink", "output_format"]

OUTPUT_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
#: Rows per batch of earlier results read back on resume (one Parquet row group).
_READ_BATCH_ROWS = 16_384
_ID_PREFIX = re.compile(rb'^\{"id": (null|"(?:[^"\\]|\\.)*"), "row": (\d+)')


def output_format(path: str | os.PathLike[str]) -> str:
    """``parquet`` or ``jsonl``, from the suffix.

    Raises:
        DatasetError: another suffix.
    """
    suffix = Path(path).suffix.lower()
    fmt = OUTPUT_FORMATS.get(suffix)
    if fmt is None:
        raise DatasetError(
            f"output {os.fspath(path)!r}: cannot tell the format from the suffix; use .parquet"
            " or .jsonl"
        )
    return fmt


class Sink(Protocol):
    """A per-row result writer."""

    path: Path

    def write(self, columns: dict[str, Any]) -> None:
        """Append result rows (``id``, ``row``, fields, ``error``, ``error_kind``; a column is
        a list, or a numpy array of numbers)."""

    def previous(self) -> Iterator[dict[str, list[Any]]]:
        """The rows an earlier run wrote (a resumed run), as result columns."""

    def close(self) -> None:
        """Finish the output (the file is complete and readable)."""

    def abort(self) -> None:
        """Stop early, keeping everything written so far for a resumed run."""


def _names(fields: Sequence[Field]) -> list[str]:
    return [ID, ROW, *(f.name for f in fields), ERROR, ERROR_KIND]


# -- JSON lines --------------------------------------------------------------------------------


class JsonLinesSink:
    """Results as JSON lines (``{"id": ..., "row": ..., ...}``), flushed after every batch."""

    def __init__(self, path: Path, fields: Sequence[Field], resume: bool) -> None:
        self.path = path
        self.names = _names(fields)
        self.done = DoneIds()
        path.parent.mkdir(parents=True, exist_ok=True)
        self._resumed = resume and path.exists()
        if self._resumed:
            self.done = self._repair_and_read()
            self._fh = open(path, "ab")  # noqa: SIM115  # closed in close()/abort()
        else:
            self._fh = open(path, "wb")  # noqa: SIM115

    def _repair_and_read(self) -> DoneIds:
        ids: list[str] = []
        positions: list[int] = []
        good_end = 0
        with open(self.path, "rb") as fh:
            offset = 0
            for number, line in enumerate(fh, 1):
                end = offset + len(line)
                whole = line.endswith(b"\n")
                parsed = _id_and_row(line) if whole else None
                if parsed is None:
                    if fh.read(1):  # a bad line in the middle: not ours to cut
                        raise DatasetError(
                            f"{self.path}: line {number} is not a result row; resuming would"
                            " mix it with new rows: move the file away or fix the line"
                        )
                    break  # the torn last line of a killed run
                if number == 1:
                    self._check_header(line)
                key, position = parsed
                if key is None:
                    positions.append(position)
                else:
                    ids.append(key)
                good_end = end
                offset = end
        if good_end < self.path.stat().st_size:
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)
        return DoneIds.of(ids, positions)

    def _check_header(self, line: bytes) -> None:
        keys = list(json.loads(line))
        if keys != self.names:
            raise DatasetError(
                f"{self.path}: holds results of another kind of run (columns"
                f" {', '.join(keys[:6])}...); resume with the same command, or write elsewhere"
            )

    def previous(self) -> Iterator[dict[str, list[Any]]]:
        """The rows an earlier run wrote, as result columns, in chunks."""
        if not self._resumed:
            return
        with open(self.path, "rb") as fh:
            chunk: list[dict[str, Any]] = []
            for line in fh:
                chunk.append(json.loads(line))
                if len(chunk) >= _READ_BATCH_ROWS:
                    yield self._columns(chunk)
                    chunk = []
            if chunk:
                yield self._columns(chunk)

    def _columns(self, rows: list[dict[str, Any]]) -> dict[str, list[Any]]:
        return {name: [r.get(name) for r in rows] for name in self.names}

    def write(self, columns: dict[str, Any]) -> None:
        names = self.names
        # Numbers may come as numpy arrays: as Python numbers, json writes them as before.
        lists = [v.tolist() if hasattr(v, "tolist") else v for v in (columns[n] for n in names)]
        rows = zip(*lists, strict=True)
        text = "".join(
            json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False) + "\n"
            for row in rows
        )
        self._fh.write(text.encode("utf-8"))
        self._fh.flush()

    def close(self) -> None:
        self._fh.flush()
        os.fsync(self._fh.fileno())
        self._fh.close()

    def abort(self) -> None:
        self._fh.close()


def _id_and_row(line: bytes) -> tuple[str | None, int] | None:
    match = _ID_PREFIX.match(line)
    if match is not None:
        try:
            key = json.loads(match.group(1))
            json.loads(line)  # the whole line must be a result, not just its start
            return key, int(match.group(2))
        except ValueError:
            return None
    try:
        data = json.loads(line)
    except ValueError:
        return None
    if not isinstance(data, dict) or ID not in data or not isinstance(data.get(ROW), int):
        return None
    key = data[ID]
    return (key if isinstance(key, str) else None), data[ROW]


def open_sink(path: str | os.PathLike[str], fields: Sequence[Field], resume: bool) -> Any:
    """Open the writer for ``path`` (format from its suffix).

    Returns:
        A :class:`Sink` whose ``done`` attribute holds the rows a resumed run skips.

    Raises:
        DatasetError: unknown suffix, pyarrow missing for Parquet, or an output that belongs
            to another kind of run.
    """
    target = Path(path).expanduser()
    if target.is_dir():
        raise DatasetError(f"output {os.fspath(path)!r} is a folder; give a file name")
    fmt = output_format(target)
    if fmt == "parquet":
        return ParquetSink(target, fields, resume)
    return JsonLinesSink(target, fields, resume)
