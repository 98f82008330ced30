"""``evaluate()``: align the calls once, derive every metric from that one alignment."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from scorekit.runtime import gc_paused
from toolscore._engine.compare.matchers import has_batched, prefetch_batched
from toolscore._engine.compare.rule import SelfContainingValue, find_cycle
from toolscore._engine.read.handoffs import has_handoffs, run_handoffs, tool_calls_only
from toolscore._engine.read.inputs import CallList, actual_calls, expected_calls
from toolscore._engine.score.flat_metrics import Evaluation, score_calls
from toolscore._engine.score.metrics.policy import policy_metrics, validate_rules
from toolscore._engine.score.result import EvaluationResult
from toolscore._engine.score.weights import resolve_weights

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
            Hand-offs between agents (``transfer_to_*`` calls, ADK ``transfer_to_agent``)
            are agent steps, not tool calls: they are left out of the scoring (unless
            ``expected`` names that tool) and listed in ``result.metrics["handoffs"]``.
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
    keep: Collection[str] = (),
) -> EvaluationResult:
    """``evaluate()`` plus ``named_only``: do not count actual arguments the expectation
    does not name (``expect()`` checks only the arguments it names), and ``keep``: hand-off
    tools whose calls are scored although the expectation does not name them."""
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    resolved = resolve_weights(weights)
    rules = None if forbidden is None else validate_rules(forbidden)
    # A hand-off is no tool call: its transfer_to_* call is left out of the scoring, unless
    # the expectation (or a forbidden rule) names that tool.
    if rules:
        keep = {*keep, *(rule["tool"] for rule in rules)}
    ev = evaluation(expected, actual, strict, named_only, keep_handoffs=keep)
    policy = None if rules is None else policy_metrics(ev.trace, rules)
    result = EvaluationResult._of(ev, resolved, policy)
    handoffs = run_handoffs(actual, ev.unfiltered)
    if handoffs:
        result._add_metrics({"handoffs": handoffs})
    return result


def evaluation(
    expected: Any,
    actual: Any,
    strict: bool = False,
    named_only: bool = False,
    *,
    plain_gold: bool = False,
    keep_handoffs: Collection[str] | None = None,
) -> Evaluation:
    """Read and align the calls; every flat metric, without a result object or weights.

    What ``evaluate()`` wraps in its result (the score is
    :func:`~toolscore._engine.score.flat_metrics.weighted_score` of it); dataset scoring, which
    writes only the flat numbers of millions of small rows, reads it directly. With ``plain_gold``
    the caller vouches that ``expected`` holds JSON values only (decoded from a line with no
    matcher in it): no value is then searched for a ``Semantic`` matcher. With
    ``keep_handoffs`` (a set of tool names) the run's hand-off calls are left out, except
    those of the expected tools and of ``keep_handoffs``; None (dataset scoring) keeps them.

    Raises:
        TypeError / ValueError: malformed calls, as ``evaluate()``.
    """
    # Reading and aligning a long trace allocates many small containers that hold no cycles;
    # the cyclic collector would rescan the growing heap again and again (superlinear time).
    with gc_paused():
        gold = expected_calls(expected)
        trace = unfiltered = actual_calls(actual)
        if keep_handoffs is not None and has_handoffs(trace.tools):
            trace = tool_calls_only(trace, {*gold.tools, *keep_handoffs})
        if not plain_gold and has_batched(gold.args):
            # Every value a Semantic matcher may meet is judged in one batch before pairing.
            prefetch_batched(gold.tools, gold.args, trace.tools, trace.args)
        try:
            ev = score_calls(gold, trace, strict, named_only)
        except SelfContainingValue as exc:
            # Found only where the comparison ran out of depth, so plain traces pay nothing.
            raise self_containing_argument(gold, trace) or exc from None
    ev.unfiltered = unfiltered
    return ev


def self_containing_argument(gold: CallList, trace: CallList) -> ValueError | None:
    """The error naming the first argument that holds itself, if one does."""
    for side, calls in (("expected", gold), ("actual", trace)):
        for i, (tool, args) in enumerate(zip(calls.tools, calls.args, strict=True)):
            for name, value in (args or {}).items():
                where = find_cycle(value)
                if where is not None:
                    return ValueError(
                        f"{side}[{i}] ({tool!r}): argument {name!r} contains itself (at"
                        f" {name}{where}), so it has no end to compare; tool arguments must be"
                        " plain data (a tree): pass a copy without the back-reference"
                    )
    return None
