"""Judge calibration: score labelled text pairs on a judge and measure how well its scores
separate the supported from the unsupported (``texts-score calibrate``).

A labelled file is JSON lines, one item per line::

    {"id": "geo-1", "expected": "...", "given": "...", "label": 1, "domain": "geography"}

``label`` is 1 when ``given`` is supported by ``expected``, 0 when it is not; ``domain``
(optional) groups the figures; ``metric`` (optional) is the score the item is judged on:
``precision`` (the default: is what ``given`` says backed by ``expected``?), ``recall`` or
``f1``.

Every item is scored at once on the judge (its ``max_concurrency`` bounds the calls in flight),
as ``eval-dataset`` scores a batch. With ``repeats`` > 1 each item is scored that many times
(as that many question runs, each with its own judge calls and cache entries); its score is the
mean of the repeats, and the repeats give the judge's self-consistency. The statistics are in
:mod:`scorekit.stats._calibration`.

The labelled file is read and checked by ``_labelled``; the command is ``_cli/calibrate``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_texts_score._labelled import NO_DOMAIN, LabelledItem
from scorekit.stats import (
    balanced_accuracy,
    best_threshold,
    cohen_kappa,
    confusion,
    roc_auc,
    self_consistency,
)

__all__ = [
    "SCHEMA",
    "ScoredItem",
    "calibration_document",
    "score_items",
]

SCHEMA = "llm-scorekit-calibration/1"


@dataclass(frozen=True)
class ScoredItem:
    """A labelled item and the judge's scores of it (one per repeat; ``score`` their mean)."""

    item: LabelledItem
    runs: tuple[float, ...]

    @property
    def score(self) -> float:
        """The mean of the repeats' scores."""
        return sum(self.runs) / len(self.runs)


async def _score_one(judge: Any, item: LabelledItem, repeats: int) -> ScoredItem:
    from pytest_texts_score._pipeline import aevaluate_texts
    from scorekit.judges import JudgeConfigError, JudgeError

    try:
        outcome = await aevaluate_texts(
            item.expected, item.given, judge=judge, metric=item.metric, question_runs=repeats
        )
    except JudgeConfigError:
        raise
    except JudgeError as exc:
        # Which item it was, for the one line the command prints.
        raise JudgeError(
            f"item {item.id!r} (line {item.line}): {exc}", transient=exc.transient
        ) from exc
    runs = tuple(float(getattr(run, item.metric)) for run in outcome.runs)
    return ScoredItem(item, runs)


def score_items(
    items: Sequence[LabelledItem], *, session: Any, repeats: int = 1
) -> list[ScoredItem]:
    """Score every item on the session's judge, all at once (the judge's limit bounds the
    calls in flight), ``repeats`` times each.

    Raises:
        scorekit.judges.JudgeError: the judge failed on an item (the message names it); the
            other items' calls are cancelled.
    """
    from pytest_texts_score._pipeline import _all, judge_of
    from scorekit.judges import run_sync

    judge = judge_of(session)
    return run_sync(_all([_score_one(judge, item, repeats) for item in items])) if items else []


def _figures(scored: Sequence[ScoredItem], threshold: float) -> dict[str, Any]:
    scores = [s.score for s in scored]
    labels = [s.item.label for s in scored]
    tp, fp, tn, fn = confusion(scores, labels, threshold)
    both = 0 < sum(labels) < len(labels)
    best = best_threshold(scores, labels) if both else None
    out: dict[str, Any] = {
        "items": len(scored),
        "supported": sum(labels),
        "unsupported": len(labels) - sum(labels),
        "balanced_accuracy": balanced_accuracy(scores, labels, threshold),
        "best_threshold": best[0] if best else None,
        "balanced_accuracy_at_best": best[1] if best else None,
        "roc_auc": roc_auc(scores, labels),
        "kappa": cohen_kappa(scores, labels, threshold),
        "confusion": {"tp": tp, "fp": fp, "tn": tn, "fn": fn},
    }
    if len(scored[0].runs) > 1:
        c = self_consistency([s.runs for s in scored], threshold)
        out["consistency"] = {
            "repeats": c.repeats,
            "mean_abs_diff": c.mean_abs_diff,
            "flips": c.flips,
            "flip_rate": c.flip_rate,
        }
    return out


def calibration_document(
    scored: Sequence[ScoredItem],
    *,
    source: str,
    threshold: float,
    repeats: int,
    judge: Mapping[str, Any] | None,
    gates: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The calibration's result as one plain document (what ``--report json`` writes).

    Schema ``llm-scorekit-calibration/1``: ``source``, ``threshold``, ``repeats``, ``metrics``
    (items per metric), ``overall`` and ``domains`` (name -> the same figures: ``items``,
    ``supported``, ``unsupported``, ``balanced_accuracy`` at ``threshold``, ``best_threshold``,
    ``balanced_accuracy_at_best``, ``roc_auc``, ``kappa`` at ``threshold``, ``confusion``,
    and with repeats ``consistency``: ``repeats``, ``mean_abs_diff``, ``flips``,
    ``flip_rate``), ``judge`` (calls, cache hits, tokens, estimated cost), ``gates`` and
    ``items`` (``id``, ``domain``, ``metric``, ``label``, ``score``, ``runs``, ``verdict``,
    ``agrees``). A figure that needs both classes is null in a domain with one class only.
    ``domains`` is empty when no item names a domain; items without one are then under
    ``"(no domain)"``.
    """
    from scorekit.report import created_stamp, finite

    domains: dict[str, list[ScoredItem]] = {}
    for s in scored:
        domains.setdefault(s.item.domain, []).append(s)
    named = any(name != NO_DOMAIN for name in domains)
    metrics = dict(Counter(s.item.metric for s in scored))
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "created": created_stamp(),
        "source": source,
        "threshold": threshold,
        "repeats": repeats,
        "metrics": metrics,
        "overall": _figures(scored, threshold),
        "domains": (
            {
                name or "(no domain)": _figures(group, threshold)
                for name, group in sorted(domains.items())
            }
            if named
            else {}
        ),
        "judge": dict(judge) if judge is not None else None,
        "gates": [dict(g) for g in gates],
        "items": [
            {
                "id": s.item.id,
                "line": s.item.line,
                "domain": s.item.domain or None,
                "metric": s.item.metric,
                "label": s.item.label,
                "score": s.score,
                "runs": list(s.runs),
                "verdict": 1 if s.score >= threshold else 0,
                "agrees": (1 if s.score >= threshold else 0) == s.item.label,
            }
            for s in scored
        ],
    }
    result: dict[str, Any] = finite(doc)
    return result


#: Keys of the document whose numbers are scores (rounded in what the command writes).
_SCORE_KEYS = frozenset(
    {
        "balanced_accuracy",
        "balanced_accuracy_at_best",
        "best_threshold",
        "roc_auc",
        "kappa",
        "mean_abs_diff",
        "flip_rate",
        "score",
        "runs",
        "value",
        "by",
    }
)


def rounded_document(value: Any, key: str | None = None) -> Any:
    """A copy of the document with its scores rounded as every output rounds them.

    Example:
        >>> rounded_document({"overall": {"roc_auc": 2 / 3, "items": 3}, "runs": [1 / 3]})
        {'overall': {'roc_auc': 0.6667, 'items': 3}, 'runs': [0.3333]}
    """
    from scorekit.format import round_score

    if isinstance(value, dict):
        return {k: rounded_document(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded_document(v, key) for v in value]
    if key in _SCORE_KEYS and isinstance(value, float):
        return round_score(value)
    return value


def check_gates(
    doc: Mapping[str, Any],
    *,
    min_balanced_accuracy: float | None,
    max_flip_rate: float | None,
) -> list[dict[str, Any]]:
    """The gates asked for and whether the calibration met each.

    Example:
        >>> doc = {"threshold": 0.5, "overall": {"balanced_accuracy": 0.75}}
        >>> [g["met"] for g in check_gates(doc, min_balanced_accuracy=0.8, max_flip_rate=None)]
        [False]
    """
    overall = doc["overall"]
    asked = (
        ("--min-balanced-accuracy", "balanced_accuracy", min_balanced_accuracy, True),
        ("--max-flip-rate", "flip_rate", max_flip_rate, False),
    )
    gates: list[dict[str, Any]] = []
    for option, figure, bound, is_min in asked:
        if bound is None:
            continue
        value = float(overall[figure] if is_min else overall["consistency"][figure])
        by = bound - value if is_min else value - bound
        gates.append(
            {
                "option": option,
                "figure": figure,
                "bound": bound,
                "value": value,
                "met": value >= bound if is_min else value <= bound,
                "by": by,
            }
        )
    return gates
