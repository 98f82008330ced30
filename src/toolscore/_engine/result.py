"""What ``evaluate()`` returns: every metric, the pairing, and per-argument details."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scorekit._tool_metrics import TOOL_METRIC_NAMES
from toolscore._engine.align import Alignment
from toolscore._engine.calls import CallList
from toolscore._engine.compare import values_match
from toolscore._engine.render import render_result
from toolscore.adapters.base import ToolCall

__all__ = ["ArgumentDetail", "EvaluationResult", "PairDetail"]

SCALAR_FIELDS = TOOL_METRIC_NAMES  # the attributes below that reports show, in order


@dataclass(frozen=True)
class ArgumentDetail:
    """One argument of one aligned pair.

    ``status`` is ``"ok"``, ``"mismatch"`` (both have it, values differ), ``"missing"``
    (expected, not passed) or ``"unexpected"`` (passed, not expected).
    """

    name: str
    expected: Any
    actual: Any
    ok: bool
    status: str

    def to_dict(self) -> dict[str, Any]:
        """Plain dict; matchers appear as their repr, a judged value with the judge's verdict."""
        out = {
            "name": self.name,
            "expected": _jsonable(self.expected),
            "actual": _jsonable(self.actual),
            "ok": self.ok,
            "status": self.status,
        }
        verdict = self.judge_verdict()
        if verdict is not None:
            out["judge"] = verdict.to_dict()
        return out

    def judge_verdict(self) -> Any:
        """The judge's verdict on this argument (``evaluate_trace(judge=...)`` or a
        ``Semantic`` matcher), or None when no judge decided it."""
        read = getattr(self.expected, "verdict", None)
        if not callable(read) or self.status not in ("ok", "mismatch"):
            return None
        try:
            return read(self.actual)
        except Exception:  # a judge that cannot be built has no verdict
            return None


@dataclass(frozen=True)
class PairDetail:
    """One expected call with the actual call it was aligned with."""

    expected_index: int
    actual_index: int
    tool: str
    ok: bool
    checked: bool
    arguments: list[ArgumentDetail] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict."""
        return {
            "expected_index": self.expected_index,
            "actual_index": self.actual_index,
            "tool": self.tool,
            "ok": self.ok,
            "arguments_checked": self.checked,
            "arguments": [a.to_dict() for a in self.arguments],
        }


def argument_details(
    expected_args: dict[str, Any] | None,
    actual_args: dict[str, Any] | None,
    strict: bool,
    named_only: bool = False,
) -> list[ArgumentDetail]:
    """Per-argument comparison of one pair (empty when arguments are not checked)."""
    if expected_args is None:
        return []
    actual_args = actual_args or {}
    out: list[ArgumentDetail] = []
    for name, value in expected_args.items():
        if name in actual_args:
            ok = values_match(value, actual_args[name], strict)
            out.append(
                ArgumentDetail(name, value, actual_args[name], ok, "ok" if ok else "mismatch")
            )
        else:
            out.append(ArgumentDetail(name, value, None, False, "missing"))
    for name, value in actual_args.items():
        if name not in expected_args and not (named_only and expected_args):
            out.append(ArgumentDetail(name, None, value, False, "unexpected"))
    return out


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return repr(value)


@dataclass(eq=False)
class EvaluationResult:
    """The outcome of :func:`toolscore.evaluate`.

    Every metric is a float in ``[0, 1]``; a perfect match is exactly ``1.0``.

    Attributes:
        score: weighted mean of the components (see ``weights``).
        grade: :func:`letter_grade` of ``score``.
        selection_accuracy: share of actual calls whose tool is expected.
        tool_precision / tool_recall / tool_f1: multiset tool-name agreement.
        argument_precision / argument_recall / argument_f1: argument agreement over the
            alignment (see :mod:`toolscore.metrics.arguments`).
        sequence_accuracy: 1 - Levenshtein distance of tool-name sequences / longer length.
        redundant_rate: share of actual calls aligned with no expected call.
        required_call_recall: share of expected calls matched by a successful actual call whose
            arguments agree on every expected argument.
        weights: the renormalised weights used for ``score``.
        strict: whether strict comparison was used.
        gold_calls / trace_calls: the expected and actual calls as ``ToolCall`` objects.
        missing_calls / extra_calls: unpaired expected / actual calls.
        pairs: every aligned pair with per-argument details.
    """

    score: float
    grade: str
    selection_accuracy: float
    tool_precision: float
    tool_recall: float
    tool_f1: float
    argument_precision: float
    argument_recall: float
    argument_f1: float
    sequence_accuracy: float
    redundant_rate: float
    required_call_recall: float
    weights: dict[str, float]
    strict: bool
    gold: CallList = field(repr=False)
    trace: CallList = field(repr=False)
    alignment: Alignment = field(repr=False)
    named_only: bool = field(default=False, repr=False)

    @property
    def gold_calls(self) -> list[ToolCall]:
        """The expected calls as ``ToolCall`` objects."""
        return self.gold.tool_calls()

    @property
    def trace_calls(self) -> list[ToolCall]:
        """The actual calls as ``ToolCall`` objects."""
        return self.trace.tool_calls()

    @property
    def missing_calls(self) -> list[dict[str, Any]]:
        """Expected calls aligned with no actual call, as ``{"tool", "args", "index"}``."""
        return [
            {"tool": self.gold.tools[i], "args": self.gold.args[i], "index": i}
            for i in self.alignment.missing
        ]

    @property
    def extra_calls(self) -> list[dict[str, Any]]:
        """Actual calls aligned with no expected call, as ``{"tool", "args", "index"}``."""
        return [
            {"tool": self.trace.tools[j], "args": self.trace.args[j], "index": j}
            for j in self.alignment.extra
        ]

    @cached_property
    def pairs(self) -> list[PairDetail]:
        """Every aligned pair with per-argument details, in expected order."""
        out: list[PairDetail] = []
        for (i, j), count in zip(self.alignment.pairs, self.alignment.counts, strict=False):
            e_args, a_args = self.gold.args[i], self.trace.args[j]
            out.append(
                PairDetail(
                    expected_index=i,
                    actual_index=j,
                    tool=self.gold.tools[i],
                    ok=count.all_ok,
                    checked=e_args is not None,
                    arguments=argument_details(e_args, a_args, self.strict, self.named_only),
                )
            )
        return out

    @property
    def passed_pairs(self) -> int:
        """Aligned pairs whose arguments agree completely."""
        return sum(1 for c in self.alignment.counts if c.all_ok)

    @property
    def metrics(self) -> dict[str, Any]:
        """The scalar metrics as a dict (plus ``argument_metrics`` like the reference)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in SCALAR_FIELDS}
        out["argument_metrics"] = {
            "precision": self.argument_precision,
            "recall": self.argument_recall,
            "f1": self.argument_f1,
        }
        return out

    def to_dict(self) -> dict[str, Any]:
        """Everything, as JSON-serialisable plain data (matchers as their repr)."""
        out: dict[str, Any] = {name: getattr(self, name) for name in SCALAR_FIELDS}
        out["grade"] = self.grade
        out["strict"] = self.strict
        out["weights"] = dict(self.weights)
        out["missing_calls"] = _jsonable(self.missing_calls)
        out["extra_calls"] = _jsonable(self.extra_calls)
        out["pairs"] = [p.to_dict() for p in self.pairs]
        out["expected"] = [_jsonable(c.to_dict()) for c in self.gold_calls]
        out["actual"] = [_jsonable(c.to_dict()) for c in self.trace_calls]
        return out

    def __repr__(self) -> str:
        return (
            f"EvaluationResult(score={self.score:.3f}, grade={self.grade!r}, "
            f"tool_f1={self.tool_f1:.3f}, argument_f1={self.argument_f1:.3f}, "
            f"sequence_accuracy={self.sequence_accuracy:.3f}, "
            f"missing={len(self.alignment.missing)}, extra={len(self.alignment.extra)})"
        )

    def explain(self, min_score: float | None = None) -> str:
        """The human-readable report: every pair, missing and extra calls, scores, a hint."""
        return render_result(self, min_score=min_score)
