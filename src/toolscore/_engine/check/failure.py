"""What every check shares: the assertion error and the report row it records.

``assert_tools``, trajectories, conversations, streams and snapshots all fail with
:class:`ToolScoreAssertionError` and add one row per check to the session's report.
"""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING, Any

from toolscore._engine.score.result import SCALAR_FIELDS, EvaluationResult

if TYPE_CHECKING:
    from scorekit.report import ToolScoreRow

__all__ = ["ToolScoreAssertionError", "check_min_score", "record_row", "score_row"]


class ToolScoreAssertionError(AssertionError):
    """Raised when tool calls miss their expectation.

    Attributes:
        result: the :class:`~toolscore.core.EvaluationResult` behind the failure.
        min_score: the threshold that was asked for, if any.
    """

    def __init__(
        self, message: str, result: EvaluationResult | None = None, min_score: float | None = None
    ) -> None:
        super().__init__(message)
        self.result = result
        self.min_score = min_score


# Shown by pytest and in tracebacks as ``toolscore.ToolScoreAssertionError`` (its public home).
ToolScoreAssertionError.__module__ = "toolscore"


def check_min_score(min_score: Any, name: str = "min_score") -> float:
    """Validate a threshold: a number in [0, 1]."""
    if isinstance(min_score, bool) or not isinstance(min_score, (int, float)):
        raise TypeError(f"{name} must be a number between 0.0 and 1.0, got {min_score!r}")
    if math.isnan(min_score) or not 0.0 <= min_score <= 1.0:
        raise ValueError(f"{name} must be between 0.0 and 1.0, got {min_score!r}")
    return float(min_score)


def record_row(
    function: str,
    result: EvaluationResult,
    threshold: float | None,
    passed: bool,
    started: float,
) -> None:
    """Add a report row, timed from ``started`` (``time.perf_counter()``), to the active
    session's recorder (no-op outside a session)."""
    from scorekit.report import active_recorder

    recorder = active_recorder()
    if recorder is None:
        return
    recorder.add(
        score_row(
            result,
            test_id=None,
            function=function,
            threshold=threshold,
            passed=passed,
            seconds=time.perf_counter() - started,
        )
    )


def score_row(
    result: EvaluationResult,
    *,
    test_id: str | None,
    function: str,
    threshold: float | None,
    passed: bool,
    seconds: float = 0.0,
    details: dict[str, Any] | None = None,
) -> ToolScoreRow:
    """The report row of one evaluation (``details``: the full result, for file reports)."""
    from scorekit.report import ToolScoreRow

    return ToolScoreRow(
        test_id=test_id,
        function=function,
        score=result.score,
        threshold=threshold,
        outcome="passed" if passed else "failed",
        metrics={name: getattr(result, name) for name in SCALAR_FIELDS},
        missing=[c["tool"] for c in result.missing_calls],
        extra=[c["tool"] for c in result.extra_calls],
        seconds=seconds,
        details={} if details is None else details,
    )
