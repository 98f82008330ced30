"""The gold file of ``evaluate_dataset(gold_file=...)``: expected calls keyed by row id.

The file is JSON lines or Parquet with a key and a calls column per row, or one JSON object
mapping each key to its expected calls. The calls stay JSON text until a row asks for them.
"""

from __future__ import annotations

import json
import os
from typing import Any

from scorekit.batch import DatasetError, read_batches, resolve_source, row_id

__all__ = ["load_gold_index"]


def load_gold_index(gold_file: str | os.PathLike[str], key: str, column: str) -> dict[str, str]:
    """Read a gold file into ``{key: expected calls as JSON text}``.

    Raises:
        DatasetError: the file is missing or malformed, or a row lacks the key or the calls.
    """
    name = os.fspath(gold_file)
    source = resolve_source(gold_file)
    index = _object_index(source, name, key, column)
    if index:
        return index
    for batch in read_batches(source, 4096, [key, column]):
        for row in _rows(batch, name):
            if not isinstance(row, dict) or row.get(key) is None or column not in row:
                raise DatasetError(
                    f"{name}: every row needs {key!r} and {column!r}; got"
                    f" {json.dumps(row, default=str)[:200]}"
                )
            calls = row[column]
            index[row_id(row[key]) or ""] = (
                calls if isinstance(calls, str) else json.dumps(calls, default=str)
            )
    if not index:
        raise DatasetError(f"{name}: holds no gold rows")
    return index


def _object_index(source: Any, name: str, key: str, column: str) -> dict[str, str]:
    """The index of a ``.json`` file holding one object ``{key: calls}`` (empty otherwise)."""
    index: dict[str, str] = {}
    for file in source.files:
        if file.format != "jsonl" or file.compression is not None or not name.endswith(".json"):
            continue
        with open(file.path, "rb") as fh:
            if not fh.read(4096).lstrip().startswith(b"{"):
                continue
            fh.seek(0)
            try:
                data = json.load(fh)
            except ValueError as exc:
                raise DatasetError(f"{name}: not valid JSON ({exc})") from None
        if isinstance(data, dict) and not ({key, column} <= set(data)):
            index.update((k, json.dumps(calls)) for k, calls in data.items())
    return index


def _rows(batch: Any, name: str) -> list[Any]:
    if batch.lines is not None:
        try:
            return [json.loads(line) for line in batch.lines]
        except ValueError as exc:
            raise DatasetError(f"{name}: a line is not valid JSON ({exc})") from None
    if batch.records is not None:
        return list(batch.records)
    return list(batch.table.to_pylist())
