"""Results as one resumable Parquet file.

A Parquet file is readable only once its footer is written, so a killed writer would leave
nothing usable. Results therefore go to part files in ``<output>.parts/``, each written under a
temporary name and renamed when complete (every 1,048,576 rows or 10 seconds, so a run that
ends within one part has nothing to merge); a killed run loses only the part in progress. At
the end the parts are merged into ``<output>`` (row groups copied, memory bounded by one row
group) and the folder is removed, the mark that says the output holds the parts last. A resumed
run keeps the committed parts, and a finished output is moved into the parts folder to be merged
again with the new rows. ``SCOREKIT_PARQUET_PART_ROWS`` changes the rows per part (tests make it
small).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from scorekit.batch._done import DoneIds, done_of_rows
from scorekit.batch._errors import DatasetError, require_pyarrow
from scorekit.batch._task import ERROR, ERROR_KIND, ID, ROW, Field

__all__ = ["ParquetSink", "arrow_schema"]

_PART_ROWS = 1_048_576
_PART_SECONDS = 10.0
_ROW_GROUP_ROWS = 16_384
_MERGED_MARK = "_merged"


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


def other_run_error(path: Path, columns: Sequence[str]) -> DatasetError:
    """The error for an output that holds the results of another kind of run."""
    return DatasetError(
        f"{path}: holds results of another kind of run (columns {', '.join(columns[:6])}...);"
        " resume with the same command, or write elsewhere"
    )


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

        rows: list[tuple[str | None, int]] = []
        for part in self._committed():
            try:
                schema = pq.read_schema(part)
            except Exception as exc:
                raise DatasetError(f"{part}: not a readable Parquet part ({exc})") from None
            if schema.names != self.schema.names:
                raise other_run_error(self.path, schema.names)
            table = pq.read_table(part, columns=[ID, ROW])
            rows += zip(table.column(ID).to_pylist(), table.column(ROW).to_pylist(), strict=True)
        return done_of_rows(rows)

    def previous(self) -> Iterator[dict[str, list[Any]]]:
        """The rows an earlier run wrote, as result columns, one row group at a time."""
        yield from (table.to_pydict() for table in self._row_groups())

    def _row_groups(self) -> Iterator[Any]:
        import pyarrow.parquet as pq

        for part in self._committed():
            pf = pq.ParquetFile(part)
            for group in range(pf.num_row_groups):
                yield pf.read_row_group(group)

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
        merged = parts[0] if len(parts) == 1 else self._merging()
        if len(parts) != 1:
            # An empty run still leaves a readable file: the schema and no rows.
            with pq.ParquetWriter(merged, self.schema, use_dictionary=self._dictionary) as writer:
                for table in self._row_groups():
                    writer.write_table(table)
        (self.parts / _MERGED_MARK).touch()
        os.replace(merged, self.path)
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
