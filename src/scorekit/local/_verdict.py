"""The learned verdict: what the judge found of a statement -> probability the text states it.

Three kinds of evidence, combined by weights fitted on real data
(``benchmarks/fit_local_blend.py``, kept in ``data/verdict.json`` with the figures of the fit):

1. the unit checks (``_units``): a logistic regression over the support signals of
   ``_support.SIGNALS`` gives the *lexical* log-odds (fitted by ``benchmarks/fit_local_judge.py``),
   and each conflict signal (a contradicted or missing number, name, negation, role) is a
   veto that keeps only part of the answer, whatever the other evidence says;
2. the arrangement (``_arrangement``): how many of the statement's word pairs the text holds
   together, in its best passage and anywhere;
3. the entailment model (``_entail``): its confidence lifts a statement told in other words
   (paraphrase rescue, strongest where the arrangement is weak) and its doubt lowers one.

The answer is ``logistic(intercept + coef . features) * prod(veto_share ** strength)``: a
logistic model over :data:`COMBINER_FEATURES`, times the share each group of vetoes
(:data:`VETO_GROUPS`) leaves, raised to a fitted strength. All weights are fitted with fixed
signs: more evidence never lowers an answer, a conflict never raises one.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from scorekit.local._support import CONFLICT_SIGNALS, SIGNALS, SUPPORT_SIGNALS, Match

WEIGHTS_FILE = Path(__file__).parent / "data" / "verdict.json"

#: The combiner's features, in the order of its weights (see :func:`combiner_features`).
COMBINER_FEATURES = (
    "lexical",
    "entailed",
    "doubted",
    "pairs_passage",
    "pairs_text",
    "bigrams_text",
    "rescue",
    "short",
    "short_lexical",
    "short_entailed",
    "short_pairs",
)
#: A text of up to this many sentences is short (the model reads it whole); longer texts
#: count as short by ``(SHORT_SENTENCES / sentences) ** 2``.
SHORT_SENTENCES = 4.0
#: Conflict signals whose vetoes share one fitted strength. Names and negations are read
#: less surely than numbers (a lower-cased name, a negation in another clause).
VETO_GROUPS = {
    "names": ("name_conflict", "missing_name"),
    "polarity": ("polarity_conflict",),
    "other": tuple(
        c
        for c in CONFLICT_SIGNALS
        if c not in ("name_conflict", "missing_name", "polarity_conflict")
    ),
}


class Inputs(NamedTuple):
    """What the verdict reads of one matched statement (one row of the fit's data)."""

    #: log-odds of the unit checks' support signals, in ``[-LOG_ODDS_CLIP, LOG_ODDS_CLIP]``
    lexical: float
    #: log of the share of the answer each group of vetoes leaves (0.0: no conflict), at
    #: least ``-LOG_ODDS_CLIP``
    veto_names: float
    veto_polarity: float
    veto_other: float
    #: 1.0 where the statement is a passage of the text word for word, nothing flagged
    said: float
    #: entailment log-odds of the statement by its best passages (0.0 without a model)
    entail: float
    pairs_passage: float
    pairs_text: float
    bigrams_text: float
    #: sentences of the answering text
    sentences: float


def combiner_features(x: Inputs) -> tuple[Any, ...]:
    """The combiner's features of ``x`` (floats, or numpy arrays of a column each).

    ``entailed`` and ``doubted`` are the positive and negative parts of the entailment
    log-odds; ``rescue`` is ``entailed`` where the text does not hold the statement's word
    pairs (a paraphrase). ``short`` is 1 for a text of a few sentences, falling towards 0 for
    long ones: on a short text the model and the unit checks read all of it, so their evidence
    weighs differently (the fit says how); ``short_*`` are the products with it.
    """
    entailed = (x.entail + abs(x.entail)) / 2
    doubted = (x.entail - abs(x.entail)) / 2
    rescue = entailed * (1.0 - x.pairs_text)
    short = np.minimum(1.0, (SHORT_SENTENCES / np.maximum(x.sentences, 1.0)) ** 2)
    return (
        x.lexical, entailed, doubted, x.pairs_passage, x.pairs_text, x.bigrams_text, rescue,
        short, short * x.lexical, short * entailed, short * x.pairs_text,
    )  # fmt: skip


#: Answers below this come with a reason naming the unit that failed.
EXPLAIN_BELOW = 0.75
#: Below this share of its word pairs found in the text, a statement whose words are all
#: there is told as a recombination.
ARRANGED = 0.5
#: The order in which conflicts are told (the first one found is the reason).
_CONFLICT_ORDER = (
    "name", "number", "opposite", "polarity", "modality", "quantifier", "relation", "swap",
)  # fmt: skip


@dataclass(frozen=True)
class Combiner:
    """Fitted logistic weights over :data:`COMBINER_FEATURES` and veto strengths."""

    coef: tuple[float, ...]
    intercept: float
    #: one strength per :data:`VETO_GROUPS` group (1.0: the veto as fitted by the lexical stage)
    strengths: tuple[float, ...] = (1.0, 1.0, 1.0)

    def probability(self, x: Inputs) -> float:
        """The answer for one statement's inputs (before rounding)."""
        feats = combiner_features(x)
        z = self.intercept + math.fsum(float(w * f) for w, f in zip(self.coef, feats, strict=True))
        vetoes = (x.veto_names, x.veto_polarity, x.veto_other)
        kept = math.fsum(k * v for k, v in zip(self.strengths, vetoes, strict=True))
        return _logistic(z) * math.exp(kept)


@dataclass(frozen=True)
class Weights:
    """Fitted weights of the verdict.

    The lexical stage: ``intercept + coef . support signals`` is the lexical log-odds; each
    conflict signal (a contradicted or missing unit) keeps only ``1 - veto`` of the answer.
    The combiner (None: the lexical stage alone) weighs it with the arrangement and the
    entailment model.
    """

    coef: tuple[float, ...]
    intercept: float
    vetoes: tuple[float, ...]
    version: str
    combiner: Combiner | None = None

    def answer(self, found: Match) -> float:
        """The judge's answer, rounded to 4 decimals: the combined probability times the
        vetoes, except that a statement that is a passage of the text word for word, with no
        unit flagged, is stated (1.0). A statement only contained in a longer passage is not:
        a fragment of a sentence can say something the sentence does not ("this day, the fame
        is untainted")."""
        x = inputs(self, found)
        if x.said:
            return 1.0
        if self.combiner is None:
            return round(self.probability(found.signals), 4)
        return round(self.combiner.probability(x), 4)

    def lexical(self, signals: tuple[float, ...]) -> float:
        """Log-odds of the support signals (clipped to ``[-LOG_ODDS_CLIP, LOG_ODDS_CLIP]``)."""
        n = len(self.coef)
        z = self.intercept + math.fsum(w * x for w, x in zip(self.coef, signals[:n], strict=True))
        return max(-LOG_ODDS_CLIP, min(LOG_ODDS_CLIP, z))

    def veto(self, signals: tuple[float, ...], only: tuple[str, ...] = CONFLICT_SIGNALS) -> float:
        """The share of the answer the conflicts leave (1.0: none found); ``only``: of these
        conflict signals alone."""
        out = 1.0
        names = CONFLICT_SIGNALS
        for name, veto, x in zip(names, self.vetoes, signals[len(self.coef) :], strict=True):
            if x and name in only:
                out *= (1.0 - veto) ** x
        return out

    def probability(self, signals: tuple[float, ...]) -> float:
        """The lexical stage's probability that a statement with these signals is stated."""
        return _logistic(self.lexical(signals)) * self.veto(signals)


#: Log-odds are clipped here (beyond it a logistic answer no longer moves at 4 decimals).
LOG_ODDS_CLIP = 12.0


def _logistic(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z))


def inputs(weights: Weights, found: Match | None) -> Inputs:
    """What the verdict reads of a match (a statement without a passage: nothing found)."""
    if found is None:
        return Inputs(-LOG_ODDS_CLIP, 0.0, 0.0, 0.0, 0.0, -LOG_ODDS_CLIP, 0.0, 0.0, 0.0, 1.0)
    signals = found.signals
    n = len(SUPPORT_SIGNALS)
    said = signals[SIGNALS.index("exact")] == 1.0 and not any(signals[n:])
    names, polarity, other = (
        max(-LOG_ODDS_CLIP, math.log(max(weights.veto(signals, group), 1e-300)))
        for group in VETO_GROUPS.values()
    )
    pairs_passage, pairs_text, bigrams_text, sentences = found.arrangement
    return Inputs(
        weights.lexical(signals),
        names,
        polarity,
        other,
        float(said),
        0.0 if found.entail is None else found.entail,
        pairs_passage,
        pairs_text,
        bigrams_text,
        sentences,
    )


def read_weights(path: Path = WEIGHTS_FILE) -> Weights:
    """Read the verdict weights (``path``: a file written by the fitting scripts)."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    names = (*data["support_signals"], *data["conflict_signals"])
    if names != SIGNALS:
        raise ValueError(
            f"{path} was fitted for signals {names}; this judge computes {SIGNALS}."
            " Refit with benchmarks/fit_local_judge.py."
        )
    return Weights(
        tuple(float(c) for c in data["coef"]),
        float(data["intercept"]),
        tuple(float(v) for v in data["vetoes"]),
        str(data["version"]),
        _combiner(data.get("combiner"), path),
    )


def _combiner(value: Any, path: Path) -> Combiner | None:
    if value is None:
        return None
    try:
        names = tuple(value["features"])
        coef = tuple(float(c) for c in value["coef"])
        intercept = float(value["intercept"])
        strengths = tuple(float(value["veto_strengths"][g]) for g in VETO_GROUPS)
    except (TypeError, ValueError, KeyError):
        raise ValueError(
            f"{path}: 'combiner' must hold 'features', 'coef', 'intercept' and"
            f" 'veto_strengths' ({', '.join(VETO_GROUPS)});"
            " refit with benchmarks/fit_local_blend.py."
        ) from None
    if names != COMBINER_FEATURES or len(coef) != len(names):
        raise ValueError(
            f"{path}: the combiner was fitted for features {names}; this judge computes"
            f" {COMBINER_FEATURES}. Refit with benchmarks/fit_local_blend.py."
        )
    return Combiner(coef, intercept, strengths)


@lru_cache(maxsize=1)
def weights() -> Weights:
    """The packaged weights (read once)."""
    return read_weights()


def reason(found: Match | None, answer: float) -> str | None:
    """The sentence that says why an answer is low (None when it is high).

    Example:
        >>> reason(None, 0.0)
        'the text has no sentence to answer from'
    """
    if answer >= EXPLAIN_BELOW:
        return None
    if found is None:
        return "the text has no sentence to answer from"
    check = found.check
    for kind in _CONFLICT_ORDER:
        if kind in check.conflicts:
            return check.conflicts[kind]
    for kind in ("name", "number"):
        if kind in check.missing:
            return check.missing[kind]
    if check.weakest < 0.5 and check.weakest_word:
        where = "the text" if check.text_credit < 1.0 else "the passage it matches"
        return f"'{check.weakest_word}' is not in {where}"
    closest = found.passage if len(found.passage) <= 90 else found.passage[:87] + "..."
    if found.arrangement[1] < ARRANGED and check.text_credit >= 0.99:
        # Every word is in the text, few of its pairs are: a recombination of the text's words.
        return f"the text has its words but does not put them together so; closest: '{closest}'"
    if found.entail is not None and found.entail < 0.0:
        return f"the text does not say this; closest: '{closest}'"
    return f"only partly stated; closest: '{closest}'"


def verdicts(matches: list[Match | None]) -> list[tuple[float, str | None]]:
    """``(answer, reason)`` per matched statement; answers rounded to 4 decimals."""
    model = weights()
    out: list[tuple[float, str | None]] = []
    for found in matches:
        value = 0.0 if found is None else model.answer(found)
        out.append((value, reason(found, value)))
    return out
