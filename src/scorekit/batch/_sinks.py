"""Where per-row results go: a JSON-lines file or a Parquet file, both resumable.

JSON lines: one object per row, appended and flushed batch by batch. A run killed mid-write
leaves at most one torn last line; a resumed run cuts it off and appends after the last whole
line.

Parquet: a Parquet file is readable only once its footer is written, so a killed writer would
leave nothing usable. Results therefore go to part files in ``<output>.parts/``, each written
under a temporary name and renamed when complete (every 1,048,576 rows or 10 seconds, so a run
that ends within one part has nothing to merge); a killed run loses only the part in progress.
At the end the parts are merged into ``<output>`` (row groups copied, memory bounded by one row
group) and the folder is removed, the mark that says the output holds the parts last. A resumed
run keeps the committed parts, and a finished output is moved into the parts folder to be merged
again with the new rows. ``SCOREKIT_PARQUET_PART_ROWS`` changes the rows per part (tests make it
small).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError, require_pyarrow
from scorekit.batch._task import ERROR, ERROR_KIND, ID, ROW, Field

__all__ = ["OUTPUT_FORMATS", "Sink", "arrow_schema", "open_sink", "output_format"]

OUTPUT_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".jsonl": "jsonl", ".ndjson": "jsonl"}
_PART_ROWS = 1_048_576
_PART_SECONDS = 10.0
_ROW_GROUP_ROWS = 16_384
_MERGED_MARK = "_merged"
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
                if len(chunk) >= _ROW_GROUP_ROWS:
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


# -- Parquet -----------------------------------------------------------------------------------


def arrow_schema(fields: Sequence[Field]) -> Any:
    """The Arrow schema of a task's result rows."""
    import pyarrow as pa

    types = {
        "float": pa.float64(),
        "int": pa.int64(),
        "str": pa.string(),
        "list[str]": pa.list_(pa.string()),
    }
    cols = [(ID, pa.string()), (ROW, pa.int64())]
    cols += [(f.name, types[f.kind]) for f in fields]
    cols += [(ERROR, pa.string()), (ERROR_KIND, pa.string())]
    return pa.schema(cols)


class ParquetSink:
    """Results as one Parquet file, built from atomically committed parts (see module doc)."""

    def __init__(self, path: Path, fields: Sequence[Field], resume: bool) -> None:
        require_pyarrow(f"Parquet output ({path})")
        self.path = path
        self.schema = arrow_schema(fields)
        # Dictionary encoding for every column but id and row: their values are all distinct,
        # so the writer would build a dictionary only to give it up (200,000 tool-call rows:
        # about a third less CPU to write, and a quarter smaller).
        self._dictionary = [n for n in self.schema.names if n not in (ID, ROW)]
        self.parts = path.with_name(path.name + ".parts")
        self.done = DoneIds()
        path.parent.mkdir(parents=True, exist_ok=True)
        if resume:
            self.done = self._recover()
        else:
            shutil.rmtree(self.parts, ignore_errors=True)
            path.unlink(missing_ok=True)
        self.parts.mkdir(parents=True, exist_ok=True)
        self._next = self._next_part_number()
        self._part_limit = int(os.environ.get("SCOREKIT_PARQUET_PART_ROWS") or _PART_ROWS)
        self._writer: Any = None
        self._tmp: Path | None = None
        self._part_rows = 0
        self._opened = 0.0
        self._pending: list[Any] = []
        self._pending_rows = 0

    # -- recovery ---------------------------------------------------------------------------
    def _recover(self) -> DoneIds:
        marked = (self.parts / _MERGED_MARK).exists()
        if self.parts.exists() and marked and self.path.exists():
            shutil.rmtree(self.parts)  # killed after the merge landed: the parts are in it
        elif self.parts.exists() and marked:
            (self.parts / _MERGED_MARK).unlink()  # killed mid-merge: the parts still count
        if self.path.exists():
            self.parts.mkdir(parents=True, exist_ok=True)
            os.replace(self.path, self.parts / f"part-{self._next_part_number():06d}.parquet")
        for stale in self.parts.glob("*.tmp") if self.parts.exists() else ():
            stale.unlink()
        self._merging().unlink(missing_ok=True)
        return self._read_done()

    def _committed(self) -> list[Path]:
        if not self.parts.exists():
            return []
        return sorted(self.parts.glob("part-*.parquet"))

    def _next_part_number(self) -> int:
        numbers = [int(p.stem.split("-")[1]) for p in self._committed()]
        return max(numbers, default=-1) + 1

    def _read_done(self) -> DoneIds:
        import pyarrow.parquet as pq

        ids: list[str] = []
        positions: list[int] = []
        for part in self._committed():
            try:
                schema = pq.read_schema(part)
            except Exception as exc:
                raise DatasetError(f"{part}: not a readable Parquet part ({exc})") from None
            if schema.names != self.schema.names:
                raise DatasetError(
                    f"{self.path}: holds results of another kind of run (columns"
                    f" {', '.join(schema.names[:6])}...); resume with the same command, or"
                    " write elsewhere"
                )
            table = pq.read_table(part, columns=[ID, ROW])
            for key, position in zip(
                table.column(ID).to_pylist(), table.column(ROW).to_pylist(), strict=True
            ):
                if key is None:
                    positions.append(position)
                else:
                    ids.append(key)
        return DoneIds.of(ids, positions)

    def previous(self) -> Iterator[dict[str, list[Any]]]:
        """The rows an earlier run wrote, as result columns, one row group at a time."""
        import pyarrow.parquet as pq

        for part in self._committed():
            pf = pq.ParquetFile(part)
            for group in range(pf.num_row_groups):
                yield pf.read_row_group(group).to_pydict()

    # -- writing ----------------------------------------------------------------------------
    def write(self, columns: dict[str, Any]) -> None:
        import pyarrow as pa

        table = pa.Table.from_pydict(columns, schema=self.schema)
        self._pending.append(table)
        self._pending_rows += table.num_rows
        if self._pending_rows >= min(_ROW_GROUP_ROWS, self._part_limit):
            self._flush_group()
        if self._part_rows >= self._part_limit or (
            self._writer is not None and time.monotonic() - self._opened >= _PART_SECONDS
        ):
            self._commit()

    def _flush_group(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._pending_rows:
            return
        if self._writer is None:
            self._tmp = self.parts / f"part-{self._next:06d}.parquet.tmp"
            self._writer = pq.ParquetWriter(self._tmp, self.schema, use_dictionary=self._dictionary)
            self._opened = time.monotonic()
        # Taken off the queue before they are written: Ctrl-C lands as soon as the write
        # returns, and the close that follows must not write the same rows again.
        pending, rows = self._pending, self._pending_rows
        self._pending, self._pending_rows = [], 0
        self._part_rows += rows
        # One chunk per column: written from 512-row chunks, each page would be cut short.
        table = pa.concat_tables(pending).combine_chunks()
        self._writer.write_table(table, row_group_size=_ROW_GROUP_ROWS)

    def _commit(self) -> None:
        self._flush_group()
        if self._writer is None:
            return
        # The state first, then the files: a Ctrl-C in between leaves at worst an uncommitted
        # part (a resumed run scores its rows again), never a part written twice.
        writer, tmp = self._writer, self._tmp
        assert tmp is not None
        self._writer, self._tmp = None, None
        self._next += 1
        self._part_rows = 0
        writer.close()
        os.replace(tmp, tmp.with_suffix(""))

    def abort(self) -> None:
        # Keep what was scored: commit the part in progress (a kill cannot, an error can).
        with contextlib.suppress(Exception):
            self._commit()

    def close(self) -> None:
        import pyarrow.parquet as pq

        self._commit()
        parts = self._committed()
        if len(parts) == 1:
            (self.parts / _MERGED_MARK).touch()
            os.replace(parts[0], self.path)
        else:
            # An empty run still leaves a readable file: the schema and no rows.
            tmp = self._merging()
            with pq.ParquetWriter(tmp, self.schema, use_dictionary=self._dictionary) as writer:
                for part in parts:
                    pf = pq.ParquetFile(part)
                    for group in range(pf.num_row_groups):
                        writer.write_table(pf.read_row_group(group))
            (self.parts / _MERGED_MARK).touch()
            os.replace(tmp, self.path)
        self._remove_parts()

    def _remove_parts(self) -> None:
        """Remove the merged parts, their mark last: a run killed meanwhile still finds the
        mark, so a resumed run knows the output holds the parts left (and does not count them
        twice)."""
        with contextlib.suppress(OSError):
            for part in self.parts.iterdir():
                if part.name != _MERGED_MARK:
                    part.unlink()
            (self.parts / _MERGED_MARK).unlink(missing_ok=True)
        shutil.rmtree(self.parts, ignore_errors=True)

    def _merging(self) -> Path:
        return self.path.with_name(f".{self.path.name}.merging")


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
