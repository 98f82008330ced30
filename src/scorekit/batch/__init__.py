"""Datasets: score every row of a file (or a folder, or an object store) in batches.

One per-batch function (:func:`score_batch`) serves every engine; an engine only moves
batches: ``local`` (worker processes on this machine) or ``ray`` (Ray Data on a cluster).
Each face describes how to score one row with a :class:`BatchTask`
(``toolscore.evaluate_dataset``, ``pytest_texts_score.evaluate_dataset``) and calls
:func:`run_dataset`, which reads, scores, writes per-row results (Parquet or JSON lines),
resumes, reports progress and returns a :class:`DatasetSummary`.
"""

from scorekit.batch._cli import add_dataset_arguments, dataset_options, run_dataset_command
from scorekit.batch._done import DoneIds
from scorekit.batch._errors import DatasetError, JudgeOutageError, require_pyarrow
from scorekit.batch._main_guard import refuse_in_starting_worker
from scorekit.batch._no_pandas import pandas_refused
from scorekit.batch._readers import read_batches
from scorekit.batch._run import ENGINES, resolve_workers, run_dataset
from scorekit.batch._scoring import score_batch
from scorekit.batch._sources import resolve_source
from scorekit.batch._summary import SUMMARY_SCHEMA, DatasetSummary
from scorekit.batch._task import (
    BatchTask,
    Field,
    ResultBatch,
    RowBatch,
    RowError,
    result_columns,
    row_id,
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
    "add_dataset_arguments",
    "dataset_options",
    "pandas_refused",
    "read_batches",
    "refuse_in_starting_worker",
    "require_pyarrow",
    "resolve_source",
    "resolve_workers",
    "result_columns",
    "row_id",
    "run_dataset",
    "run_dataset_command",
    "score_batch",
]
