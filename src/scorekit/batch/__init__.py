"""Datasets: score every row of a file (or a folder, or an object store) in batches.

One per-batch function (:func:`score_batch`) serves every engine; an engine only moves
batches: ``local`` (worker processes on this machine) or ``ray`` (Ray Data on a cluster).
Each face describes how to score one row with a :class:`BatchTask`
(``toolscore.evaluate_dataset``, ``pytest_texts_score.evaluate_dataset``) and calls
:func:`run_dataset`, which reads, scores, writes per-row results (Parquet or JSON lines),
resumes, reports progress and returns a :class:`DatasetSummary`.
"""

from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError, JudgeOutageError, require_pyarrow
from scorekit.batch._run import ENGINES, resolve_workers, run_dataset
from scorekit.batch._summary import SUMMARY_SCHEMA, DatasetSummary
from scorekit.batch._task import (
    BatchTask,
    Field,
    ResultBatch,
    RowBatch,
    RowError,
    result_columns,
    score_batch,
)

__all__ = [
    "ENGINES",
    "SUMMARY_SCHEMA",
    "BatchTask",
    "DatasetError",
    "DatasetSummary",
    "DoneIds",
    "Field",
    "JudgeOutageError",
    "ResultBatch",
    "RowBatch",
    "RowError",
    "require_pyarrow",
    "resolve_workers",
    "result_columns",
    "run_dataset",
    "score_batch",
]
