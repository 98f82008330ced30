"""The learned verdict: signals of a matched statement -> probability the text states it.

A logistic regression over the support signals of ``_support.SIGNALS``, times one learned
veto per conflict signal (a contradicted or unsupported unit); the weights are fitted by
``benchmarks/fit_local_judge.py`` on SummEdits (dev) and part of Falke et al. and kept in
``data/verdict.json`` with the figures of the fit. Rerun the script to refit.
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

    def answer(self, signals: tuple[float, ...]) -> float:
        """The judge's answer, rounded to 4 decimals: :meth:`probability`, except that a
        statement that is a passage of the text word for word, with no unit flagged, is
        stated (1.0). A statement only contained in a longer passage is not: a fragment of a
        sentence can say something the sentence does not ("this day, the fame is untainted")."""
        n = len(self.coef)
        if signals[SIGNALS.index("exact")] == 1.0 and not any(signals[n:]):
            return 1.0
        return round(self.probability(signals), 4)

    def probability(self, signals: tuple[float, ...]) -> float:
        """The probability that a statement with these signals is stated by the text."""
        n = len(self.coef)
        z = self.intercept + math.fsum(w * x for w, x in zip(self.coef, signals[:n], strict=True))
        p = 1.0 / (1.0 + math.exp(-z)) if z > -500 else 0.0
        for veto, x in zip(self.vetoes, signals[n:], strict=True):
            if x:
                p *= (1.0 - veto) ** x
        return p


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
    )


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
    return f"only partly stated; closest: '{closest}'"


def verdicts(matches: list[Match | None]) -> list[tuple[float, str | None]]:
    """``(answer, reason)`` per matched statement; answers rounded to 4 decimals."""
    model = weights()
    out: list[tuple[float, str | None]] = []
    for found in matches:
        value = 0.0 if found is None else model.answer(found.signals)
        out.append((value, reason(found, value)))
    return out
