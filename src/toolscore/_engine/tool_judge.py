"""The hook between ``evaluate_trace(judge=...)`` and the LLM tool-call judge.

``judge_tool_calls`` is the one place ``evaluate_trace`` asks the judge whether the actual
calls mean the same as the expected ones: the judge (``toolscore.metrics.llm_judge``, built on
``scorekit.judges``) decides every argument exact matching rejected, the evaluation is redone
with its verdicts, and its answer becomes ``metrics["semantic_metrics"]``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolscore._engine.result import EvaluationResult

__all__ = ["judge_tool_calls"]


def judge_tool_calls(
    expected: Any,
    actual: Any,
    judge: Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
) -> tuple[EvaluationResult, dict[str, Any]]:
    """The evaluation with the judge's verdicts applied, and ``semantic_metrics``.

    Args:
        expected: the expected calls.
        actual: the calls the agent made.
        judge: what the caller passed as ``judge=`` (``True`` for the session's judge, a model
            name, or a ``JudgeConfig``); never ``False`` or ``None`` here.
        weights / strict / forbidden: as for :func:`toolscore.evaluate`.

    Raises:
        JudgeUnavailableError: the judge failed after its retries.
        JudgeConfigError: the judge cannot be built (missing key, endpoint or model).
    """
    from toolscore._engine.judge_config import resolve_judge
    from toolscore._engine.judging import judged_evaluate

    return judged_evaluate(
        expected,
        actual,
        resolve_judge(judge),
        weights=weights,
        strict=strict,
        forbidden=forbidden,
    )
