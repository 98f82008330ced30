"""How well a judge's scores separate labelled items: the statistics of ``texts-score calibrate``.

Plain Python, no third-party packages. An item's *verdict* at a threshold ``t`` is "supported"
when its score is ``>= t``; its label says what it should be (1 supported, 0 not).

* :func:`balanced_accuracy` - the mean of the recalls of the classes present (with both
  classes: ``(TPR + TNR) / 2``), so a judge that says "supported" to everything scores 0.5
  however skewed the labels are.
* :func:`best_threshold` - the threshold, among the scores themselves, with the highest
  balanced accuracy (ties: the lowest such threshold).
* :func:`roc_auc` - the area under the ROC curve by the rank (Mann-Whitney U) formula: the
  chance that a random positive item scores above a random negative one, a tie counting 1/2.
* :func:`cohen_kappa` - agreement of verdicts and labels beyond the agreement chance gives.
* :func:`self_consistency` - over repeated scorings of the same items: the mean absolute
  difference between two repeats' scores, and the share of items whose verdict flips.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "Consistency",
    "balanced_accuracy",
    "best_threshold",
    "cohen_kappa",
    "confusion",
    "roc_auc",
    "self_consistency",
    "verdicts",
]


def _check(scores: Sequence[float], labels: Sequence[int]) -> None:
    if len(scores) != len(labels):
        raise ValueError(f"{len(scores)} scores but {len(labels)} labels")
    if not scores:
        raise ValueError("no items")
    bad = [label for label in labels if label not in (0, 1)]
    if bad:
        raise ValueError(f"labels must be 0 or 1, got {bad[0]!r}")


def verdicts(scores: Sequence[float], threshold: float) -> list[int]:
    """1 for each score at or above ``threshold``, else 0.

    Example:
        >>> verdicts([0.2, 0.5, 0.9], 0.5)
        [0, 1, 1]
    """
    return [1 if s >= threshold else 0 for s in scores]


def confusion(
    scores: Sequence[float], labels: Sequence[int], threshold: float
) -> tuple[int, int, int, int]:
    """``(tp, fp, tn, fn)`` of the verdicts at ``threshold`` against the labels.

    Example:
        >>> confusion([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1], 0.5)
        (2, 1, 1, 0)
    """
    _check(scores, labels)
    pairs = list(zip(verdicts(scores, threshold), labels, strict=True))
    return pairs.count((1, 1)), pairs.count((1, 0)), pairs.count((0, 0)), pairs.count((0, 1))


def balanced_accuracy(scores: Sequence[float], labels: Sequence[int], threshold: float) -> float:
    """The mean recall of the classes the labels hold, for the verdicts at ``threshold``.

    Example:
        >>> balanced_accuracy([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1], 0.5)  # (2/2 + 1/2) / 2
        0.75
        >>> balanced_accuracy([0.9, 0.2], [1, 1], 0.5)  # one class: its recall
        0.5
    """
    tp, fp, tn, fn = confusion(scores, labels, threshold)
    recalls = [hit / (hit + miss) for hit, miss in ((tp, fn), (tn, fp)) if hit + miss]
    return sum(recalls) / len(recalls)


def best_threshold(scores: Sequence[float], labels: Sequence[int]) -> tuple[float, float]:
    """``(threshold, balanced accuracy)`` at the threshold that separates best.

    The candidates are the distinct scores (each item's verdict flips at its own score); the
    lowest of the equally good ones wins. The figure is measured on the items it was chosen
    on, so it is optimistic: a fixed threshold (:func:`balanced_accuracy`) is the fair one.

    Example:
        >>> best_threshold([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1])  # 0.6 and 0.9 both give 0.75
        (0.6, 0.75)
        >>> best_threshold([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])
        (0.35, 0.75)
    """
    _check(scores, labels)
    candidates = ((t, balanced_accuracy(scores, labels, t)) for t in sorted(set(scores)))
    return max(candidates, key=lambda pair: pair[1])  # the first, lowest, of equal ones


def _ranks(values: Sequence[float]) -> list[float]:
    """1-based ranks, ties given the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    below = 0  # values ranked so far
    for _, group in itertools.groupby(order, key=lambda i: values[i]):
        tied = list(group)
        for k in tied:
            ranks[k] = below + (len(tied) + 1) / 2
        below += len(tied)
    return ranks


def roc_auc(scores: Sequence[float], labels: Sequence[int]) -> float | None:
    """The area under the ROC curve: ``(R1 - n1 (n1 + 1) / 2) / (n1 n0)``, ``R1`` the sum of
    the positives' ranks (ties share their mean rank). None without both classes.

    Example:
        >>> roc_auc([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1])  # 3 of the 4 pairs in order
        0.75
        >>> roc_auc([0.5, 0.5, 0.1], [1, 0, 0])  # one tied pair: 1/2
        0.75
        >>> roc_auc([0.5, 0.7], [1, 1]) is None
        True
    """
    _check(scores, labels)
    n1 = sum(labels)
    n0 = len(labels) - n1
    if n1 == 0 or n0 == 0:
        return None
    ranks = _ranks(scores)
    r1 = sum(r for r, label in zip(ranks, labels, strict=True) if label)
    return (r1 - n1 * (n1 + 1) / 2) / (n1 * n0)


def cohen_kappa(scores: Sequence[float], labels: Sequence[int], threshold: float) -> float | None:
    """Cohen's kappa of the verdicts at ``threshold`` and the labels: ``(po - pe) / (1 - pe)``,
    ``po`` the share of agreement, ``pe`` the agreement expected by chance from each side's
    share of 1s. None when ``pe`` is 1 (both sides hold one and the same class only).

    Example:
        >>> cohen_kappa([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1], 0.5)  # po 3/4, pe 1/2
        0.5
        >>> cohen_kappa([0.9, 0.1], [1, 0], 0.5)
        1.0
    """
    tp, fp, tn, fn = confusion(scores, labels, threshold)
    n = tp + fp + tn + fn
    po = (tp + tn) / n
    said_yes, is_yes = (tp + fp) / n, (tp + fn) / n
    pe = said_yes * is_yes + (1 - said_yes) * (1 - is_yes)
    if pe >= 1.0:
        return None
    return (po - pe) / (1 - pe)


@dataclass(frozen=True)
class Consistency:
    """How much repeated scorings of the same items agree.

    Attributes:
        repeats: scorings per item.
        mean_abs_diff: the mean over items of the mean ``|a - b|`` over the pairs of repeats.
        flips: items whose repeats do not all give the same verdict at the threshold.
        items: items measured.
    """

    repeats: int
    mean_abs_diff: float
    flips: int
    items: int

    @property
    def flip_rate(self) -> float:
        """The share of items whose verdict flips between repeats."""
        return self.flips / self.items if self.items else 0.0


def self_consistency(runs: Sequence[Sequence[float]], threshold: float) -> Consistency:
    """The self-consistency of ``runs`` (one list of repeat scores per item, each with the
    same number of repeats, at least two).

    Example:
        >>> c = self_consistency([[0.9, 0.9], [0.4, 0.6], [1.0, 0.0, 1.0]], 0.5)
        Traceback (most recent call last):
        ValueError: every item needs the same number of repeats (2 or more)
        >>> c = self_consistency([[0.9, 0.9], [0.4, 0.6], [0.2, 0.3]], 0.5)
        >>> round(c.mean_abs_diff, 4), c.flips, round(c.flip_rate, 4)
        (0.1, 1, 0.3333)
    """
    if not runs:
        raise ValueError("no items")
    repeats = len(runs[0])
    if repeats < 2 or any(len(r) != repeats for r in runs):
        raise ValueError("every item needs the same number of repeats (2 or more)")
    diffs = []
    flips = 0
    for scores in runs:
        pairs = list(itertools.combinations(scores, 2))
        diffs.append(sum(abs(a - b) for a, b in pairs) / len(pairs))
        if len(set(verdicts(scores, threshold))) > 1:
            flips += 1
    return Consistency(repeats, sum(diffs) / len(diffs), flips, len(runs))
