"""The statistics of judge calibration (``scorekit.stats._calibration``), against values worked out
by hand (each test's comment shows the arithmetic), and the rank formula of ROC AUC against
the count over every (positive, negative) pair."""

from __future__ import annotations

import itertools
import random

import pytest

from scorekit.stats._calibration import (
    balanced_accuracy,
    best_threshold,
    cohen_kappa,
    confusion,
    roc_auc,
    self_consistency,
    verdicts,
)

#: Labels 1 1 1 0 0 0; at 0.5 the verdicts are 1 1 0 1 0 0: TP 2, FN 1, FP 1, TN 2.
SCORES = [0.9, 0.7, 0.2, 0.6, 0.1, 0.4]
LABELS = [1, 1, 1, 0, 0, 0]


def test_verdicts_and_confusion() -> None:
    assert verdicts(SCORES, 0.5) == [1, 1, 0, 1, 0, 0]
    assert verdicts([0.5], 0.5) == [1]  # a score at the threshold is "supported"
    assert confusion(SCORES, LABELS, 0.5) == (2, 1, 2, 1)


def test_balanced_accuracy() -> None:
    # TPR 2/3, TNR 2/3.
    assert balanced_accuracy(SCORES, LABELS, 0.5) == pytest.approx(2 / 3)
    # TPR 2/3 (0.9, 0.7), TNR 1 (nothing negative reaches 0.7): 5/6.
    assert balanced_accuracy(SCORES, LABELS, 0.7) == pytest.approx(5 / 6)


def test_balanced_accuracy_is_blind_to_skew() -> None:
    # 8 of 10 labelled 1 and a judge that says "supported" to all: accuracy 0.8, TPR 1, TNR 0.
    scores = [0.9] * 10
    labels = [1] * 8 + [0] * 2
    assert balanced_accuracy(scores, labels, 0.5) == 0.5


def test_balanced_accuracy_with_one_class_is_its_recall() -> None:
    assert balanced_accuracy([0.9, 0.1, 0.8], [1, 1, 1], 0.5) == pytest.approx(2 / 3)
    assert balanced_accuracy([0.9, 0.1], [0, 0], 0.5) == 0.5


def test_best_threshold() -> None:
    # Candidates 0.1 0.2 0.4 0.6 0.7 0.9 give 1/2, 2/3, 1/2, 2/3, 5/6, 2/3.
    threshold, value = best_threshold(SCORES, LABELS)
    assert threshold == 0.7
    assert value == pytest.approx(5 / 6)


def test_best_threshold_ties_take_the_lowest() -> None:
    # Labels 1 0 0 1. Candidates 0.3 (all yes), 0.6 (TP 2, FP 1, TN 1), 0.8 (TP 1, FN 1, FP 1,
    # TN 1), 0.9 (TP 1, FN 1, TN 2) give 1/2, 3/4, 1/2, 3/4: the lower of the two best.
    assert best_threshold([0.9, 0.8, 0.3, 0.6], [1, 0, 0, 1]) == (0.6, 0.75)


def test_roc_auc_with_ties() -> None:
    # Positives 0.4 0.8 0.3, negatives 0.1 0.4 0.8. Pairs won (a tie counts 1/2):
    # 0.4: 1 + 1/2 + 0; 0.8: 1 + 1 + 1/2; 0.3: 1 + 0 + 0 -> 5 of 9.
    scores = [0.1, 0.4, 0.4, 0.8, 0.8, 0.3]
    labels = [0, 1, 0, 1, 0, 1]
    assert roc_auc(scores, labels) == pytest.approx(5 / 9)
    # Ranks: 0.1 -> 1, 0.3 -> 2, 0.4 -> 3.5 (twice), 0.8 -> 5.5 (twice); R1 = 3.5 + 5.5 + 2 = 11;
    # (11 - 3 * 4 / 2) / 9 = 5 / 9: the same by the rank formula.


def test_roc_auc_extremes() -> None:
    assert roc_auc([0.9, 0.8, 0.2, 0.1], [1, 1, 0, 0]) == 1.0
    assert roc_auc([0.9, 0.8, 0.2, 0.1], [0, 0, 1, 1]) == 0.0
    assert roc_auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1]) == 0.5  # every pair tied
    assert roc_auc([0.5, 0.7], [1, 1]) is None  # one class: undefined


def test_roc_auc_rank_formula_equals_the_pair_count() -> None:
    rng = random.Random(25)
    for _ in range(200):
        n = rng.randint(2, 30)
        # Scores from a few values, so ties are common.
        scores = [rng.choice([0.0, 0.25, 0.5, 0.75, 1.0, rng.random()]) for _ in range(n)]
        labels = [rng.randint(0, 1) for _ in range(n)]
        if len(set(labels)) < 2:
            continue
        pos = [s for s, y in zip(scores, labels, strict=True) if y]
        neg = [s for s, y in zip(scores, labels, strict=True) if not y]
        won = sum(1.0 if p > q else 0.5 if p == q else 0.0 for p, q in itertools.product(pos, neg))
        assert roc_auc(scores, labels) == pytest.approx(won / (len(pos) * len(neg)))


def test_cohen_kappa() -> None:
    # po 4/6; said yes 3/6, is yes 3/6: pe 1/2; kappa (2/3 - 1/2) / (1/2) = 1/3.
    assert cohen_kappa(SCORES, LABELS, 0.5) == pytest.approx(1 / 3)
    # TP 20, FP 5, FN 10, TN 15 of 50: po 0.7; said yes 0.5, is yes 0.6: pe 0.5; kappa 0.4.
    scores = [0.9] * 20 + [0.9] * 5 + [0.1] * 10 + [0.1] * 15
    labels = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    assert cohen_kappa(scores, labels, 0.5) == pytest.approx(0.4)
    # Every verdict wrong on a balanced set: po 0, pe 1/2, kappa -1.
    assert cohen_kappa([0.1, 0.9], [1, 0], 0.5) == pytest.approx(-1.0)


def test_cohen_kappa_undefined_when_chance_agreement_is_certain() -> None:
    assert cohen_kappa([0.9, 0.8], [1, 1], 0.5) is None
    # One class of labels, mixed verdicts: po = pe = share said yes, kappa 0.
    assert cohen_kappa([0.9, 0.1], [1, 1], 0.5) == 0.0


def test_self_consistency() -> None:
    # |diff| per item 0, 0.2, 0.1: mean 0.1; the second item flips at 0.5 (0.4 -> 0.6).
    c = self_consistency([[0.9, 0.9], [0.4, 0.6], [0.2, 0.3]], 0.5)
    assert (c.repeats, c.flips, c.items) == (2, 1, 3)
    assert c.mean_abs_diff == pytest.approx(0.1)
    assert c.flip_rate == pytest.approx(1 / 3)
    # Three repeats 1, 0, 1: pairs 1, 0, 1 -> 2/3; 1, 1, 1 -> 0; mean 1/3.
    c = self_consistency([[1.0, 0.0, 1.0], [1.0, 1.0, 1.0]], 0.5)
    assert c.mean_abs_diff == pytest.approx(1 / 3)
    assert (c.flips, c.flip_rate) == (1, 0.5)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: balanced_accuracy([0.1], [1, 0], 0.5), "1 scores but 2 labels"),
        (lambda: roc_auc([], []), "no items"),
        (lambda: cohen_kappa([0.1, 0.2], [1, 2], 0.5), "labels must be 0 or 1, got 2"),
        (lambda: self_consistency([[0.1]], 0.5), "same number of repeats"),
        (lambda: self_consistency([[0.1, 0.2], [0.3]], 0.5), "same number of repeats"),
    ],
    ids=["lengths", "empty", "label", "one-repeat", "ragged"],
)
def test_bad_input_raises(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()  # type: ignore[operator]
