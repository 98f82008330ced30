"""Errors of a dataset run as a whole, and the error of one row (:class:`RowError`, recorded
in the results, never raised out of a run)."""

from __future__ import annotations

__all__ = [
    "PARQUET_HINT",
    "RAY_HINT",
    "DatasetError",
    "JudgeOutageError",
    "RowError",
    "require_pyarrow",
]

PARQUET_HINT = "pip install 'llm-scorekit[parquet]'"
RAY_HINT = "pip install 'llm-scorekit[ray]'"


class DatasetError(ValueError):
    """The run cannot start or go on: a missing source, an unknown format, a column that no
    row has, an output that belongs to another run, too many bad rows. The message says what
    to do instead."""


class JudgeOutageError(RuntimeError):
    """The judge failed on many rows in a row: the run stops (resumable) instead of writing an
    error row for every row that is left."""


def require_pyarrow(what: str) -> None:
    """Import pyarrow or raise a :class:`DatasetError` that names the extra to install.

    Example:
        >>> require_pyarrow("Parquet output")  # doctest: +SKIP
    """
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise DatasetError(
            f"{what} needs pyarrow, which is not installed: {PARQUET_HINT}"
            " (JSON lines work without it)"
        ) from None


class RowError(Exception):
    """A row that cannot be scored: recorded with its kind and message, never raised further.

    Kinds: ``bad_json`` (not JSON, or not an object), ``missing_column``, ``bad_value`` (a
    column of the wrong type), ``bad_gold``, ``bad_trace``, ``missing_gold``, ``judge_error``,
    ``internal`` (an error of ours; the message says which).
    """

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
