"""Metrics that explain themselves: what each one found wrong, in sentences, with tips.

Explanations come from the same alignment and comparison rule as the scores, so "missing
argument 'city'" always refers to the actual call that was scored against that expected call.

Example:
    >>> from toolscore import evaluate
    >>> result = evaluate([{"tool": "get_weather", "args": {"city": "NYC"}}],
    ...                   [{"tool": "get_wether", "args": {"city": "NYC"}}])
    >>> for item in generate_explanations(result)["selection_accuracy"].items:
    ...     print(item.category, item.message)
    missing Expected call to 'get_weather' was never made
    extra Unexpected call to 'get_wether' (actual call 1)
    >>> print(get_all_tips(generate_explanations(result))[0])
    'get_weather' and 'get_wether' look alike: check the tool's name (names are ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import TYPE_CHECKING, Any

from scorekit.format import format_percent
from toolscore._engine.read.inputs import read_calls
from toolscore._engine.score.details import argument_details
from toolscore._engine.score.render import format_value
from toolscore.diff import Calls, _read

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "Explanation",
    "MetricExplanation",
    "explain_argument_metrics",
    "explain_efficiency_metrics",
    "explain_selection_accuracy",
    "explain_sequence_metrics",
    "explain_tool_correctness",
    "generate_explanations",
    "get_all_tips",
    "get_top_issues",
]

_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2, "success": 3}


@dataclass
class Explanation:
    """One finding: ``category`` (``missing``, ``extra``, ``mismatch``, ``info``...),
    a sentence, a ``severity`` (``error``, ``warning``, ``info``, ``success``) and details."""

    category: str
    message: str
    severity: str = "info"
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class MetricExplanation:
    """What one metric found: its value, a short description of it, findings and tips."""

    metric_name: str
    score: float
    score_description: str
    items: list[Explanation] = field(default_factory=list)
    tips: list[str] = field(default_factory=list)


def explain_selection_accuracy(
    gold_calls: Calls, trace_calls: Calls, accuracy: float
) -> MetricExplanation:
    """Which expected calls were never made and which calls were not expected (paired one
    to one by tool, as the scores are), with a tip for names that look alike."""
    gold, trace, alignment = _read(gold_calls, trace_calls, False)
    out = MetricExplanation(
        "Selection Accuracy",
        accuracy,
        f"{len(alignment.pairs)} of {max(len(gold), len(trace))} calls paired by tool"
        if len(gold) or len(trace)
        else "nothing expected, nothing called",
    )
    for i in alignment.missing:
        details = {"position": i, "tool": gold.tools[i]}
        message = f"Expected call to {gold.tools[i]!r} was never made"
        out.items.append(Explanation("missing", message, "error", details))
    for j in alignment.extra:
        details = {"position": j, "tool": trace.tools[j]}
        message = f"Unexpected call to {trace.tools[j]!r} (actual call {j + 1})"
        out.items.append(Explanation("extra", message, "warning", details))
    missing_names = {gold.tools[i] for i in alignment.missing} - set(trace.tools)
    extra_names = {trace.tools[j] for j in alignment.extra} - set(gold.tools)
    for name in sorted(missing_names):
        scored = [(SequenceMatcher(None, name.lower(), x.lower()).ratio(), x) for x in extra_names]
        ratio, alike = max(scored, default=(0.0, ""))
        if ratio >= 0.6:
            out.tips.append(
                f"{name!r} and {alike!r} look alike: check the tool's name (names are case- "
                "and spelling-sensitive)."
            )
    return out


def explain_tool_correctness(tool_correctness_metrics: Mapping[str, Any]) -> MetricExplanation:
    """Expected tool names never called, names called but not expected."""
    m = tool_correctness_metrics
    out = MetricExplanation(
        "Tool Correctness",
        float(m.get("tool_correctness", 0.0)),
        f"{m.get('correct_count', 0)} of {m.get('total_expected', 0)} expected tools called",
    )
    for tool in m.get("missing_tools", []):
        message = f"Expected tool {tool!r} was never called"
        out.items.append(Explanation("missing", message, "error", {"tool": tool}))
    for tool in m.get("extra_tools", []):
        message = f"Tool {tool!r} was called but not expected"
        out.items.append(Explanation("extra", message, "warning", {"tool": tool}))
    if m.get("missing_tools"):
        out.tips.append(
            "Check that every expected tool is offered to the agent, by its exact name."
        )
    return out


def explain_argument_metrics(
    gold_calls: Calls, trace_calls: Calls, argument_metrics: Mapping[str, Any], strict: bool = False
) -> MetricExplanation:
    """Per aligned pair: missing, unexpected and differing arguments (type or value)."""
    gold, trace, alignment = _read(gold_calls, trace_calls, strict)
    precision = float(argument_metrics.get("precision", 0.0))
    recall = float(argument_metrics.get("recall", 0.0))
    out = MetricExplanation(
        "Argument F1",
        float(argument_metrics.get("f1", 0.0)),
        f"precision {format_percent(precision)}, recall {format_percent(recall)}",
    )
    for i, j in alignment.pairs:
        tool = gold.tools[i]
        for arg in argument_details(gold.args[i], trace.args[j], strict):
            where = {"tool": tool, "argument": arg.name, "expected_index": i, "actual_index": j}
            if arg.status == "missing":
                message = f"{tool!r}: argument {arg.name!r} was not passed"
                out.items.append(Explanation("missing", message, "error", where))
            elif arg.status == "unexpected":
                message = f"{tool!r}: unexpected argument {arg.name!r}"
                out.items.append(Explanation("extra", message, "warning", where))
            elif arg.status == "mismatch":
                same_kind = type(arg.expected) is type(arg.actual)
                message = (
                    f"{tool}.{arg.name}: {'value' if same_kind else 'type'} differs, expected "
                    f"{format_value(arg.expected, 50)}, got {format_value(arg.actual, 50)}"
                )
                where.update(expected=arg.expected, actual=arg.actual)
                severity = "warning" if same_kind else "error"
                out.items.append(Explanation("mismatch", message, severity, where))
    if precision < recall:
        out.tips.append(
            "Precision is lower: the agent passes arguments that are wrong or not expected."
        )
    elif recall < precision:
        out.tips.append("Recall is lower: the agent leaves out expected arguments or calls.")
    return out


def explain_sequence_metrics(
    gold_calls: Calls, trace_calls: Calls, sequence_metrics: Mapping[str, Any]
) -> MetricExplanation:
    """The two tool-name sequences side by side when they differ."""
    gold = read_calls(list(gold_calls), expected=True)
    trace = read_calls(list(trace_calls), expected=False)
    distance = sequence_metrics.get("edit_distance", 0)
    out = MetricExplanation(
        "Sequence Accuracy",
        float(sequence_metrics.get("sequence_accuracy", 0.0)),
        f"edit distance {int(distance)}",
    )
    if distance:
        out.items.append(Explanation("info", "Expected order: " + " -> ".join(gold.tools)))
        out.items.append(Explanation("info", "Actual order: " + " -> ".join(trace.tools)))
        diff = len(trace) - len(gold)
        if diff > 0:
            out.items.append(Explanation("extra", f"The agent made {diff} more call(s)", "warning"))
        elif diff < 0:
            out.items.append(
                Explanation("missing", f"The agent made {-diff} fewer call(s)", "error")
            )
        out.tips.append(
            "If the order does not matter here, lower its weight: weights={'sequence_accuracy': 0}."
        )
    return out


def explain_efficiency_metrics(efficiency_metrics: Mapping[str, Any]) -> MetricExplanation:
    """Redundant calls, failed calls and unchanged retries of failed calls."""
    m = efficiency_metrics
    redundant = int(m.get("redundant_count", 0))
    total = int(m.get("total_calls", 0))
    out = MetricExplanation(
        "Redundant Call Rate",
        1.0 - float(m.get("redundant_rate", 0.0)),
        f"{redundant} of {total} calls redundant",
    )
    if redundant:
        message = f"{redundant} call(s) beyond what was expected"
        out.items.append(Explanation("extra", message, "warning", {"redundant_count": redundant}))
    if errors := m.get("error_count"):
        message = f"{errors} call(s) failed"
        out.items.append(Explanation("info", message, "warning", {"error_count": errors}))
    if retries := m.get("retry_after_error_count"):
        message = f"{retries} failed call(s) were retried unchanged"
        out.items.append(Explanation("info", message, "warning"))
        out.tips.append(
            "Retrying a failed call with the same arguments rarely helps; "
            "let the agent read the error first."
        )
    return out


def generate_explanations(result: EvaluationResult) -> dict[str, MetricExplanation]:
    """Explanations for every metric of a result: ``selection_accuracy``,
    ``tool_correctness``, ``argument_metrics``, ``sequence_metrics``, ``efficiency_metrics``."""
    m = result.metrics
    gold, trace = result.gold_calls, result.trace_calls
    out = {"selection_accuracy": explain_selection_accuracy(gold, trace, result.selection_accuracy)}
    if m.get("tool_correctness_metrics"):
        out["tool_correctness"] = explain_tool_correctness(m["tool_correctness_metrics"])
    arguments = m.get("argument_metrics") or {
        "precision": result.argument_precision,
        "recall": result.argument_recall,
        "f1": result.argument_f1,
    }
    out["argument_metrics"] = explain_argument_metrics(gold, trace, arguments, result.strict)
    if m.get("sequence_metrics"):
        out["sequence_metrics"] = explain_sequence_metrics(gold, trace, m["sequence_metrics"])
    if m.get("efficiency_metrics"):
        out["efficiency_metrics"] = explain_efficiency_metrics(m["efficiency_metrics"])
    return out


def get_top_issues(
    explanations: Mapping[str, MetricExplanation], max_issues: int = 5
) -> list[Explanation]:
    """The most severe findings across all metrics (errors first), at most ``max_issues``."""
    items = [item for exp in explanations.values() for item in exp.items]
    items.sort(key=lambda item: _SEVERITY_ORDER.get(item.severity, len(_SEVERITY_ORDER)))
    return items[: max(0, max_issues)]


def get_all_tips(explanations: Mapping[str, MetricExplanation]) -> list[str]:
    """Every tip once, in the order the metrics gave them."""
    return list(dict.fromkeys(tip for exp in explanations.values() for tip in exp.tips))
