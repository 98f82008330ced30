"""``ToolscoreAssertions``: one metric of an evaluation against a threshold at a time.

The ``toolscore_assert`` fixture hands out an instance; the methods are static, so
``ToolscoreAssertions.assert_invocation_accuracy(result, 0.9)`` works too (as in Toolscore).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from scorekit.format import format_bound, format_score

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = ["ToolscoreAssertions"]


def _fail(result: EvaluationResult, text: str) -> NoReturn:
    """Raise ``text`` followed by the full failure text of ``result``."""
    __tracebackhide__ = True
    from toolscore._engine.score.render import render_result

    raise AssertionError(f"{text}\n\n{render_result(result)}")


def _at_least(
    result: EvaluationResult, label: str, value: float, threshold: float, msg: str | None
) -> None:
    __tracebackhide__ = True
    if value < threshold:
        shown = format_score(value, threshold)
        _fail(result, msg or f"{label} is {shown}, below the minimum {format_bound(threshold)}.")


class ToolscoreAssertions:
    """Assertion helpers on one :class:`~toolscore.core.EvaluationResult` metric at a time.

    Each raises ``AssertionError`` with the metric against its threshold, followed by the full
    failure text of the result (every pair, missing and extra calls, a hint). ``msg`` replaces
    the first line.
    """

    @staticmethod
    def assert_invocation_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require ``metrics["invocation_accuracy"] >= threshold``."""
        __tracebackhide__ = True
        value = result.metrics["invocation_accuracy"]
        _at_least(result, "Invocation accuracy", value, threshold, msg)

    @staticmethod
    def assert_selection_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require ``selection_accuracy >= threshold``."""
        __tracebackhide__ = True
        _at_least(result, "Selection accuracy", result.selection_accuracy, threshold, msg)

    @staticmethod
    def assert_sequence_accuracy(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require ``sequence_accuracy >= threshold``."""
        __tracebackhide__ = True
        _at_least(result, "Sequence accuracy", result.sequence_accuracy, threshold, msg)

    @staticmethod
    def assert_argument_f1(result: EvaluationResult, min_f1: float, msg: str | None = None) -> None:
        """Require ``argument_f1 >= min_f1``."""
        __tracebackhide__ = True
        _at_least(result, "Argument F1 score", result.argument_f1, min_f1, msg)

    @staticmethod
    def assert_redundancy_below(
        result: EvaluationResult, max_rate: float, msg: str | None = None
    ) -> None:
        """Require ``redundant_rate <= max_rate``."""
        __tracebackhide__ = True
        rate = result.redundant_rate
        if rate > max_rate:
            text = f"Redundant call rate is {format_score(rate, max_rate)}, which exceeds the"
            _fail(result, msg or f"{text} maximum {format_bound(max_rate)}.")

    @staticmethod
    def assert_score(
        expected: list[dict[str, Any]],
        actual: Any,
        min_score: float = 0.9,
        weights: dict[str, float] | None = None,
        strict: bool = False,
    ) -> EvaluationResult:
        """Evaluate and require ``score >= min_score`` (same as ``assert_tools``)."""
        __tracebackhide__ = True
        from toolscore._engine.check.assertions import assert_tools

        return assert_tools(expected, actual, min_score=min_score, weights=weights, strict=strict)

    @staticmethod
    def assert_all_metrics_above(
        result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require invocation accuracy, selection accuracy, sequence accuracy and argument F1
        each ``>= threshold`` (the four Toolscore checks)."""
        __tracebackhide__ = True
        values = {
            "invocation_accuracy": result.metrics["invocation_accuracy"],
            "selection_accuracy": result.selection_accuracy,
            "sequence_accuracy": result.sequence_accuracy,
            "argument_f1": result.argument_f1,
        }
        low = {name: value for name, value in values.items() if value < threshold}
        if low:
            listed = ", ".join(f"{k} {format_score(v, threshold)}" for k, v in low.items())
            _fail(result, msg or f"Metrics below {format_bound(threshold)}: {listed}.")
