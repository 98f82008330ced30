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
from typing import Any

from scorekit.batch._done import DoneIds, done_of_rows
from scorekit.batch._errors import DatasetError
from scorekit.batch._parquet_sink import ParquetSink, other_run_error
from scorekit.batch._readers import chunked
from scorekit.batch._task import ERROR, ERROR_KIND, ID, ROW, Field

__all__ = ["OUTPUT_FORMATS", "open_sink"]

OUTPUT_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
#: Rows per batch of earlier results read back on resume (one Parquet row group).
_READ_BATCH_ROWS = 16_384
_ID_PREFIX = re.compile(rb'^\{"id": (null|"(?:[^"\\]|\\.)*"), "row": (\d+)')


# -- JSON lines --------------------------------------------------------------------------------


class JsonLinesSink:
    """Results as JSON lines (``{"id": ..., "row": ..., ...}``), flushed after every batch.

    A sink writes result columns (``write``), reads back the rows an earlier run wrote
    (``previous``), finishes the output (``close``) or stops early keeping what was written
    (``abort``); ``done`` holds the rows a resumed run skips. ``ParquetSink`` does the same.
    """

    def __init__(self, path: Path, fields: Sequence[Field], resume: bool) -> None:
        self.path = path
        self.names = [ID, ROW, *(f.name for f in fields), ERROR, ERROR_KIND]
        path.parent.mkdir(parents=True, exist_ok=True)
        self._resumed = resume and path.exists()
        self.done = self._repair_and_read() if self._resumed else DoneIds()
        self._fh = open(path, "ab" if self._resumed else "wb")  # noqa: SIM115 (closed by close/abort)

    def _repair_and_read(self) -> DoneIds:
        rows: list[tuple[str | None, int]] = []
        good_end = 0
        with open(self.path, "rb") as fh:
            for number, line in enumerate(fh, 1):
                parsed = _id_and_row(line) if line.endswith(b"\n") else None
                if parsed is None:
                    if fh.read(1):  # a bad line in the middle: not ours to cut
                        raise DatasetError(
                            f"{self.path}: line {number} is not a result row; resuming would"
                            " mix it with new rows: move the file away or fix the line"
                        )
                    break  # the torn last line of a killed run
                if number == 1:
                    self._check_header(line)
                rows.append(parsed)
                good_end += len(line)
        if good_end < self.path.stat().st_size:
            with open(self.path, "r+b") as fh:
                fh.truncate(good_end)
        return done_of_rows(rows)

    def _check_header(self, line: bytes) -> None:
        keys = list(json.loads(line))
        if keys != self.names:
            raise other_run_error(self.path, keys)

    def previous(self) -> Iterator[dict[str, list[Any]]]:
        """The rows an earlier run wrote, as result columns, in chunks."""
        if not self._resumed:
            return
        with open(self.path, "rb") as fh:
            for rows in chunked(map(json.loads, fh), _READ_BATCH_ROWS):
                yield {name: [r.get(name) for r in rows] for name in self.names}

    def write(self, columns: dict[str, Any]) -> None:
        names = self.names
        # Numbers may come as numpy arrays: as Python numbers, json writes them as before.
        lists = [v.tolist() if hasattr(v, "tolist") else v for v in (columns[n] for n in names)]
        text = "".join(
            json.dumps(dict(zip(names, row, strict=True)), ensure_ascii=False) + "\n"
            for row in zip(*lists, strict=True)
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


def open_sink(
    path: str | os.PathLike[str], fields: Sequence[Field], resume: bool
) -> JsonLinesSink | ParquetSink:
    """Open the writer for ``path`` (format from its suffix).

    Raises:
        DatasetError: unknown suffix, pyarrow missing for Parquet, or an output that belongs
            to another kind of run.
    """
    target = Path(path).expanduser()
    if target.is_dir():
        raise DatasetError(f"output {os.fspath(path)!r} is a folder; give a file name")
    fmt = OUTPUT_FORMATS.get(target.suffix.lower())
    if fmt is None:
        raise DatasetError(
            f"output {os.fspath(target)!r}: cannot tell the format from the suffix; use .parquet"
            " or .jsonl"
        )
    if fmt == "parquet":
        return ParquetSink(target, fields, resume)
    return JsonLinesSink(target, fields, resume)
