"""The tool-call judge inside the evaluation: only what exact matching rejected goes to it.

Two doors lead here:

* ``evaluate_trace(..., judge=True)`` (and :func:`judged_evaluate`): the calls are aligned and
  compared as usual; every argument the comparison rule rejected on a paired call, whose
  expected value is a literal (not a matcher: a matcher is the author's own rule), becomes one
  equivalence item. All items go to the judge together (batched, concurrent, cached by the
  judge layer); each judged value is then wrapped in a :class:`JudgedValue` that accepts the
  actual values the judge called equivalent, and the evaluation runs again, so every metric,
  the failure text and the reports agree with the verdicts.
* :class:`toolscore.matchers.Semantic` in an expected-args dict: before the alignment the
  evaluation collects every value a ``Semantic`` could be compared with (same tool, same
  argument name) and judges them in one batch (:func:`prefetch_semantic`); the matcher then
  reads its verdicts from the memo.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from toolscore._engine.compare import NOT_CANONICAL, canonical, values_match
from toolscore._engine.details import jsonable
from toolscore._engine.matchers import Matcher

if TYPE_CHECKING:
    from scorekit.judges import EquivalenceItem, Judge, Verdict
    from toolscore._engine.result import EvaluationResult

__all__ = [
    "JudgedValue",
    "has_semantic",
    "judge_items",
    "judged_evaluate",
    "known_verdict",
    "mismatch_items",
    "prefetch_semantic",
    "verdict_for",
]

_MEMO_SIZE = 8192
# Verdicts per judge (dropped with the judge), most recent last.
_memo: weakref.WeakKeyDictionary[Judge, OrderedDict[str, Verdict]] = weakref.WeakKeyDictionary()
_memo_lock = threading.Lock()


def _memo_of(judge: Judge) -> OrderedDict[str, Verdict]:
    table = _memo.get(judge)
    if table is None:
        table = _memo[judge] = OrderedDict()
    return table


def _item(label: str, expected: Any, actual: Any) -> EquivalenceItem:
    from scorekit.judges import EquivalenceItem

    return EquivalenceItem(label, jsonable(expected), jsonable(actual))


def judge_items(judge: Judge, items: Sequence[EquivalenceItem]) -> list[Verdict]:
    """Verdicts for ``items`` from ``judge`` (memoised per judge for the process).

    Raises:
        JudgeUnavailableError / CacheMissError: the judge failed or the replay cache missed.
    """
    from scorekit.judges import run_sync

    with _memo_lock:
        table = _memo_of(judge)
        known: dict[str, Verdict | None] = {_pair_key(i): table.get(_pair_key(i)) for i in items}
    missing = [i for i in items if known[_pair_key(i)] is None]
    if missing:
        fresh = run_sync(judge.equivalence(missing))
        with _memo_lock:
            table = _memo_of(judge)
            for item, verdict in zip(missing, fresh, strict=True):
                key = _pair_key(item)
                known[key] = table[key] = verdict
                table.move_to_end(key)
            while len(table) > _MEMO_SIZE:
                table.popitem(last=False)
    out: list[Verdict] = []
    for item in items:
        found = known[_pair_key(item)]
        assert found is not None
        out.append(found)
    return out


def _pair_key(item: EquivalenceItem) -> str:
    """The memo's key: the two values (not the label, which a plain ``==`` does not know)."""
    import json

    return json.dumps([item.expected, item.actual], sort_keys=True, default=repr)


def known_verdict(judge: Judge, expected: Any, actual: Any) -> Verdict | None:
    """A verdict already reached for this pair, without asking the judge."""
    key = _pair_key(_item("", expected, actual))
    with _memo_lock:
        return _memo_of(judge).get(key)


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


def verdict_for(judge: Judge, label: str, expected: Any, actual: Any) -> Verdict:
    """One pair's verdict (from the memo when it was prefetched)."""
    return judge_items(judge, [_item(label, expected, actual)])[0]


def prefetch_semantic(
    gold_tools: Sequence[str],
    gold_args: Sequence[dict[str, Any] | None],
    trace_tools: Sequence[str],
    trace_args: Sequence[dict[str, Any] | None],
) -> None:
    """Judge, in one batch per judge, every value each ``Semantic`` matcher may meet: the
    same argument of an actual call to the same tool (values exact matching accepts are
    skipped)."""
    from toolscore._engine.matchers import Semantic

    by_tool: dict[str, list[dict[str, Any]]] = {}
    for tool, args in zip(trace_tools, trace_args, strict=True):
        if args:
            by_tool.setdefault(tool, []).append(args)
    wanted: dict[int, tuple[Judge, list[EquivalenceItem]]] = {}
    for tool, args in zip(gold_tools, gold_args, strict=True):
        for name, value in (args or {}).items():
            for matcher in _semantics(value, Semantic):
                judge = matcher.resolved_judge()
                for actual in by_tool.get(tool, []):
                    if name in actual and not values_match(matcher.value, actual[name]):
                        entry = wanted.setdefault(id(judge), (judge, []))
                        entry[1].append(_item(f"{tool}.{name}", matcher.value, actual[name]))
    for judge, items in wanted.values():
        judge_items(judge, items)


# Values of these exact types are never matchers (a matcher is an instance of a Matcher
# subclass); checking the type first spares the costly ABC isinstance on every plain value.
_PLAIN_VALUES = frozenset((str, int, float, bool, type(None), list, dict, tuple))


def has_semantic(all_args: Sequence[dict[str, Any] | None]) -> bool:
    """True when a ``Semantic`` matcher sits in some expected argument (composed or not)."""
    plain = _PLAIN_VALUES
    for args in all_args:
        if args and not plain.issuperset(map(type, args.values())):
            break
    else:
        return False
    from toolscore._engine.matchers import Semantic

    return any(
        type(value) not in plain and isinstance(value, Matcher) and _semantics(value, Semantic)
        for args in all_args
        if args
        for value in args.values()
    )


def _semantics(value: Any, kind: type[Any]) -> list[Any]:
    if isinstance(value, kind):
        return [value]
    inner = getattr(value, "inner", None)
    parts = getattr(value, "parts", None) or ([inner] if isinstance(inner, Matcher) else [])
    found: list[Any] = []
    for part in parts:
        found.extend(_semantics(part, kind))
    return found


def _mismatches(result: EvaluationResult) -> list[tuple[EquivalenceItem, int, str, Any]]:
    """Every argument the rule rejected on a paired call whose expected value is a literal:
    (item, expected call index, argument name, actual value)."""
    out = []
    for pair in result.pairs:
        for arg in pair.arguments:
            if arg.status == "mismatch" and not isinstance(arg.expected, Matcher):
                item = _item(f"{pair.tool}.{arg.name}", arg.expected, arg.actual)
                out.append((item, pair.expected_index, arg.name, arg.actual))
    return out


def mismatch_items(result: EvaluationResult) -> list[EquivalenceItem]:
    """The equivalence items of :func:`judged_evaluate` for an evaluation."""
    return [item for item, _, _, _ in _mismatches(result)]


def judged_evaluate(
    expected: Any,
    actual: Any,
    judge: Judge,
    *,
    weights: Any = None,
    strict: bool = False,
    forbidden: Any = None,
) -> tuple[EvaluationResult, dict[str, Any]]:
    """Evaluate, let the judge decide the arguments exact matching rejected, evaluate again.

    Returns:
        The evaluation with the verdicts applied, and the semantic metrics (see
        :func:`semantic_metrics`).
    """
    from toolscore._engine.evaluate import evaluate_calls

    first = evaluate_calls(expected, actual, weights, strict, forbidden=forbidden)
    wrapped: dict[tuple[int, str], JudgedValue] = {}
    spots = _mismatches(first)
    items = [item for item, _, _, _ in spots]
    verdicts = judge_items(judge, items) if items else []
    for (_, index, name, value), verdict in zip(spots, verdicts, strict=True):
        holder = wrapped.get((index, name))
        if holder is None:
            original = first.gold.args[index]
            assert original is not None
            holder = wrapped[(index, name)] = JudgedValue(original[name], strict)
        holder.add(value, verdict)
    result = first
    if wrapped:
        gold = []
        for i, call in enumerate(first.gold_calls):
            args = call.args
            if args is not None and any((i, n) in wrapped for n in args):
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
    score = sum(per_call) / longest if longest else 1.0
    methods = sorted({j["method"] for j in judged})
    out: dict[str, Any] = {
        "semantic_score": score,
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
        from scorekit.judges._similarity import SIMILARITY_THRESHOLD

        out["threshold"] = SIMILARITY_THRESHOLD
        out["note"] = (
            "No LLM judge is configured: arguments were compared by offline MiniLM sentence"
            f" similarity (equivalent at >= {SIMILARITY_THRESHOLD:.2f}, numbers must match)."
        )
    return out
