"""The local judge against the hand-written pairs of ``tests/data/text_pairs.jsonl``.

A copy of ``shared/data/text_pairs.jsonl`` (48 pairs, written for this project), so the test
runs in a clone without ``shared/`` beside it. The scores are deterministic, so a change to
statement extraction or support scoring that breaks an ordering fails here. The bands are
issue 4's; ``benchmarks/bench_local_judge.py`` prints the same figures with the per-category
errors. The pairs are never used to fit the judge's weights.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from statistics import mean

import pytest

from pytest_texts_score._pipeline import evaluate_texts
from scorekit.judges import resolve_settings
from scorekit.local import LocalBackend
from scorekit.session import ScoreSession

PAIRS = Path(__file__).resolve().parents[1] / "data" / "text_pairs.jsonl"

Scores = dict[str, list[tuple[float, float, float, dict[str, float]]]]


@pytest.fixture(scope="module")
def scores() -> Scores:
    session = ScoreSession(
        resolve_settings(overrides={"cache": "off"}, env={}), backend=LocalBackend()
    )
    by_category: Scores = defaultdict(list)
    try:
        for line in PAIRS.read_text(encoding="utf-8").splitlines():
            pair = json.loads(line)
            out = evaluate_texts(pair["expected"], pair["given"], session=session)
            assert out.precision is not None and out.recall is not None and out.f1 is not None
            by_category[pair["category"]].append((out.precision, out.recall, out.f1, pair))
    finally:
        session.close()
    return by_category


def _f1(scores: Scores, cat: str) -> float:
    return mean(f1 for _, _, f1, _ in scores[cat])


def test_identical_and_paraphrases_score_high(scores: Scores) -> None:
    assert _f1(scores, "identical") >= 0.95
    assert _f1(scores, "paraphrase") >= 0.85
    assert _f1(scores, "reordered_paraphrase") >= 0.85


def test_unrelated_texts_score_low(scores: Scores) -> None:
    assert _f1(scores, "unrelated") <= 0.15
    assert _f1(scores, "same_topic_different_facts") <= 0.15


@pytest.mark.parametrize("category", ["partial", "superset", "partial_plus_new"])
def test_partial_overlaps_are_near_the_ideal(scores: Scores, category: str) -> None:
    rows = scores[category]
    assert mean(abs(p - pair["precision"]) for p, _, _, pair in rows) <= 0.15
    assert mean(abs(r - pair["recall"]) for _, r, _, pair in rows) <= 0.15


#: Issue 4's band is a gap of 0.25 for each. The changed categories already sit at their ideal
#: F1 (the changed statement scores near 0), so the gap is what paraphrases lack: their mean
#: F1 is 0.930 with the entailment blend (see docs/texts/local-judge.md, "Limits that
#: remain"). Issue 21 set the name band at 0.20 (measured gap 0.217); the fit of the blend
#: keeps all three bands as a constraint.
GAPS = {"number_changed": 0.25, "name_changed": 0.20, "negation": 0.25}


@pytest.mark.parametrize("category", sorted(GAPS))
def test_conflicts_score_well_below_paraphrases(scores: Scores, category: str) -> None:
    assert _f1(scores, category) <= _f1(scores, "paraphrase") - GAPS[category]
    # ... and the changed statements, not the others, pay for it.
    rows = scores[category]
    ideal = mean(
        2 * pair["precision"] * pair["recall"] / (pair["precision"] + pair["recall"])
        for _, _, _, pair in rows
    )
    assert _f1(scores, category) <= ideal + 0.06
