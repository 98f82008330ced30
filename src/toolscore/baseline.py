"""Baselines: save an evaluation's metrics, then catch regressions against them.

``toolscore eval gold.json trace.json --save-baseline baseline.json`` saves one; ``toolscore
regression baseline.json new_trace.json -g gold.json`` compares a new trace against it and
exits 1 when a metric got worse by more than the threshold (absolute, on the 0-1 scale: 0.05
is five percentage points).

The file format is Toolscore 1.10's (``version``, ``created_at``, ``gold_file_hash``,
``metrics``, ``metadata``), so baselines saved by either tool are read by both. Ours adds the
composite ``score``, ``tool_f1`` and ``required_call_recall`` to ``metrics``, and tells you
when the gold file changed since the baseline was saved.

Example:
    >>> import tempfile, os
    >>> from toolscore import evaluate
    >>> before = evaluate([{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 1}}])
    >>> path = save_baseline(before, os.path.join(tempfile.mkdtemp(), "baseline.json"))
    >>> after = evaluate([{"tool": "a", "args": {"x": 1}}], [{"tool": "a", "args": {"x": 2}}])
    >>> comparison = compare_to_baseline(after, load_baseline(path))
    >>> comparison.passed, comparison.regressions[0].metric_name
    (False, 'argument_f1')
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekit.files import write_text_atomic
from scorekit.format import SCORE_DECIMALS, align_columns, format_score
from scorekit.report import created_stamp, finite

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "Baseline",
    "ComparisonResult",
    "RegressionItem",
    "compare_to_baseline",
    "load_baseline",
    "metric_values",
    "print_comparison_result",
    "render_comparison",
    "save_baseline",
]

LOWER_IS_BETTER = frozenset({"redundant_rate"})
"""Metrics where a rise is the regression."""

_EPSILON = 1e-9  # float noise in a difference is not a change


def _file_hash(path: str | Path | None) -> str:
    # MD5 as in Toolscore's files: a change detector, not a security measure.
    if not path or not Path(path).is_file():
        return ""
    return hashlib.md5(Path(path).read_bytes(), usedforsecurity=False).hexdigest()


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


@dataclass
class RegressionItem:
    """One metric of a comparison: baseline and current value, and what the change means.

    ``status`` is ``"regression"``, ``"improvement"``, ``"stable"`` or ``"unavailable"``
    (the current evaluation did not measure it; never a failure).
    """

    metric_name: str
    baseline_value: float
    current_value: float
    delta: float
    delta_percent: float
    threshold: float
    status: str


@dataclass
class ComparisonResult:
    """A new evaluation against a baseline. ``passed`` is False when any metric regressed."""

    passed: bool
    threshold: float
    baseline_timestamp: str
    comparison_timestamp: str
    items: list[RegressionItem] = field(default_factory=list)
    summary: str = ""
    gold_changed: bool = False

    @property
    def regressions(self) -> list[RegressionItem]:
        """The metrics that got worse by more than the threshold."""
        return [i for i in self.items if i.status == "regression"]

    @property
    def improvements(self) -> list[RegressionItem]:
        """The metrics that got better by more than the threshold."""
        return [i for i in self.items if i.status == "improvement"]

    @property
    def stable(self) -> list[RegressionItem]:
        """The metrics that moved by no more than the threshold."""
        return [i for i in self.items if i.status == "stable"]

    def to_dict(self) -> dict[str, Any]:
        """Plain data (the JSON ``toolscore regression -o`` writes)."""
        return {
            "passed": self.passed,
            "threshold": self.threshold,
            "baseline_timestamp": self.baseline_timestamp,
            "comparison_timestamp": self.comparison_timestamp,
            "summary": self.summary,
            "gold_changed": self.gold_changed,
            # JSON has no NaN: a metric the new evaluation did not measure reads null.
            "items": [finite(vars(i)) for i in self.items],
            "regression_count": len(self.regressions),
            "improvement_count": len(self.improvements),
        }


def metric_values(result: EvaluationResult) -> dict[str, float]:
    """The metrics a baseline keeps, by Toolscore's names (plus ``score``, ``tool_f1``,
    ``required_call_recall`` when measured)."""
    m = result.metrics
    values: dict[str, Any] = {
        "score": result.score,
        "invocation_accuracy": m.get("invocation_accuracy"),
        "selection_accuracy": result.selection_accuracy,
        "tool_correctness": (m.get("tool_correctness_metrics") or {}).get("tool_correctness"),
        "tool_f1": result.tool_f1,
        "sequence_accuracy": result.sequence_accuracy,
        "argument_f1": result.argument_f1,
        "argument_precision": result.argument_precision,
        "argument_recall": result.argument_recall,
        "redundant_rate": result.redundant_rate,
        "required_call_recall": result.required_call_recall,
        "semantic_score": (m.get("semantic_metrics") or {}).get("semantic_score"),
    }
    return {name: float(v) for name, v in values.items() if _finite(v)}


@dataclass
class Baseline:
    """A saved set of metrics to compare later evaluations against."""

    version: str
    created_at: str
    gold_file_hash: str
    metrics: dict[str, float]
    metadata: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_result(cls, result: EvaluationResult, gold_file: str | Path | None = None) -> Baseline:
        """The baseline of ``result`` (``gold_file``: hashed, to notice later changes)."""
        from toolscore import __version__

        return cls(
            version=__version__,
            created_at=created_stamp(),
            gold_file_hash=_file_hash(gold_file),
            metrics=metric_values(result),
            metadata={
                "gold_calls_count": len(result.gold_calls),
                "trace_calls_count": len(result.trace_calls),
            },
        )

    def to_dict(self) -> dict[str, Any]:
        """Plain data, as saved."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Baseline:
        """Read :meth:`to_dict`'s form; metrics that are not numbers are left out."""
        metrics = data.get("metrics") or {}
        return cls(
            version=str(data.get("version", "unknown")),
            created_at=str(data.get("created_at", "")),
            gold_file_hash=str(data.get("gold_file_hash", "")),
            metrics={str(k): float(v) for k, v in metrics.items() if _finite(v)},
            metadata=dict(data.get("metadata") or {}),
        )


def save_baseline(
    result: EvaluationResult, output_path: str | Path, gold_file: str | Path | None = None
) -> Path:
    """Save the metrics of ``result`` as a baseline file (folders created; written atomically).

    Returns:
        The file's path.
    """
    path = Path(output_path)
    baseline = Baseline.from_result(result, gold_file)
    write_text_atomic(path, json.dumps(baseline.to_dict(), indent=2) + "\n")
    return path


def load_baseline(path: str | Path) -> Baseline:
    """Read a baseline file (ours or Toolscore 1.10's).

    Raises:
        FileNotFoundError: the file does not exist.
        ValueError: it is not JSON, or not a baseline (no ``metrics``).
    """
    file = Path(path)
    if not file.is_file():
        raise FileNotFoundError(f"Baseline file not found: {path}")
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"Invalid baseline file format: {path} is not JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("metrics"), dict):
        raise ValueError(
            f"Invalid baseline file format: {path} has no 'metrics' object "
            "(save one with toolscore eval GOLD TRACE --save-baseline PATH)"
        )
    return Baseline.from_dict(data)


def _status(name: str, delta: float, threshold: float) -> str:
    worse = delta > 0 if name in LOWER_IS_BETTER else delta < 0
    if abs(delta) <= threshold + _EPSILON:
        return "stable"
    return "regression" if worse else "improvement"


def compare_to_baseline(
    result: EvaluationResult,
    baseline: Baseline,
    threshold: float = 0.05,
    gold_file: str | Path | None = None,
) -> ComparisonResult:
    """Compare ``result`` with ``baseline``, metric by metric.

    Args:
        result: the new evaluation.
        baseline: the saved one.
        threshold: the largest allowed worsening of a metric, absolute on the 0-1 scale.
        gold_file: when given and the baseline holds a hash, a changed gold file is reported
            (``gold_changed``, a warning, a note in the summary).

    Raises:
        ValueError: ``threshold`` is not a number between 0.0 and 1.0.
    """
    if not _finite(threshold) or not 0.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be between 0.0 and 1.0, got {threshold!r}")
    current = metric_values(result)
    items: list[RegressionItem] = []
    for name, before in baseline.metrics.items():
        now = current.get(name)
        if now is None:
            items.append(RegressionItem(name, before, math.nan, 0.0, 0.0, threshold, "unavailable"))
            continue
        delta = now - before
        percent = (
            delta / before * 100 if before else (0.0 if delta == 0 else math.copysign(100, delta))
        )
        status = _status(name, delta, threshold)
        items.append(RegressionItem(name, before, now, delta, percent, threshold, status))
    items.sort(key=lambda i: (i.status != "regression", -abs(i.delta)))
    changed = bool(gold_file and baseline.gold_file_hash) and (
        _file_hash(gold_file) != baseline.gold_file_hash
    )
    if changed:
        warnings.warn(
            f"{gold_file} changed since the baseline was saved; the comparison may mix old and "
            "new expectations",
            UserWarning,
            stacklevel=2,
        )
    regressions = sum(1 for i in items if i.status == "regression")
    improvements = sum(1 for i in items if i.status == "improvement")
    if regressions:
        summary = f"FAIL: {regressions} regression(s) detected (threshold: {threshold:.0%})"
    elif improvements:
        summary = f"PASS: No regressions, {improvements} improvement(s) detected"
    else:
        summary = f"PASS: No significant changes (threshold: {threshold:.0%})"
    if changed:
        summary += "; the gold file changed since the baseline was saved"
    return ComparisonResult(
        passed=regressions == 0,
        threshold=threshold,
        baseline_timestamp=baseline.created_at,
        comparison_timestamp=created_stamp(),
        items=items,
        summary=summary,
        gold_changed=changed,
    )


def render_comparison(comparison: ComparisonResult) -> str:
    """The comparison as a plain-text table with the summary line."""
    rows = [["metric", "baseline", "current", "change", "status"]]
    for item in comparison.items:
        row = [item.metric_name, format_score(item.baseline_value)]
        if item.status == "unavailable":
            rows.append([*row, "-", "-", "not measured"])
        else:
            status = {"regression": "REGRESSION", "improvement": "improved"}.get(item.status, "ok")
            change = f"{item.delta:+.{SCORE_DECIMALS}f}"
            rows.append([*row, format_score(item.current_value), change, status])
    footer = [f"Baseline from {comparison.baseline_timestamp or 'an unknown time'}."]
    return "\n".join(align_columns(rows, right={1, 2, 3}) + footer + [comparison.summary])


def print_comparison_result(comparison: ComparisonResult, console: Any | None = None) -> None:
    """Print :func:`render_comparison` to ``console`` (a ``rich`` Console) or stdout."""
    text = render_comparison(comparison)
    if console is None:
        sys.stdout.write(text + "\n")
    else:
        console.print(text, markup=False, highlight=False)
