"""The ``toolscore`` pytest plugin (registered through the ``pytest11`` entry point).

It joins the run's scoring session (so ``assert_tools``/``test_agent``/``expect`` rows reach
the report) and offers fixtures. A failed tool-call assertion shows in pytest's output as its
failure text; toolscore's own frames are hidden from the traceback (``__tracebackhide__``).

* ``toolscore_assert_tools``: the :func:`toolscore.assert_tools` function.
* ``toolscore_assert``: helpers ``assert_score``, ``assert_argument_f1``,
  ``assert_selection_accuracy``, ``assert_sequence_accuracy``, ``assert_redundancy_below``,
  ``assert_all_metrics_above``.
* ``toolscore_eval``: ``toolscore_eval("gold.json", "trace.json")`` evaluates files found in
  ``--toolscore-gold-dir`` / ``--toolscore-trace-dir`` (defaults ``tests/gold_standards``,
  ``tests/traces``).

Importing this module stays cheap: ``toolscore`` itself loads on first use.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

if TYPE_CHECKING:
    from toolscore._engine.result import EvaluationResult

__all__ = [
    "ToolscoreAssertions",
    "pytest_addoption",
    "pytest_configure",
    "toolscore_assert",
    "toolscore_assert_tools",
    "toolscore_eval",
    "toolscore_gold_dir",
    "toolscore_trace_dir",
]


def pytest_addoption(parser: pytest.Parser) -> None:
    """Register ``--toolscore-gold-dir`` and ``--toolscore-trace-dir``."""
    group = parser.getgroup("toolscore", "tool-call evaluation (toolscore)")
    group.addoption(
        "--toolscore-gold-dir",
        action="store",
        default="tests/gold_standards",
        help="folder of gold-standard call files for the toolscore_eval fixture "
        "(default: tests/gold_standards)",
    )
    group.addoption(
        "--toolscore-trace-dir",
        action="store",
        default="tests/traces",
        help="folder of recorded traces for the toolscore_eval fixture (default: tests/traces)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Join (or create) the run's scoring session so assertions record report rows."""
    from scorekit.pytest_state import ensure_session

    ensure_session(config)


@pytest.fixture
def toolscore_assert_tools() -> Callable[..., EvaluationResult]:
    """The :func:`toolscore.assert_tools` function.

    Example:
        def test_agent(toolscore_assert_tools):
            toolscore_assert_tools(expected=[{"tool": "search"}], actual=my_agent("x"))
    """
    from toolscore._engine.assertions import assert_tools

    return assert_tools


class ToolscoreAssertions:
    """Assertion helpers on one :class:`~toolscore.core.EvaluationResult` metric at a time."""

    @staticmethod
    def _fail(result: EvaluationResult, text: str) -> NoReturn:
        """Raise ``text`` followed by the full failure text of ``result``."""
        __tracebackhide__ = True
        from toolscore._engine.render import render_result

        raise AssertionError(f"{text}\n\n{render_result(result)}")

    def _at_least(
        self, result: EvaluationResult, name: str, value: float, threshold: float, msg: str | None
    ) -> None:
        __tracebackhide__ = True
        if value < threshold:
            self._fail(result, msg or f"{name} is {value:.3f}, below the required {threshold:.3f}.")

    def assert_score(
        self,
        expected: list[dict[str, Any]],
        actual: Any,
        min_score: float = 0.9,
        weights: dict[str, float] | None = None,
        strict: bool = False,
    ) -> EvaluationResult:
        """Evaluate and require ``score >= min_score`` (same as ``assert_tools``)."""
        __tracebackhide__ = True
        from toolscore._engine.assertions import assert_tools

        return assert_tools(expected, actual, min_score=min_score, weights=weights, strict=strict)

    def assert_selection_accuracy(
        self, result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require ``selection_accuracy >= threshold``."""
        __tracebackhide__ = True
        self._at_least(result, "selection accuracy", result.selection_accuracy, threshold, msg)

    def assert_argument_f1(
        self, result: EvaluationResult, min_f1: float, msg: str | None = None
    ) -> None:
        """Require ``argument_f1 >= min_f1``."""
        __tracebackhide__ = True
        self._at_least(result, "argument F1", result.argument_f1, min_f1, msg)

    def assert_sequence_accuracy(
        self, result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require ``sequence_accuracy >= threshold``."""
        __tracebackhide__ = True
        self._at_least(result, "sequence accuracy", result.sequence_accuracy, threshold, msg)

    def assert_redundancy_below(
        self, result: EvaluationResult, max_rate: float, msg: str | None = None
    ) -> None:
        """Require ``redundant_rate <= max_rate``."""
        __tracebackhide__ = True
        if result.redundant_rate > max_rate:
            rate = result.redundant_rate
            self._fail(
                result, msg or f"redundant rate is {rate:.3f}, above the allowed {max_rate:.3f}."
            )

    def assert_all_metrics_above(
        self, result: EvaluationResult, threshold: float, msg: str | None = None
    ) -> None:
        """Require tool F1, argument F1, sequence accuracy and selection accuracy >= threshold."""
        __tracebackhide__ = True
        low = {
            name: getattr(result, name)
            for name in ("tool_f1", "argument_f1", "sequence_accuracy", "selection_accuracy")
            if getattr(result, name) < threshold
        }
        if low:
            listed = ", ".join(f"{k} {v:.3f}" for k, v in low.items())
            self._fail(result, msg or f"Metrics below {threshold:.3f}: {listed}.")


@pytest.fixture
def toolscore_assert() -> ToolscoreAssertions:
    """Metric-by-metric assertion helpers (:class:`ToolscoreAssertions`)."""
    return ToolscoreAssertions()


@pytest.fixture
def toolscore_gold_dir(request: pytest.FixtureRequest) -> Path:
    """The ``--toolscore-gold-dir`` folder, relative to the rootdir."""
    return Path(request.config.rootpath) / str(request.config.getoption("toolscore_gold_dir"))


@pytest.fixture
def toolscore_trace_dir(request: pytest.FixtureRequest) -> Path:
    """The ``--toolscore-trace-dir`` folder, relative to the rootdir."""
    return Path(request.config.rootpath) / str(request.config.getoption("toolscore_trace_dir"))


@pytest.fixture
def toolscore_eval(
    toolscore_gold_dir: Path, toolscore_trace_dir: Path
) -> Callable[..., EvaluationResult]:
    """``toolscore_eval(gold_file, trace_file, format="auto", **kw)``: evaluate two files.

    Relative names are looked up in the gold and trace folders.
    """

    def run(
        gold_file: str | Path, trace_file: str | Path, format: str = "auto", **kwargs: Any
    ) -> EvaluationResult:
        from toolscore._engine.trace import evaluate_trace

        # An absolute name replaces the folder when joined.
        gold, trace = toolscore_gold_dir / gold_file, toolscore_trace_dir / trace_file
        return evaluate_trace(gold, trace, format, **kwargs)

    return run
