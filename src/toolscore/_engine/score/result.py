"""What ``evaluate()`` returns: every metric, the pairing, per-argument details, the record.

Over 400 lines on purpose: one public class whose many read-only properties (each metric of
Toolscore 1.10's result, with its docstring) are its surface; the work is done elsewhere
(``flat_metrics``, ``details``, ``render``, ``display``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from scorekit.format import format_score
from scorekit.report import TOOL_METRIC_NAMES
from toolscore._engine.align.pairing import Alignment
from toolscore._engine.read.inputs import CallList, actual_calls, expected_calls
from toolscore._engine.read.tool_call import ToolCall
from toolscore._engine.score.details import PairDetail, argument_details, jsonable
from toolscore._engine.score.flat_metrics import (
    Evaluation,
    metrics_dict,
    score_calls,
    weighted_score,
)
from toolscore._engine.score.grades import letter_grade
from toolscore._engine.score.render import render_result
from toolscore._engine.score.weights import DEFAULT_WEIGHTS, resolve_weights

__all__ = ["SCALAR_FIELDS", "EvaluationResult"]

SCALAR_FIELDS = TOOL_METRIC_NAMES  # the attributes below that reports show, in order

# Where a flat attribute lives in ``metrics`` when not under its own name (Toolscore's layout).
_LOCATION: dict[str, tuple[str, ...]] = {
    "argument_precision": ("argument_metrics", "precision"),
    "argument_recall": ("argument_metrics", "recall"),
    "argument_f1": ("argument_metrics", "f1"),
    "sequence_accuracy": ("sequence_metrics", "sequence_accuracy"),
    "redundant_rate": ("efficiency_metrics", "redundant_rate"),
}


def _lookup(metrics: Mapping[str, Any], path: tuple[str, ...]) -> Any:
    value: Any = metrics
    for key in path:
        if not isinstance(value, Mapping) or key not in value:
            return None
        value = value[key]
    return value


class EvaluationResult:
    """The outcome of :func:`toolscore.evaluate`.

    Every metric is in ``[0, 1]``; a perfect match scores exactly ``1.0``.
    ``EvaluationResult()`` is the empty result: nothing expected, nothing called (score 1.0).

    Attributes:
        score: weighted mean of the components (see ``weights``).
        grade: :func:`~toolscore.verdict.letter_grade` of ``score``.
        selection_accuracy: share of actual calls whose tool is expected.
        tool_precision / tool_recall / tool_f1: multiset tool-name agreement.
        argument_precision / argument_recall / argument_f1: argument agreement over the
            alignment (see :mod:`toolscore.metrics.arguments`).
        sequence_accuracy: 1 - Levenshtein distance of tool-name sequences / longer length.
        redundant_rate: share of actual calls aligned with no expected call.
        required_call_recall: share of expected calls completed (paired with an actual call
            that did not fail and agrees on every expected argument); None when nothing was
            expected.
        metrics: every metric as a dict in Toolscore's layout (``invocation_accuracy``,
            ``selection_accuracy``, ``tool_correctness_metrics``, ``sequence_metrics``,
            ``trajectory_metrics``, ``argument_metrics``, ``efficiency_metrics``,
            ``required_call_recall``, ``security_metrics``, ``policy_metrics`` when forbidden
            rules were given) plus ``tool_precision`` / ``tool_recall`` / ``tool_f1``. The
            flat attributes read it, so a dict assigned (or edited) by hand is what they show.
        policy_violations: calls that broke a ``forbidden`` rule.
        weights: the renormalised weights used for ``score``.
        strict: whether strict comparison was used.
        gold_calls / trace_calls: the expected and actual calls as ``ToolCall`` objects;
            assigning them re-evaluates the result.
        missing_calls / extra_calls: unpaired expected / actual calls.
        pairs: every aligned pair with per-argument details.

    Example:
        >>> EvaluationResult().score, EvaluationResult().required_call_recall
        (1.0, None)
    """

    DEFAULT_WEIGHTS: ClassVar[dict[str, float]] = DEFAULT_WEIGHTS
    RECORD_SCHEMA_VERSION: ClassVar[str] = "2"

    _ev: Evaluation | None
    _gold_in: list[Any] | None  # calls assigned by hand (None: they come from the evaluation)
    _trace_in: list[Any] | None
    _metrics: dict[str, Any] | None
    _pairs: list[PairDetail] | None
    _score: float | None

    def __init__(
        self,
        *,
        gold_calls: Sequence[ToolCall | Mapping[str, Any]] | None = None,
        trace_calls: Sequence[ToolCall | Mapping[str, Any]] | None = None,
        weights: Mapping[str, float] | None = None,
        strict: bool = False,
    ) -> None:
        if not isinstance(strict, bool):
            raise TypeError(f"strict must be True or False, got {strict!r}")
        self._w = resolve_weights(weights)
        self._strict = strict
        self._named_only = False
        self._gold_in = list(gold_calls or [])
        self._trace_in = list(trace_calls or [])
        self._policy: dict[str, Any] | None = None
        self._extra: dict[str, Any] = {}
        self._reset()
        # Built by hand, as in Toolscore: ``metrics`` starts empty and holds what is assigned;
        # every value it does not hold is computed from gold_calls against trace_calls.
        self._metrics, self._metrics_given = {}, True

    @classmethod
    def _of(
        cls,
        ev: Evaluation,
        weights: dict[str, float],
        policy: dict[str, Any] | None = None,
    ) -> EvaluationResult:
        """The result of an evaluation that already ran (``evaluate()``'s fast path)."""
        self = cls.__new__(cls)
        self._w = weights
        self._strict = ev.strict
        self._named_only = ev.named_only
        self._gold_in = self._trace_in = None
        self._policy = policy
        self._extra = {}
        self._reset()
        self._ev = ev
        return self

    def _reset(self) -> None:
        self._ev = None
        self._metrics = None
        self._metrics_given = False
        self._pairs = None
        self._score = None

    def _evaluation(self) -> Evaluation:
        ev = self._ev
        if ev is None:
            ev = self._ev = score_calls(
                expected_calls(self._gold_in or []),
                actual_calls(self._trace_in or []),
                self._strict,
                self._named_only,
            )
        return ev

    # -- the evaluation ---------------------------------------------------------------
    @property
    def gold(self) -> CallList:
        """The expected calls as read (tool names and argument dicts side by side)."""
        return self._evaluation().gold

    @property
    def trace(self) -> CallList:
        """The actual calls as read."""
        return self._evaluation().trace

    @property
    def alignment(self) -> Alignment:
        """The one-to-one pairing of expected with actual calls."""
        return self._evaluation().alignment

    @property
    def strict(self) -> bool:
        """Whether argument values were compared by exact type and value."""
        return self._strict

    @property
    def named_only(self) -> bool:
        """Whether actual arguments the expectation does not name were left uncounted."""
        return self._named_only

    @property
    def gold_calls(self) -> list[ToolCall]:
        """The expected calls as ``ToolCall`` objects (assigning re-evaluates)."""
        return self._evaluation().gold.tool_calls()

    @gold_calls.setter
    def gold_calls(self, calls: Sequence[ToolCall | Mapping[str, Any]]) -> None:
        self._replace_calls(calls, self._trace_list())

    @property
    def trace_calls(self) -> list[ToolCall]:
        """The actual calls as ``ToolCall`` objects (assigning re-evaluates)."""
        return self._evaluation().trace.tool_calls()

    @trace_calls.setter
    def trace_calls(self, calls: Sequence[ToolCall | Mapping[str, Any]]) -> None:
        self._replace_calls(self._gold_list(), calls)

    def _gold_list(self) -> list[Any]:
        return self._gold_in if self._gold_in is not None else list(self.gold_calls)

    def _trace_list(self) -> list[Any]:
        return self._trace_in if self._trace_in is not None else list(self.trace_calls)

    def _replace_calls(self, gold: Sequence[Any], trace: Sequence[Any]) -> None:
        if not isinstance(gold, (list, tuple)) or not isinstance(trace, (list, tuple)):
            raise TypeError("gold_calls and trace_calls must be lists of ToolCall objects")
        given = self._metrics if self._metrics_given else None
        self._gold_in, self._trace_in = list(gold), list(trace)
        self._reset()
        if given is not None:  # metrics set by hand stay what they were set to
            self._metrics, self._metrics_given = given, True

    # -- metrics ----------------------------------------------------------------------
    @property
    def metrics(self) -> dict[str, Any]:
        """Every metric in Toolscore's layout (built on first access; see the class doc)."""
        m = self._metrics
        if m is None:
            m = self._metrics = metrics_dict(self._evaluation(), self._policy, self._extra)
        return m

    @metrics.setter
    def metrics(self, value: dict[str, Any]) -> None:
        if not isinstance(value, dict):
            raise TypeError(f"metrics must be a dict, got {type(value).__name__}")
        self._metrics = value
        self._metrics_given = True
        self._score = None

    def _add_metrics(self, extra: Mapping[str, Any]) -> None:
        """Metrics only some callers compute (``evaluate_trace``: side effects, latency...)."""
        self._extra.update(extra)
        if self._metrics is not None and not self._metrics_given:
            self._metrics.update(extra)

    def _value(self, name: str) -> Any:
        m = self._metrics
        if m is not None:
            path = _LOCATION.get(name, (name,))
            value = _lookup(m, path)
            if value is not None:
                return float(value)
            if name == "required_call_recall" and path[0] in m:
                return None  # None held on purpose: nothing was required
        return getattr(self._evaluation(), name)

    @property
    def selection_accuracy(self) -> float:
        """Share of actual calls whose tool is among the expected tools."""
        return float(self._value("selection_accuracy"))

    @property
    def tool_precision(self) -> float:
        """Share of actual calls paired with an expected call (multiset of tool names)."""
        return float(self._value("tool_precision"))

    @property
    def tool_recall(self) -> float:
        """Share of expected calls paired with an actual call."""
        return float(self._value("tool_recall"))

    @property
    def tool_f1(self) -> float:
        """Harmonic mean of tool precision and recall."""
        return float(self._value("tool_f1"))

    @property
    def argument_precision(self) -> float:
        """Share of actual argument units that agree (over the alignment)."""
        return float(self._value("argument_precision"))

    @property
    def argument_recall(self) -> float:
        """Share of expected argument units that agree (missed calls lose theirs)."""
        return float(self._value("argument_recall"))

    @property
    def argument_f1(self) -> float:
        """Harmonic mean of argument precision and recall."""
        return float(self._value("argument_f1"))

    @property
    def sequence_accuracy(self) -> float:
        """1 - edit distance of the tool-name sequences / the longer length."""
        return float(self._value("sequence_accuracy"))

    @property
    def redundant_rate(self) -> float:
        """Share of actual calls paired with no expected call."""
        return float(self._value("redundant_rate"))

    @property
    def required_call_recall(self) -> float | None:
        """Share of expected calls completed; None when nothing was expected."""
        value = self._value("required_call_recall")
        return None if value is None else float(value)

    # -- score ------------------------------------------------------------------------
    def _get_weights(self) -> dict[str, float]:
        return self._w

    def _set_weights(self, value: Mapping[str, float] | None) -> None:
        self._w = resolve_weights(value)
        self._score = None

    weights = property(
        _get_weights,
        _set_weights,
        doc="The renormalised weights of ``score`` (assign a partial dict to re-weight).",
    )
    # Toolscore keeps them under this name; code written against it reads and assigns it.
    _weights = property(_get_weights, _set_weights)

    @property
    def score(self) -> float:
        """Weighted mean of the components; exactly 1.0 when every weighted one is 1.0."""
        m = self._metrics
        if m is None:
            if self._score is not None:
                return self._score
            ev = self._evaluation()
            selection, argument, sequence = ev.tool_f1, ev.argument_f1, ev.sequence_accuracy
            redundant, recall = ev.redundant_rate, ev.required_call_recall
        else:
            # A metrics dict written by hand in Toolscore's layout has no tool_f1.
            by_hand = "tool_f1" not in m and "selection_accuracy" in m
            selection = self.selection_accuracy if by_hand else self.tool_f1
            argument, sequence = self.argument_f1, self.sequence_accuracy
            redundant, recall = self.redundant_rate, self.required_call_recall
        score = weighted_score(self._w, selection, argument, sequence, redundant, recall)
        if m is None:  # nothing a user could have edited: the score cannot change
            self._score = score
        return score

    @property
    def grade(self) -> str:
        """Letter grade of ``score`` (A >= 0.9, B >= 0.8, C >= 0.7, D >= 0.6, else F)."""
        return letter_grade(self.score)

    # -- pairing details ----------------------------------------------------------------
    @property
    def missing_calls(self) -> list[dict[str, Any]]:
        """Expected calls aligned with no actual call, as ``{"tool", "args", "index"}``."""
        ev = self._evaluation()
        return [
            {"tool": ev.gold.tools[i], "args": ev.gold.args[i], "index": i}
            for i in ev.alignment.missing
        ]

    @property
    def extra_calls(self) -> list[dict[str, Any]]:
        """Actual calls aligned with no expected call, as ``{"tool", "args", "index"}``."""
        ev = self._evaluation()
        return [
            {"tool": ev.trace.tools[j], "args": ev.trace.args[j], "index": j}
            for j in ev.alignment.extra
        ]

    @property
    def pairs(self) -> list[PairDetail]:
        """Every aligned pair with per-argument details, in expected order."""
        if self._pairs is not None:
            return self._pairs
        ev = self._evaluation()
        out: list[PairDetail] = []
        for (i, j), count in zip(ev.alignment.pairs, ev.alignment.counts, strict=False):
            e_args, a_args = ev.gold.args[i], ev.trace.args[j]
            arguments = argument_details(e_args, a_args, ev.strict, ev.named_only)
            checked = e_args is not None
            out.append(PairDetail(i, j, ev.gold.tools[i], count.all_ok, checked, arguments))
        self._pairs = out
        return out

    @property
    def passed_pairs(self) -> int:
        """Aligned pairs whose arguments agree completely."""
        return sum(1 for c in self._evaluation().alignment.counts if c.all_ok)

    @property
    def policy_violations(self) -> list[dict[str, Any]]:
        """Calls that broke a ``forbidden`` rule: ``{"index", "tool", "args", "rule",
        "reason"}`` each (empty when no rules were given)."""
        policy = self.metrics.get("policy_metrics") if self._metrics is not None else self._policy
        violations = (policy or {}).get("violations", [])
        return list(violations) if isinstance(violations, list) else []

    # -- records ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole evaluation as JSON-safe plain data (matchers and objects as their repr).

        A superset of Toolscore's record (``schema_version`` "2"): ``score``, ``grade``,
        ``weights``, ``required_call_recall``, ``metrics``, ``calls`` (``expected`` and
        ``actual``, the actual ones with ``result``, ``is_error``, ``error``, ``duration``,
        ``cost``), ``gold_calls_count``, ``trace_calls_count``; and ours: every flat metric,
        ``strict``, ``policy_violations``, ``missing_calls``, ``extra_calls``, ``pairs``
        (per-argument comparison), ``expected`` and ``actual`` (the calls with run data).
        """
        gold, trace = self.gold_calls, self.trace_calls
        out: dict[str, Any] = {
            "schema_version": self.RECORD_SCHEMA_VERSION,
            "score": self.score,
            "grade": self.grade,
            "weights": dict(self._w),
            "required_call_recall": self.required_call_recall,
            "metrics": jsonable(self.metrics),
            "calls": {
                "expected": [{"tool": c.tool, "args": jsonable(c.args)} for c in gold],
                "actual": [_call_record(c) for c in trace],
            },
            "gold_calls_count": len(gold),
            "trace_calls_count": len(trace),
        }
        for name in SCALAR_FIELDS:
            out.setdefault(name, getattr(self, name))
        out["strict"] = self._strict
        out["policy_violations"] = jsonable(self.policy_violations)
        out["missing_calls"] = jsonable(self.missing_calls)
        out["extra_calls"] = jsonable(self.extra_calls)
        out["pairs"] = [p.to_dict() for p in self.pairs]
        out["expected"] = [jsonable(c.to_dict()) for c in gold]
        out["actual"] = [jsonable(c.to_dict()) for c in trace]
        return out

    def __repr__(self) -> str:
        ev = self._evaluation()
        return (
            f"EvaluationResult(score={format_score(self.score)}, grade={self.grade!r}, "
            f"tool_f1={format_score(self.tool_f1)}, argument_f1={format_score(self.argument_f1)}, "
            f"sequence_accuracy={format_score(self.sequence_accuracy)}, "
            f"missing={len(ev.alignment.missing)}, extra={len(ev.alignment.extra)})"
        )

    def explain(self, min_score: float | None = None) -> str:
        """The human-readable report: every pair, missing and extra calls, scores, a hint."""
        return render_result(self, min_score=min_score)


def _call_record(call: ToolCall) -> dict[str, Any]:
    """One actual call in ``to_dict()["calls"]``: arguments and what happened."""
    error = (call.metadata or {}).get("error")
    return {
        "tool": call.tool,
        "args": jsonable(call.args),
        "result": jsonable(call.result),
        "is_error": call.is_error,
        "error": None if isinstance(error, bool) else jsonable(error),
        "duration": call.duration,
        "cost": call.cost,
    }
