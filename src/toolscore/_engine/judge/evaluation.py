"""Judged evaluation: the judge decides only what exact matching rejected.

Every argument the comparison rule rejected on a paired call, whose expected value is a
literal (not a matcher: a matcher is the author's own rule), becomes one equivalence item.
All items go to the judge together (batched, concurrent, cached by the judge layer); each
judged value is then wrapped in a :class:`JudgedValue` that accepts the actual values the
judge called equivalent, and the evaluation runs again, so every metric, the failure text and
the reports agree with the verdicts. The doors: ``evaluate_trace(judge=...)`` and
``toolscore.metrics.llm_judge``'s :func:`calculate_semantic_correctness` /
:func:`calculate_batch_semantic_correctness`.
The ``Semantic`` matcher's own path is :mod:`toolscore._engine.judge.semantic`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolscore._engine.compare.matchers import Matcher
from toolscore._engine.compare.rule import NOT_CANONICAL, canonical, values_match
from toolscore._engine.judge.config import JudgeConfig, resolve_judge
from toolscore._engine.judge.semantic import equivalence_item, judge_items
from toolscore._engine.score.details import ArgumentDetail, jsonable
from toolscore._engine.score.evaluate import evaluate_calls
from toolscore._engine.score.result import EvaluationResult

if TYPE_CHECKING:
    from scorekit.judges import EquivalenceItem, Judge, Verdict
    from toolscore._engine.read.tool_call import ToolCall

__all__ = [
    "JudgedValue",
    "calculate_batch_semantic_correctness",
    "calculate_semantic_correctness",
    "judged_evaluate",
    "semantic_metrics",
]


class JudgedValue(Matcher):
    """An expected value with the judge's verdicts on the actual values it was compared with.

    Matches what the comparison rule accepts, and any actual value the judge called
    equivalent. Its repr is the original value's, so failure texts read as before; the
    verdicts are shown next to it.
    """

    def __init__(self, value: Any, strict: bool) -> None:
        self.value = value
        self.strict = strict
        self.verdicts: dict[Any, Verdict] = {}

    def add(self, actual: Any, verdict: Verdict) -> None:
        key = canonical(actual, self.strict)
        if key is not NOT_CANONICAL:
            self.verdicts[key] = verdict

    def verdict(self, actual: Any) -> Verdict | None:
        """The judge's verdict on ``actual``, if it was judged."""
        key = canonical(actual, self.strict)
        return None if key is NOT_CANONICAL else self.verdicts.get(key)

    def matches(self, value: Any) -> bool:
        if values_match(self.value, value, self.strict):
            return True
        found = self.verdict(value)
        return found is not None and found.equivalent

    def __repr__(self) -> str:
        return repr(self.value)


def _mismatches(result: EvaluationResult) -> list[tuple[EquivalenceItem, int, ArgumentDetail]]:
    """Every argument the rule rejected on a paired call whose expected value is a literal:
    (item, expected call index, the argument)."""
    return [
        (
            equivalence_item(f"{pair.tool}.{arg.name}", arg.expected, arg.actual),
            pair.expected_index,
            arg,
        )
        for pair in result.pairs
        for arg in pair.arguments
        if arg.status == "mismatch" and not isinstance(arg.expected, Matcher)
    ]


def judged_evaluate(
    expected: Any,
    actual: Any,
    judge: Judge,
    *,
    weights: Any = None,
    strict: bool = False,
    forbidden: Any = None,
) -> tuple[EvaluationResult, dict[str, Any]]:
    """Evaluate, let the judge decide the arguments exact matching rejected, evaluate again:
    the evaluation with the verdicts applied, and :func:`semantic_metrics`."""
    first = evaluate_calls(expected, actual, weights, strict, forbidden=forbidden)
    wrapped: dict[tuple[int, str], JudgedValue] = {}
    spots = _mismatches(first)
    items = [item for item, _, _ in spots]
    verdicts = judge_items(judge, items) if items else []
    for (_, index, arg), verdict in zip(spots, verdicts, strict=True):
        holder = wrapped.setdefault((index, arg.name), JudgedValue(arg.expected, strict))
        holder.add(arg.actual, verdict)
    result = first
    if wrapped:
        gold = []
        for i, call in enumerate(first.gold_calls):
            args = call.args
            if args is not None:
                args = {n: wrapped.get((i, n), v) for n, v in args.items()}
            gold.append({"tool": call.tool, "args": args})
        result = evaluate_calls(gold, list(first.trace.items), weights, strict, forbidden=forbidden)
    return result, semantic_metrics(result, judge)


def semantic_metrics(result: EvaluationResult, judge: Judge) -> dict[str, Any]:
    """The reference's ``semantic_metrics`` keys plus every judged argument.

    ``semantic_score`` is the mean over ``max(expected calls, actual calls)`` of each expected
    call's share of agreeing arguments (exact or judged equivalent; a missed call scores 0,
    a call without checked arguments 1), so missing and extra calls lower it.
    """
    judged: list[dict[str, Any]] = []
    per_call = [0.0] * len(result.gold)
    explanations = ["no actual call was paired with this expected call"] * len(result.gold)
    for pair in result.pairs:
        args = pair.arguments
        notes = []
        for arg in args:
            verdict = (
                arg.expected.verdict(arg.actual) if isinstance(arg.expected, JudgedValue) else None
            )
            if verdict is None:
                continue
            judged.append(
                {
                    "expected_index": pair.expected_index,
                    "actual_index": pair.actual_index,
                    "tool": pair.tool,
                    "argument": arg.name,
                    "expected": jsonable(arg.expected.value),
                    "actual": jsonable(arg.actual),
                    **verdict.to_dict(),
                }
            )
            notes.append(
                f"{arg.name}: {'equivalent' if verdict.equivalent else 'not equivalent'}"
                f" ({verdict.reason})"
            )
        expected_args = [a for a in args if a.status != "unexpected"]
        if not pair.checked:
            per_call[pair.expected_index] = 1.0
        elif expected_args:
            per_call[pair.expected_index] = sum(a.ok for a in expected_args) / len(expected_args)
        else:
            per_call[pair.expected_index] = 1.0 if pair.ok else 0.0
        explanations[pair.expected_index] = "; ".join(notes) or (
            "all arguments agree" if pair.ok else "arguments differ (no judged argument)"
        )
    longest = max(len(result.gold), len(result.trace))
    methods = sorted({j["method"] for j in judged})
    out: dict[str, Any] = {
        "semantic_score": sum(per_call) / longest if longest else 1.0,
        "per_call_scores": per_call,
        "explanations": explanations,
        "model_used": (
            "all-MiniLM-L6-v2 (offline similarity)"
            if methods == ["similarity"]
            else getattr(judge.backend, "model", None) or judge.name
        ),
        "gold_count": len(result.gold),
        "trace_count": len(result.trace),
        "judge": judge.name,
        "method": methods[0] if len(methods) == 1 else ("mixed" if methods else "none"),
        "judged_arguments": judged,
        "equivalent_arguments": sum(1 for j in judged if j["equivalent"]),
    }
    if "similarity" in methods:
        from scorekit.judges import SIMILARITY_THRESHOLD

        out["threshold"] = SIMILARITY_THRESHOLD
        out["note"] = (
            "No LLM judge is configured: arguments were compared by offline MiniLM sentence"
            f" similarity (equivalent at >= {SIMILARITY_THRESHOLD:.2f}, numbers must match)."
        )
    return out


def _as_calls(calls: Sequence[Any]) -> list[Any]:
    return [c.to_dict() if hasattr(c, "to_dict") and not isinstance(c, dict) else c for c in calls]


def calculate_semantic_correctness(
    gold_calls: Sequence[ToolCall] | Sequence[dict[str, Any]],
    trace_calls: Sequence[ToolCall] | Sequence[dict[str, Any]],
    *,
    judge: JudgeConfig | str | bool | None = None,
) -> dict[str, Any]:
    """Semantic correctness of the calls made: exact matching first, the judge for the
    arguments it rejected.

    The calls are paired one-to-one as in :func:`toolscore.evaluate`; every argument of a
    paired call that the comparison rule rejected (and whose expected value is a literal, not
    a matcher) is judged, all of them in batched concurrent calls.

    Args:
        gold_calls: the expected calls (``ToolCall`` objects or ``{"tool", "args"}`` dicts).
        trace_calls: the calls made.
        judge: see :func:`resolve_judge`.

    Returns:
        ``semantic_score`` (mean over ``max(expected, actual)`` calls of each expected call's
        share of agreeing arguments, exact or judged; missing and extra calls lower it),
        ``per_call_scores`` and ``explanations`` (one per expected call), ``model_used``,
        ``gold_count``, ``trace_count``, and ours: ``judge``, ``method`` (``llm`` or
        ``similarity``), ``judged_arguments`` (each with ``equivalent`` and ``reason``),
        ``equivalent_arguments``, and for the offline fallback ``threshold`` and ``note``.

    Raises:
        JudgeUnavailableError: the judge failed after its retries (an error, not a score).
    """
    _, metrics = judged_evaluate(
        _as_calls(gold_calls), _as_calls(trace_calls), resolve_judge(judge)
    )
    return metrics


def calculate_batch_semantic_correctness(
    evaluations: Sequence[tuple[Sequence[Any], Sequence[Any]]],
    *,
    judge: JudgeConfig | str | bool | None = None,
) -> dict[str, Any]:
    """Semantic correctness of several ``(gold_calls, trace_calls)`` cases.

    Every argument pair of every case goes to the judge in one batch (concurrent calls,
    identical pairs judged once), then each case is scored.

    Returns:
        ``average_score``, ``individual_scores``, ``total_evaluations`` and ``results`` (each
        case's full semantic metrics).
    """
    resolved = resolve_judge(judge)
    cases = [(_as_calls(g), _as_calls(t)) for g, t in evaluations]
    items = [spot[0] for g, t in cases for spot in _mismatches(evaluate_calls(g, t))]
    if items:
        judge_items(resolved, items)  # one batch; each case below reads the memo
    results = [judged_evaluate(g, t, resolved)[1] for g, t in cases]
    scores = [r["semantic_score"] for r in results]
    return {
        "average_score": sum(scores) / len(scores) if scores else 0.0,
        "individual_scores": scores,
        "total_evaluations": len(scores),
        "results": results,
    }
