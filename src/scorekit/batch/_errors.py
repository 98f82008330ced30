"""Errors of a dataset run as a whole (a bad row is an error row, never one of these)."""

from __future__ import annotations

__all__ = ["PARQUET_HINT", "RAY_HINT", "DatasetError", "JudgeOutageError", "require_pyarrow"]

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
