"""Totals of a run: outcome counts per package and the judge's work (calls, cache, tokens, cost).

Also the per-row figures every format shows alike (run scores, spread, metric and bounds labels).

The judge counters travel as a plain dict (``JudgeStats.as_dict()``), optionally with two more
keys the writers understand: ``model`` (the judge model, for the cost estimate) and ``judge``
(its short name). pytest-xdist workers send such dicts and the controller adds them up here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekit.format._rounding import format_bound, format_score
from scorekit.report._prices import estimate_cost
from scorekit.report._rows import Row, TextScoreRow, ToolScoreRow

OUTCOMES = ("passed", "failed", "error")


@dataclass(frozen=True)
class JudgeTotals:
    """The judge's work in a run, ready to print.

    Attributes:
        tokens: prompt + completion tokens, or None when the judge reported no usage.
        cost_usd: estimated cost, or None when usage or the model's price is unknown.
    """

    calls: int
    cache_hits: int
    retries: int
    judge_seconds: float
    prompt_tokens: int
    completion_tokens: int
    model: str | None
    judge: str | None
    tokens: int | None
    cost_usd: float | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-serialisable dict (what the JSON report holds under ``judge``)."""
        return {
            "judge": self.judge,
            "model": self.model,
            "calls": self.calls,
            "cache_hits": self.cache_hits,
            "retries": self.retries,
            "judge_seconds": round(self.judge_seconds, 6),
            "prompt_tokens": self.prompt_tokens if self.tokens is not None else None,
            "completion_tokens": self.completion_tokens if self.tokens is not None else None,
            "estimated_cost_usd": self.cost_usd,
        }

    def line(self) -> str:
        """One line: ``judge local: 12 calls, 3 cache hits, 1.20 s judge time, ...``."""
        name = self.judge or "judge"
        if self.model:
            name = f"{name} ({self.model})"
        tokens = "n/a" if self.tokens is None else f"{self.tokens:,}"
        cost = "n/a" if self.cost_usd is None else f"~${self.cost_usd:.4f}"
        return (
            f"judge {name}: {plural(self.calls, 'call')}, "
            f"{plural(self.cache_hits, 'cache hit')}, "
            f"{self.judge_seconds:.2f} s judge time, tokens {tokens}, est. cost {cost}"
        )


def plural(n: int, word: str) -> str:
    """``1 call``, ``2 calls``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def score_text(value: float | None) -> str:
    """A score as every output shows it, ``-`` for none."""
    return "-" if value is None else format_score(value)


def score_or_dash(value: float | None) -> str:
    """A score as every output rounds it (``scorekit.format._rounding``), ``–`` for none."""
    return "–" if value is None else format_score(value)


def bound_or_dash(value: float | None) -> str:
    """A bound as given, ``–`` for none."""
    return "–" if value is None else format_bound(value)


def judge_totals(stats: Mapping[str, Any] | None) -> JudgeTotals | None:
    """Turn a stats dict into :class:`JudgeTotals` (None when there are no stats).

    Example:
        >>> t = judge_totals({"calls": 2, "prompt_tokens": 1000, "model": "gpt-4o"})
        >>> t.calls, t.tokens, t.cost_usd
        (2, 1000, 0.0025)
    """
    if stats is None:
        return None
    prompt = int(stats.get("prompt_tokens", 0) or 0)
    completion = int(stats.get("completion_tokens", 0) or 0)
    model = stats.get("model") or None
    has_usage = prompt > 0 or completion > 0
    return JudgeTotals(
        calls=int(stats.get("calls", 0) or 0),
        cache_hits=int(stats.get("cache_hits", 0) or 0),
        retries=int(stats.get("retries", 0) or 0),
        judge_seconds=float(stats.get("judge_seconds", 0.0) or 0.0),
        prompt_tokens=prompt,
        completion_tokens=completion,
        model=str(model) if model else None,
        judge=str(stats["judge"]) if stats.get("judge") else None,
        tokens=prompt + completion if has_usage else None,
        cost_usd=estimate_cost(model, prompt, completion),
    )


def outcome_counts(rows: Iterable[Row]) -> dict[str, int]:
    """``{"total", "passed", "failed", "error"}`` counts of some rows."""
    counts = Counter(row.outcome if row.outcome in OUTCOMES else "error" for row in rows)
    return {"total": sum(counts.values()), **{key: counts[key] for key in OUTCOMES}}


def split_rows(rows: Iterable[Row]) -> tuple[list[TextScoreRow], list[ToolScoreRow]]:
    """The text rows and the tool rows, each in recorded order."""
    rows = list(rows)
    texts = [row for row in rows if isinstance(row, TextScoreRow)]
    return texts, [row for row in rows if not isinstance(row, TextScoreRow)]


def run_scores(row: TextScoreRow) -> list[float]:
    """The per-run scores of an aggregated row, for its metric (runs without one skipped)."""
    values = (getattr(run, row.metric, None) for run in row.runs)
    return [float(v) for v in values if isinstance(v, (int, float))]


def run_spread(row: TextScoreRow) -> float | None:
    """The spread of an aggregated row's run scores (None for a single-run assertion)."""
    return spread(run_scores(row)) if row.aggregation else None


def metric_label(row: TextScoreRow) -> str:
    """``f1``, or ``f1 mean`` for an aggregated assertion."""
    return f"{row.metric} {row.aggregation}" if row.aggregation else row.metric


def bounds_label(row: TextScoreRow) -> str:
    """The bounds a score had to fall in, as given: ``[0.8, 1.0]``."""
    return f"[{format_bound(row.low)}, {format_bound(row.high)}]"


def spread(values: list[float]) -> float | None:
    """Population standard deviation (None for fewer than two values)."""
    if len(values) < 2:
        return None
    mean = sum(values) / len(values)
    return float((sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5)


def row_findings(row: ToolScoreRow) -> list[tuple[str, str]]:
    """``(severity, message)`` findings a tool row carries in ``details["findings"]``
    (``{"severity": "error" | "warning", "message": ...}`` each), errors first."""
    raw = row.details.get("findings") if isinstance(row.details, Mapping) else None
    out: list[tuple[str, str]] = []
    for item in raw if isinstance(raw, list) else []:
        if isinstance(item, Mapping) and item.get("message"):
            severity = "error" if item.get("severity") == "error" else "warning"
            out.append((severity, str(item["message"])))
    out.sort(key=lambda pair: pair[0] != "error")
    return out
