"""``evaluate()``: align the calls once, derive every metric from that one alignment."""

from __future__ import annotations

import gc
import math
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from toolscore._engine.align import align
from toolscore._engine.calls import actual_calls, expected_calls
from toolscore._engine.counts import prf
from toolscore._engine.judging import has_semantic, prefetch_semantic
from toolscore._engine.result import EvaluationResult
from toolscore._engine.tool_metrics import selection_accuracy, sequence_accuracy
from toolscore._engine.weights import resolve_weights
from toolscore.verdict import letter_grade

__all__ = ["evaluate", "evaluate_calls"]


def evaluate(
    expected: list[dict[str, Any]],
    actual: list[dict[str, Any]] | Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
) -> EvaluationResult:
    """Compare the tool calls an agent made with the calls it should have made.

    Args:
        expected: ``[{"tool": name, "args": {...}}, ...]``. ``args`` omitted or ``None``
            means "do not check arguments"; ``{}`` means "expect no arguments". Values may be
            matchers (``ANY``, ``Regex``, ``Approx``...).
        actual: the calls made, in the same shape, or any provider response that
            :func:`toolscore.auto_extract` reads (OpenAI, Anthropic, Gemini, LangGraph...).
        weights: custom weights for ``score``, merged over the defaults
            (``selection_accuracy`` 0.4, ``argument_f1`` 0.3, ``sequence_accuracy`` 0.2,
            ``redundant_rate`` 0.1, ``required_call_recall`` 0) and renormalised.
        strict: compare argument values by exact type and value (matchers still apply).

    Returns:
        An :class:`~toolscore.core.EvaluationResult`.

    Raises:
        TypeError / ValueError: malformed calls or weights (the message names the culprit).

    Example:
        >>> from toolscore import evaluate
        >>> result = evaluate(
        ...     expected=[{"tool": "search", "args": {"q": "test"}}],
        ...     actual=[{"tool": "search", "args": {"q": "test"}}],
        ... )
        >>> result.score
        1.0
    """
    return evaluate_calls(expected, actual, weights, strict)


def evaluate_calls(
    expected: Any,
    actual: Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    *,
    named_only: bool = False,
) -> EvaluationResult:
    """``evaluate()`` plus ``named_only``: do not count actual arguments the expectation
    does not name (``expect()`` checks only the arguments it names)."""
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    resolved = resolve_weights(weights)
    with _gc_paused():
        return _evaluate(expected, actual, resolved, strict, named_only)


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector.

    Reading and aligning a long trace allocates many small containers that hold no cycles;
    the collector would rescan the growing heap again and again (superlinear time).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _evaluate(
    expected: Any, actual: Any, resolved: dict[str, float], strict: bool, named_only: bool
) -> EvaluationResult:
    gold = expected_calls(expected)
    trace = actual_calls(actual)
    if has_semantic(gold.args):
        # Every value a Semantic matcher may meet is judged in one batch before the pairing.
        prefetch_semantic(gold.tools, gold.args, trace.tools, trace.args)
    alignment = align(gold.tools, gold.args, trace.tools, trace.args, strict, named_only)
    e_tools, a_tools = gold.tools, trace.tools

    n_pairs = len(alignment.pairs)
    # Tool names count like argument units: aligned pairs agree, each side its calls.
    tool_p, tool_r, tool_f = prf(n_pairs, len(gold), len(trace))
    arg_p, arg_r, arg_f = prf(alignment.agree, alignment.expected_units, alignment.actual_units)
    redundant = len(alignment.extra) / len(trace) if trace else 0.0
    satisfied = sum(
        1
        for (_, j), count in zip(alignment.pairs, alignment.counts, strict=False)
        if count.agree == count.expected and j not in trace.errors
    )
    required = satisfied / len(gold) if gold else 1.0
    components = {
        "selection_accuracy": tool_f,
        "argument_f1": arg_f,
        "sequence_accuracy": sequence_accuracy(e_tools, a_tools),
        "redundant_rate": 1.0 - redundant,
        "required_call_recall": required,
    }
    if all(components[k] == 1.0 for k, w in resolved.items() if w > 0):
        score = 1.0
    else:
        score = math.fsum(resolved[k] * components[k] for k in resolved)
        score = min(1.0, max(0.0, score))
    return EvaluationResult(
        score=score,
        grade=letter_grade(score),
        selection_accuracy=selection_accuracy(e_tools, a_tools),
        tool_precision=tool_p,
        tool_recall=tool_r,
        tool_f1=tool_f,
        argument_precision=arg_p,
        argument_recall=arg_r,
        argument_f1=arg_f,
        sequence_accuracy=components["sequence_accuracy"],
        redundant_rate=redundant,
        required_call_recall=required,
        weights=resolved,
        strict=strict,
        gold=gold,
        trace=trace,
        alignment=alignment,
        named_only=named_only,
    )
