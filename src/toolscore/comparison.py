"""Compare several models (or prompts, or agent versions) scored against one gold file.

:func:`compare_models` returns Toolscore 1.10's comparison document (``models``, ``metrics``,
``rankings``, ``best_model``, ``summary``), with our composite ``score`` added to the metrics.
The best model is the one with the highest ``score`` (the number ``toolscore compare`` ranks
by); ties go to the higher average of the other metrics, then to the name.

Example:
    >>> from toolscore import evaluate
    >>> gold = [{"tool": "search", "args": {"q": "x"}}]
    >>> results = {"a": evaluate(gold, [{"tool": "search", "args": {"q": "x"}}]),
    ...            "b": evaluate(gold, [{"tool": "lookup", "args": {"q": "x"}}])}
    >>> compare_models(results)["best_model"]["name"]
    'a'
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scorekit.files import write_text_atomic
from scorekit.format import align_columns, format_score
from toolscore.baseline import metric_values

if TYPE_CHECKING:
    from toolscore._engine.score.result import EvaluationResult

__all__ = [
    "COMPARED_METRICS",
    "compare_models",
    "print_comparison_table",
    "render_comparison_table",
    "save_comparison_report",
]

_LABELS = {
    "score": "Score",
    "invocation_accuracy": "Invocation Acc",
    "selection_accuracy": "Selection Acc",
    "tool_correctness": "Tool Correctness",
    "sequence_accuracy": "Sequence Acc",
    "argument_f1": "Argument F1",
    "redundant_rate": "Redundant Rate",
}

COMPARED_METRICS = tuple(_LABELS)
"""The metrics compared, by Toolscore's names (``score`` is ours)."""


def compare_models(model_results: dict[str, EvaluationResult]) -> dict[str, Any]:
    """Side-by-side metrics, per-metric rankings and the best model.

    Args:
        model_results: model name -> its evaluation against the shared gold file.

    Returns:
        ``{}`` for no models; else ``models`` (names in the given order), ``metrics``
        (metric -> model -> value), ``rankings`` (metric -> names best first; lower
        ``redundant_rate`` is better), ``best_model`` (``name``, ``score``,
        ``average_score``: the mean of the Toolscore metrics, redundancy inverted) and
        ``summary`` (``total_models``, ``average_scores``).
    """
    if not model_results:
        return {}
    models = list(model_results)
    values = {name: metric_values(result) for name, result in model_results.items()}
    metrics = {m: {name: values[name].get(m, 0.0) for name in models} for m in COMPARED_METRICS}
    # Best first, ties in the given order; lower redundancy is better.
    rankings = {
        m: sorted(models, key=metrics[m].__getitem__, reverse=m != "redundant_rate")
        for m in COMPARED_METRICS
    }
    averages = {}
    for name in models:
        parts = [
            1.0 - metrics[m][name] if m == "redundant_rate" else metrics[m][name]
            for m in COMPARED_METRICS
            if m != "score"
        ]
        averages[name] = sum(parts) / len(parts)
    best = min(models, key=lambda n: (-metrics["score"][n], -averages[n], n))
    return {
        "models": models,
        "metrics": metrics,
        "rankings": rankings,
        "best_model": {
            "name": best,
            "score": metrics["score"][best],
            "average_score": averages[best],
        },
        "summary": {"total_models": len(models), "average_scores": averages},
    }


def render_comparison_table(comparison: dict[str, Any]) -> str:
    """The comparison as a plain-text table: one row per metric, one column per model."""
    models = comparison.get("models") or []
    if not models:
        return "No models to compare."
    rows = [["metric", *models, "best"]]
    for metric, label in _LABELS.items():
        values = comparison["metrics"].get(metric)
        if values is None:
            continue
        rows.append(
            [label, *(format_score(values[m]) for m in models), comparison["rankings"][metric][0]]
        )
    lines = align_columns(rows, right=set(range(1, len(rows[0]) - 1)))
    best = comparison["best_model"]
    lines.append(
        f"Best: {best['name']} (score {format_score(best['score'])}, "
        f"average of the metrics {format_score(best['average_score'])})"
    )
    return "\n".join(lines)


def print_comparison_table(comparison: dict[str, Any], console: Any | None = None) -> None:
    """Print :func:`render_comparison_table` to ``console`` (a ``rich`` Console) or stdout."""
    text = render_comparison_table(comparison)
    if console is None:
        sys.stdout.write(text + "\n")
    else:
        console.print(text, markup=False, highlight=False)


def save_comparison_report(comparison: dict[str, Any], output_file: str | Path) -> Path:
    """Write the comparison document as JSON (folders created as needed); returns the path."""
    path = Path(output_file)
    write_text_atomic(path, json.dumps(comparison, indent=2) + "\n")
    return path
