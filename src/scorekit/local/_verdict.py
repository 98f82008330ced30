"""The learned verdict: signals of a matched statement -> probability the text states it.

Two stages, both fitted by ``benchmarks/fit_local_judge.py`` and kept in ``data/verdict.json``
with the figures of the fit (rerun the script to refit):

1. the lexical verdict: a logistic regression over the support signals of
   ``_support.SIGNALS``, times one learned veto per conflict signal (a contradicted or
   unsupported unit), fitted on SummEdits (dev) and part of Falke et al.;
2. the entailment blend: the trained cross-encoder's log-odds ``e`` (``_entail``) moves the
   lexical log-odds down when it doubts the statement and up when it is sure of it,
   ``z = logit(p) + below * min(0, e - pivot) + above * max(0, e - pivot)``, fitted on held-out
   parts of HaluEval and SNLI with SummEdits dev and Falke.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from scorekit.local._support import SIGNALS, Match

WEIGHTS_FILE = Path(__file__).parent / "data" / "verdict.json"

#: Answers below this come with a reason naming the unit that failed.
EXPLAIN_BELOW = 0.75
#: The order in which conflicts are told (the first one found is the reason).
_CONFLICT_ORDER = (
    "name", "number", "opposite", "polarity", "modality", "quantifier", "relation", "swap",
)  # fmt: skip


@dataclass(frozen=True)
class Weights:
    """Fitted weights of the verdict model.

    ``probability = logistic(intercept + coef . support signals) * prod((1 - veto) ** conflict)``:
    the support signals say how much of the statement the passage holds; each conflict signal
    (a contradicted or missing unit) keeps only ``1 - veto`` of it. The weakest link decides.
    """

    coef: tuple[float, ...]
    intercept: float
    vetoes: tuple[float, ...]
    version: str
    #: ``(below, above, pivot)`` of the entailment blend; zeros leave the lexical verdict.
    blend: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def answer(self, signals: tuple[float, ...], entail: float | None = None) -> float:
        """The judge's answer, rounded to 4 decimals: :meth:`probability`, except that a
        statement that is a passage of the text word for word, with no unit flagged, is
        stated (1.0). A statement only contained in a longer passage is not: a fragment of a
        sentence can say something the sentence does not ("this day, the fame is untainted")."""
        n = len(self.coef)
        if signals[SIGNALS.index("exact")] == 1.0 and not any(signals[n:]):
            return 1.0
        return round(self.blended(self.probability(signals), entail), 4)

    def blended(self, p: float, entail: float | None) -> float:
        """The lexical probability ``p`` moved by the entailment log-odds (unchanged when
        there is none).

        Example:
            >>> w = Weights((), 0.0, (), "x", blend=(0.5, 0.25, 1.0))
            >>> round(w.blended(0.5, 1.0), 4), round(w.blended(0.5, -3.0), 4)
            (0.5, 0.1192)
        """
        below, above, pivot = self.blend
        if entail is None or (below == 0.0 and above == 0.0):
            return p
        z = lexical_log_odds(p)
        z += below * min(0.0, entail - pivot) + above * max(0.0, entail - pivot)
        return 1.0 / (1.0 + math.exp(-z))

    def probability(self, signals: tuple[float, ...]) -> float:
        """The probability that a statement with these signals is stated by the text."""
        n = len(self.coef)
        z = self.intercept + math.fsum(w * x for w, x in zip(self.coef, signals[:n], strict=True))
        p = 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0
        for veto, x in zip(self.vetoes, signals[n:], strict=True):
            if x:
                p *= (1.0 - veto) ** x
        return p


#: The lexical probability's log-odds are clipped here (a veto can give exactly 0).
LOG_ODDS_CLIP = 12.0


def lexical_log_odds(p: float) -> float:
    """``log(p / (1 - p))`` clipped to ``[-LOG_ODDS_CLIP, LOG_ODDS_CLIP]``.

    Example:
        >>> lexical_log_odds(0.5), lexical_log_odds(0.0)
        (0.0, -12.0)
    """
    edge = 1.0 / (1.0 + math.exp(LOG_ODDS_CLIP))
    q = min(max(p, edge), 1.0 - edge)
    return max(-LOG_ODDS_CLIP, min(LOG_ODDS_CLIP, math.log(q / (1.0 - q))))


def read_weights(path: Path = WEIGHTS_FILE) -> Weights:
    """Read the verdict weights (``path``: a file written by the fitting script)."""
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
        _blend(data.get("blend"), path),
    )


def _blend(value: Any, path: Path) -> tuple[float, float, float]:
    if value is None:
        return (0.0, 0.0, 0.0)
    if isinstance(value, dict):
        value = [value.get("below"), value.get("above"), value.get("pivot")]
    try:
        below, above, pivot = (float(v) for v in value)
    except (TypeError, ValueError):
        raise ValueError(
            f"{path}: 'blend' must hold 'below', 'above' and 'pivot' numbers;"
            " refit with benchmarks/fit_local_judge.py."
        ) from None
    return (below, above, pivot)


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
    if found.entail is not None and found.entail < 0.0:
        return f"the text does not say this; closest: '{closest}'"
    return f"only partly stated; closest: '{closest}'"


def verdicts(matches: list[Match | None]) -> list[tuple[float, str | None]]:
    """``(answer, reason)`` per matched statement; answers rounded to 4 decimals."""
    model = weights()
    out: list[tuple[float, str | None]] = []
    for found in matches:
        value = 0.0 if found is None else model.answer(found.signals, found.entail)
        out.append((value, reason(found, value)))
    return out
