"""``evaluate()``: align the calls once, derive every metric from that one alignment."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekit._gc_pause import gc_paused
from toolscore._engine.calls import actual_calls, expected_calls
from toolscore._engine.judging import has_semantic, prefetch_semantic
from toolscore._engine.policy import policy_metrics, validate_rules
from toolscore._engine.result import EvaluationResult
from toolscore._engine.scoring import Evaluation, score_calls
from toolscore._engine.weights import resolve_weights

__all__ = ["evaluate", "evaluate_calls", "evaluation"]


def evaluate(
    expected: list[dict[str, Any]],
    actual: list[dict[str, Any]] | Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
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
        forbidden: calls the agent must never make, as rules ``{"tool": name, "args":
            {...}, "reason": "..."}`` (``args`` optional, values or matchers); see
            :mod:`toolscore.metrics.policy`. Violations go to ``result.policy_violations``
            and ``metrics["policy_metrics"]``; they do not change the score.

    Returns:
        An :class:`~toolscore.core.EvaluationResult`.

    Raises:
        TypeError / ValueError: malformed calls, weights or rules (the message names the
            culprit).

    Example:
        >>> from toolscore import evaluate
        >>> result = evaluate(
        ...     expected=[{"tool": "search", "args": {"q": "test"}}],
        ...     actual=[{"tool": "search", "args": {"q": "test"}}],
        ... )
        >>> result.score
        1.0
    """
    return evaluate_calls(expected, actual, weights, strict, forbidden=forbidden)


def evaluate_calls(
    expected: Any,
    actual: Any,
    weights: Mapping[str, float] | None = None,
    strict: bool = False,
    *,
    named_only: bool = False,
    forbidden: Sequence[Mapping[str, Any]] | None = None,
) -> EvaluationResult:
    """``evaluate()`` plus ``named_only``: do not count actual arguments the expectation
    does not name (``expect()`` checks only the arguments it names)."""
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    resolved = resolve_weights(weights)
    rules = None if forbidden is None else validate_rules(forbidden)
    ev = evaluation(expected, actual, strict, named_only)
    policy = None if rules is None else policy_metrics(ev.trace, rules)
    return EvaluationResult._of(ev, resolved, policy)


def evaluation(
    expected: Any,
    actual: Any,
    strict: bool = False,
    named_only: bool = False,
    *,
    plain_gold: bool = False,
) -> Evaluation:
    """Read and align the calls; every flat metric, without a result object or weights.

    What ``evaluate()`` wraps in its result (the score is
    :func:`~toolscore._engine.scoring.weighted_score` of it); dataset scoring, which writes
    only the flat numbers of millions of small rows, reads it directly. With ``plain_gold``
    the caller vouches that ``expected`` holds JSON values only (decoded from a line with no
    matcher in it): no value is then searched for a ``Semantic`` matcher.

    Raises:
        TypeError / ValueError: malformed calls, as ``evaluate()``.
    """
    # Reading and aligning a long trace allocates many small containers that hold no cycles;
    # the cyclic collector would rescan the growing heap again and again (superlinear time).
    with gc_paused():
        gold = expected_calls(expected)
        trace = actual_calls(actual)
        if not plain_gold and has_semantic(gold.args):
            # Every value a Semantic matcher may meet is judged in one batch before pairing.
            prefetch_semantic(gold.tools, gold.args, trace.tools, trace.args)
        return score_calls(gold, trace, strict, named_only)
