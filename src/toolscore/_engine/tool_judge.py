"""The hook between ``evaluate_trace(judge=...)`` and the LLM tool-call judge.

``judge_tool_calls`` is the one place ``evaluate_trace`` asks an LLM whether the actual calls
mean the same as the expected ones; its answer becomes ``metrics["semantic_metrics"]``. The
judge itself lives in ``toolscore.metrics.llm_judge`` (built on ``scorekit.judges``); until
this installation has it, asking for it is an error that says so, never a silent skip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolscore.adapters.base import ToolCall

__all__ = ["ToolJudgeUnavailableError", "judge_tool_calls"]


class ToolJudgeUnavailableError(RuntimeError):
    """``judge=`` was asked for, but no LLM tool-call judge is available."""


def judge_tool_calls(
    gold_calls: Sequence[ToolCall], trace_calls: Sequence[ToolCall], judge: Any
) -> dict[str, Any]:
    """The LLM judge's verdict on the calls, as ``metrics["semantic_metrics"]``.

    Args:
        gold_calls: the expected calls.
        trace_calls: the calls the agent made.
        judge: what the caller passed as ``judge=`` (``True`` for the default judge, a model
            name, or a judge configuration); never ``False`` or ``None`` here.

    Raises:
        ToolJudgeUnavailableError: always, in this version (see the message).
    """
    raise ToolJudgeUnavailableError(
        f"evaluate_trace(judge={judge!r}) asks the LLM tool-call judge whether the calls mean "
        "the same, but the judge is not available in this installation of llm-scorekit "
        "(toolscore.metrics.llm_judge). Leave judge=False (the default) to score the calls "
        "deterministically, or install a version of llm-scorekit that includes the tool-call "
        "judge and configure its model."
    )
